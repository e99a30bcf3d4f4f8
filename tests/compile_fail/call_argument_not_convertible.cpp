// Calling a function with an argument that has no TFF type.
// expect: ctff: call: every argument must be a traced value, a constant, a computation or a tuple of them
// expect: nullptr_t
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c">(
    [] { return add_one(nullptr); });  // expect-line
static_assert(!c.compact().empty());
