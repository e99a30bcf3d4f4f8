// federated_aggregate with an accumulate over the wrong member type.
// expect: ctff: federated_aggregate: accumulate must have type (<U,T> -> U), with T the member type of the value
// expect: accumulate: (<int32,int32> ->
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto ident = ctff::computation<"ident", i32>([](auto x) { return x; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>>(
    [](auto v) { return ctff::federated_aggregate(v, 0, acc, acc, ident); });  // expect-line
static_assert(!c.compact().empty());
