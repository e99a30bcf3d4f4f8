// sequence_sum of a SERVER sequence that is not all_equal.
// expect: ctff: sequence_sum: a federated sequence placed at SERVER must be equal at all locations (all_equal)
// expect: value: {int32*}@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::federated<ctff::sequence<i32>, ctff::placement_kind::server, false>>(
    [](auto s) { return ctff::sequence_sum(s); });  // expect-line
static_assert(!c.compact().empty());
