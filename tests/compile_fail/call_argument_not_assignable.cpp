// Calling an int32 function with a float32.
// expect: ctff: call: the argument is not assignable to the function's parameter type
// expect: parameter: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c">(
    [] { return add_one(1.5f); });  // expect-line
static_assert(!c.compact().empty());
