// federated_eval of a constant.
// expect: ctff: federated_eval: the function must be a computation or a function-typed value
// expect: function: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c">(
    [] { return ctff::federated_eval(5, ctff::CLIENTS); });  // expect-line
static_assert(!c.compact().empty());
