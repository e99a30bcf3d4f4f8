// Pieces of 8, 16 or 32 characters print as strings on clang too (not as lists of numbers):
// "value: int32[10]" is 16.
// expect: ctff: federated_sum: the value must be federated
// expect: value: int32[10]
#include <array>
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::array<std::int32_t, 10>>(
    [](auto x) { return ctff::federated_sum(x); });  // expect-line
static_assert(!c.compact().empty());
