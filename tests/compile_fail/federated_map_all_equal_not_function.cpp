// federated_map_all_equal with a constant as the mapping function.
// expect: ctff: federated_map_all_equal: the mapping function must be a computation or a function-typed value
// expect: function: float32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32, ctff::all_equal>>(
    [](auto x) { return ctff::federated_map_all_equal(1.5f, x); });  // expect-line
static_assert(!c.compact().empty());
