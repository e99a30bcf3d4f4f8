// federated_select with a select_fn that returns a sequence.
// expect: ctff: federated_select: select_fn's result must not contain federated, function or sequence types
// expect: result: int32*
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<i32>, ctff::at_server<float>, ctff::function<ctff::struct_<float, i32>, ctff::sequence<i32>>>(
    [](auto k, auto m, auto s, auto f) { return ctff::federated_select(k, m, s, f); });  // expect-line
static_assert(!c.compact().empty());
