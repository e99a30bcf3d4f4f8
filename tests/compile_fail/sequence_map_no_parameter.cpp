// sequence_map with a function that takes no parameter.
// expect: ctff: sequence_map: the mapping function must take a parameter
// expect: function: ( -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto five = ctff::computation<"five">([] { return 5; });
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_map(five, s); });  // expect-line
static_assert(!c.compact().empty());
