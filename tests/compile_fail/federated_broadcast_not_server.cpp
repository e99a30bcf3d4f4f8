// federated_broadcast of a value placed at CLIENTS.
// expect: ctff: federated_broadcast: the value must be placed at SERVER
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_sum(ctff::federated_broadcast(x)); });  // expect-line
static_assert(!c.compact().empty());
