// sequence_sum of a sequence of strings.
// expect: ctff: sequence_sum: the element type must be a structure of numeric tensors (not bool or str)
// expect: value: str*
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::sequence<ctff::tensor<ctff::dtype::str>>>(
    [](auto s) { return ctff::sequence_sum(s); });  // expect-line
static_assert(!c.compact().empty());
