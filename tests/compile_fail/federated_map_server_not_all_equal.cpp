// federated_map (federated_apply) of a SERVER value that is not all_equal.
// expect: ctff: federated_map: a value placed at SERVER must be equal at all locations (all_equal)
// expect: value: {int32}@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
using server_not_all_equal = ctff::federated<i32, ctff::placement_kind::server, false>;
constexpr auto c = ctff::computation<"c", server_not_all_equal>(
    [](auto x) { return ctff::federated_map(add_one, x); });  // expect-line
static_assert(!c.compact().empty());
