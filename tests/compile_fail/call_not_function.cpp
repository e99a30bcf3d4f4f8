// Calling a value that is no function.
// expect: ctff: call: the callee is not a function
// expect: callee: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return x(1); });  // expect-line
static_assert(!c.compact().empty());
