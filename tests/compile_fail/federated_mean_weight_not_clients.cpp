// federated_mean with a weight placed at SERVER.
// expect: ctff: federated_mean: the weight must be placed at CLIENTS
// expect: weight: float32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>, ctff::at_server<float>>(
    [](auto x, auto w) { return ctff::federated_mean(x, w); });  // expect-line
static_assert(!c.compact().empty());
