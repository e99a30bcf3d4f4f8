// generic_plus of an int32 and a float32.
// expect: ctff: generic operator: both operands must have the same type
// expect: left: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return x + 1.5f; });  // expect-line
static_assert(!c.compact().empty());
