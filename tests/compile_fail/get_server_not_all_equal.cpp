// Selecting an element of a SERVER struct that is not all_equal (federated_apply needs all_equal).
// expect: ctff: get: a federated struct placed at SERVER must be equal at all locations (all_equal)
// expect: value: {<int32,float32>}@SERVE
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::federated<ctff::struct_<i32, float>, ctff::placement_kind::server, false>>(
    [](auto x) { return ctff::get<1>(x); });  // expect-line
static_assert(!c.compact().empty());
