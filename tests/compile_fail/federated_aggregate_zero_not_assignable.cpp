// federated_aggregate with a float32 zero for an int32 accumulator.
// expect: ctff: federated_aggregate: the zero is not assignable to accumulate's first parameter
// expect: zero: float32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, 0.5f, acc, acc, ident); });  // expect-line
static_assert(!c.compact().empty());
