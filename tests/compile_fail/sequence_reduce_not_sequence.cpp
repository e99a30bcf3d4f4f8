// sequence_reduce of a value that is no sequence.
// expect: ctff: sequence_reduce: the value must be a sequence or a federated sequence
// expect: value: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto acc = ctff::computation<"acc", i32, i32>([](auto u, auto t) { return u + t; });
constexpr auto c = ctff::computation<"c", i32>(
    [](auto s) { return ctff::sequence_reduce(s, 0, acc); });  // expect-line
static_assert(!c.compact().empty());
