// sequence_reduce with a constant as op.
// expect: ctff: sequence_reduce: op must be a computation or a function-typed value
// expect: op: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_reduce(s, 0, 1); });  // expect-line
static_assert(!c.compact().empty());
