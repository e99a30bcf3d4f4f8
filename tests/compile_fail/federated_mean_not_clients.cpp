// federated_mean of a value placed at SERVER.
// expect: ctff: federated_mean: the value must be placed at CLIENTS
// expect: value: float32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_server<float>>(
    [](auto x) { return ctff::federated_mean(x); });  // expect-line
static_assert(!c.compact().empty());
