// a % b on traced values: federated_language has no remainder.
// expect: ctff: operator%: federated_language has no remainder intrinsic
// expect: right: int32
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto rem = ctff::computation<"rem", std::int32_t>(
    [](auto x) { return x % 7; });  // expect-line
static_assert(!rem.compact().empty());
