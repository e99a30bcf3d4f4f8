// federated_secure_select with a select_fn that takes the wrong parameter.
// expect: ctff: federated_secure_select: select_fn must be a function whose parameter is assignable from <S,int32>, S the member type of server_val
// expect: (<float32,int32> -> float32)
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<i32>, ctff::at_server<i32>>(
    [](auto k, auto m, auto s) { return ctff::federated_secure_select(k, m, s, pick); });  // expect-line
static_assert(!c.compact().empty());
