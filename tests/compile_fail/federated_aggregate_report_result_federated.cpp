// federated_aggregate with a report whose result is federated.
// expect: ctff: federated_aggregate: report's result must not contain federated or function types
// expect: report: (int32 -> int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto to_server = ctff::computation<"to_server", i32>([](auto x) { return ctff::federated_value(x, ctff::SERVER); });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, 0, acc, acc, to_server); });  // expect-line
static_assert(!c.compact().empty());
