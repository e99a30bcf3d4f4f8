// federated_select with a select_fn whose key parameter is not exactly int32.
// expect: ctff: federated_select: the types are no instance of (<{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> -> {U*}@CLIENTS)
// expect: (<{int32[3]}@CLIENTS,int32@SERVER,
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using keys_t = ctff::at_clients<std::array<i32, 3>>;
constexpr auto pick = ctff::computation<"pick", float, i32>([](auto s, auto) { return s; });
constexpr auto c = ctff::computation<"c", keys_t, ctff::at_server<i32>, ctff::at_server<float>, ctff::function<ctff::struct_<float, ctff::tensor<ctff::dtype::int32, ctff::unknown_rank>>, float>>(
    [](auto k, auto m, auto s, auto f) { return ctff::federated_select(k, m, s, f); });  // expect-line
static_assert(!c.compact().empty());
