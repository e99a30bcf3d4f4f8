// sequence_map with a constant as the mapping function.
// expect: ctff: sequence_map: the mapping function must be a computation or a function-typed value
// expect: function: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_map(1, s); });  // expect-line
static_assert(!c.compact().empty());
