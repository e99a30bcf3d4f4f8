// federated_select with keys of unknown size.
// expect: ctff: federated_select: the keys must be an int32 tensor of rank 1 and known size
// expect: keys: {int32[?]}@CLIENTS
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::tensor<ctff::dtype::int32, ctff::unknown_dim>>, ctff::at_server<i32>, ctff::at_server<float>>(
    [](auto k, auto m, auto s) { return ctff::federated_select(k, m, s, pick); });  // expect-line
static_assert(!c.compact().empty());
