// federated_map_all_equal of a CLIENTS value that is not all_equal.
// expect: ctff: federated_map_all_equal: the value must be equal at all locations (all_equal)
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_map_all_equal(add_one, x); });  // expect-line
static_assert(!c.compact().empty());
