// federated_mean of an unplaced value.
// expect: ctff: federated_mean: the value must be federated, or a struct of federated values to zip
// expect: value: float32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", float>(
    [](auto x) { return ctff::federated_mean(x); });  // expect-line
static_assert(!c.compact().empty());
