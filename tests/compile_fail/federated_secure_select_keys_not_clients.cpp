// federated_secure_select with keys placed at SERVER.
// expect: ctff: federated_secure_select: the keys must be placed at CLIENTS
// expect: keys: int32[3]@SERVER
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", ctff::at_server<std::array<i32, 3>>, ctff::at_server<i32>, ctff::at_server<float>>(
    [](auto k, auto m, auto s) { return ctff::federated_secure_select(k, m, s, pick); });  // expect-line
static_assert(!c.compact().empty());
