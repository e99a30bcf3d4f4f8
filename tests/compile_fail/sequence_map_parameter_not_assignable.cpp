// sequence_map of an int32 function over a float32 sequence.
// expect: ctff: sequence_map: the mapping function's parameter type is not assignable from the sequence's element type
// expect: parameter: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::sequence<float>>>(
    [](auto s) { return ctff::sequence_map(add_one, s); });  // expect-line
static_assert(!c.compact().empty());
