// federated_aggregate of a SERVER value.
// expect: ctff: federated_aggregate: the value must be placed at CLIENTS
// expect: value: int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto c = ctff::computation<"c", ctff::at_server<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, 0, acc, acc, ident); });  // expect-line
static_assert(!c.compact().empty());
