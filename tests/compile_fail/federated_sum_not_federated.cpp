// federated_sum of an unplaced value.
// expect: ctff: federated_sum: the value must be federated, or a struct of federated values to zip
// expect: value: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return ctff::federated_sum(x); });  // expect-line
static_assert(!c.compact().empty());
