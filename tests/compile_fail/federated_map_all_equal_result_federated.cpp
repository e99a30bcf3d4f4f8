// federated_map_all_equal of a function whose result is federated.
// expect: ctff: federated_map_all_equal: the mapping function's result must not contain federated or function types
// expect: result: int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto to_server = ctff::computation<"to_server", i32>([](auto x) { return ctff::federated_value(x, ctff::SERVER); });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32, ctff::all_equal>>(
    [](auto x) { return ctff::federated_map_all_equal(to_server, x); });  // expect-line
static_assert(!c.compact().empty());
