// federated_select with an unplaced max_key.
// expect: ctff: federated_select: max_key must be an int32 placed at SERVER
// expect: max_key: int32
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<float>>(
    [](auto k, auto s) { return ctff::federated_select(k, 10, s, pick); });  // expect-line
static_assert(!c.compact().empty());
