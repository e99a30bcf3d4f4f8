// federated_aggregate with a merge over the wrong type.
// expect: ctff: federated_aggregate: merge must have type (<U,U> -> U), with U the result type of accumulate
// expect: (<float32,float32> -> float32)
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto fmerge = ctff::computation<"fmerge", float, float>([](auto a, auto b) { return a + b; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, 0, acc, fmerge, ident); });  // expect-line
static_assert(!c.compact().empty());
