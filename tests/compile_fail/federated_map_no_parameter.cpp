// federated_map with a function that takes no parameter.
// expect: ctff: federated_map: the mapping function must take a parameter
// expect: function: ( -> int32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto five = ctff::computation<"five">([] { return 5; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_map(five, x); });  // expect-line
static_assert(!c.compact().empty());
