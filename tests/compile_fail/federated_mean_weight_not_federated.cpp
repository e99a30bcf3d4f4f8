// federated_mean with an unplaced weight.
// expect: ctff: federated_mean: the weight must be federated, or a struct of federated values to zip
// expect: weight: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>>(
    [](auto x) { return ctff::federated_mean(x, 2); });  // expect-line
static_assert(!c.compact().empty());
