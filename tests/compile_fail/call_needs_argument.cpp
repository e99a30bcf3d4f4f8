// Calling a function of one parameter without an argument.
// expect: ctff: call: this function needs an argument
// expect: function: (int32 -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c">(
    [] { return add_one(); });  // expect-line
static_assert(!c.compact().empty());
