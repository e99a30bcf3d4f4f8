// federated_sum of tensors with an unknown dimension.
// expect: ctff: federated_sum: the tensor shapes of the member type must be fully defined
// expect: value: {float32[?]}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::tensor<ctff::dtype::float32, ctff::unknown_dim>>>(
    [](auto x) { return ctff::federated_sum(x); });  // expect-line
static_assert(!c.compact().empty());
