// Calling a function without parameter with an argument.
// expect: ctff: call: this function takes no argument
// expect: function: ( -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto five = ctff::computation<"five">([] { return 5; });
constexpr auto c = ctff::computation<"c">(
    [] { return five(1); });  // expect-line
static_assert(!c.compact().empty());
