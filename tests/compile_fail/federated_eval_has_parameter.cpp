// federated_eval of a function with a parameter.
// expect: ctff: federated_eval: the function must take no parameter
// expect: function: (int32 -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c">(
    [] { return ctff::federated_eval(add_one, ctff::SERVER); });  // expect-line
static_assert(!c.compact().empty());
