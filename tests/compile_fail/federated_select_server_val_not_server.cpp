// federated_select with server_val placed at CLIENTS.
// expect: ctff: federated_select: server_val must be placed at SERVER, equal at all locations (all_equal)
// expect: server_val: {float32}@CLIENTS
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<i32>, ctff::at_clients<float>>(
    [](auto k, auto m, auto s) { return ctff::federated_select(k, m, s, pick); });  // expect-line
static_assert(!c.compact().empty());
