// sequence_sum of a sequence of tensors of unknown rank.
// expect: ctff: sequence_sum: the tensor shapes of the element type must be fully defined
// expect: (shape=None)*
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::sequence<ctff::tensor<ctff::dtype::float32, ctff::unknown_rank>>>>(
    [](auto s) { return ctff::sequence_sum(s); });  // expect-line
static_assert(!c.compact().empty());
