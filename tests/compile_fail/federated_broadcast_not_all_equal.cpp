// federated_broadcast of a SERVER value that is not all_equal.
// expect: ctff: federated_broadcast: the value must be equal at all locations (all_equal)
// expect: value: {int32}@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using server_not_all_equal = ctff::federated<i32, ctff::placement_kind::server, false>;
constexpr auto c = ctff::computation<"c", server_not_all_equal>(
    [](auto x) { return ctff::federated_broadcast(x); });  // expect-line
static_assert(!c.compact().empty());
