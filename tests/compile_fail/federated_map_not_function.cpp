// federated_map with a constant as the mapping function.
// expect: ctff: federated_map: the mapping function must be a computation or a function-typed value
// expect: function: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_map(3, x); });  // expect-line
static_assert(!c.compact().empty());
