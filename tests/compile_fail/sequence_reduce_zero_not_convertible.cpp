// sequence_reduce with a zero that has no TFF type.
// expect: ctff: sequence_reduce: the zero must be a traced value, a constant or a tuple of them
// expect: nullptr_t
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_reduce(s, nullptr, acc); });  // expect-line
static_assert(!c.compact().empty());
