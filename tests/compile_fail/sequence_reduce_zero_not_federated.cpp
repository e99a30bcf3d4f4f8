// sequence_reduce of a federated sequence with an unplaced zero.
// expect: ctff: sequence_reduce: with a federated sequence, the zero must be federated at the same placement
// expect: value: {int32*}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::sequence<i32>>>(
    [](auto s) { return ctff::sequence_reduce(s, 0, acc); });  // expect-line
static_assert(!c.compact().empty());
