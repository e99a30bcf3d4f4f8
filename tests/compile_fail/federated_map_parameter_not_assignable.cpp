// federated_map of an int32 function over float32 members.
// expect: ctff: federated_map: the mapping function's parameter type is not assignable from the value's member type
// expect: parameter: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>>(
    [](auto x) { return ctff::federated_map(add_one, x); });  // expect-line
static_assert(!c.compact().empty());
