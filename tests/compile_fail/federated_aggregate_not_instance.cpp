// federated_aggregate whose accumulate result differs from its first parameter (U bound twice).
// expect: ctff: federated_aggregate: accumulate's first parameter and the results of accumulate and merge must all have one type U
// expect: (<{int32}@CLIENTS,int32[?],
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
using vec = ctff::tensor<ctff::dtype::int32, ctff::unknown_dim>;
constexpr auto acc2 = ctff::computation<"acc2", vec, i32>([](auto, auto) { return std::array<int, 2>{1, 2}; });
constexpr auto merge2 = ctff::computation<"merge2", std::array<int, 2>, std::array<int, 2>>([](auto a, auto) { return a; });
constexpr auto id2 = ctff::computation<"id2", std::array<int, 2>>([](auto a) { return a; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto v) { return ctff::federated_aggregate(v, std::array<int, 2>{0, 0}, acc2, merge2, id2); });  // expect-line
static_assert(!c.compact().empty());
