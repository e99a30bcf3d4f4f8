// Calling a function of one unstructured parameter with two arguments.
// expect: ctff: call: several arguments need a struct parameter of that many elements
// expect: function: (int32 -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c">(
    [] { return add_one(1, 2); });  // expect-line
static_assert(!c.compact().empty());
