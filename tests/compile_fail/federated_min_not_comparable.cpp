// federated_min of complex members.
// expect: ctff: federated_min: the member type must consist of integer or floating-point tensors
// expect: value: {complex64}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::tensor<ctff::dtype::complex64>>>(
    [](auto x) { return ctff::federated_min(x); });  // expect-line
static_assert(!c.compact().empty());
