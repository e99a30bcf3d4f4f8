// sequence_map of a function whose result is federated.
// expect: ctff: sequence_map: the mapping function's result must not contain federated, function or sequence types
// expect: result: int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto to_server = ctff::computation<"to_server", i32>([](auto x) { return ctff::federated_value(x, ctff::SERVER); });
constexpr auto c = ctff::computation<"c", ctff::sequence<i32>>(
    [](auto s) { return ctff::sequence_map(to_server, s); });  // expect-line
static_assert(!c.compact().empty());
