// federated_aggregate with a zero that has no TFF type.
// expect: ctff: federated_aggregate: the zero must be a traced value, a constant or a tuple of them
// expect: nullptr_t
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, nullptr, acc, acc, ident); });  // expect-line
static_assert(!c.compact().empty());
