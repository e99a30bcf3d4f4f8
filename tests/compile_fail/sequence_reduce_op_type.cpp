// sequence_reduce with an op whose result is not the zero's type.
// expect: ctff: sequence_reduce: op must have type (<U,T> -> U), with U the type of the zero and T the element type of the sequence
// expect: op: (<int32,int32> -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_reduce(s, 0.5f, acc); });  // expect-line
static_assert(!c.compact().empty());
