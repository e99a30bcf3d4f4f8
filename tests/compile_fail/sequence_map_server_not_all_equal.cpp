// sequence_map over a SERVER sequence that is not all_equal.
// expect: ctff: sequence_map: a federated sequence placed at SERVER must be equal at all locations (all_equal)
// expect: value: {int32*}@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", ctff::federated<ctff::sequence<i32>, ctff::placement_kind::server, false>>(
    [](auto s) { return ctff::sequence_map(add_one, s); });  // expect-line
static_assert(!c.compact().empty());
