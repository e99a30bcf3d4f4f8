// federated_secure_select with an unplaced server_val.
// expect: ctff: federated_secure_select: server_val must be federated, or a struct of federated values to zip
// expect: server_val: float32
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<i32>>(
    [](auto k, auto m) { return ctff::federated_secure_select(k, m, 1.5f, pick); });  // expect-line
static_assert(!c.compact().empty());
