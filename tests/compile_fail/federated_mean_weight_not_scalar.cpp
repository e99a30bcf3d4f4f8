// federated_mean with a vector weight.
// expect: ctff: federated_mean: the weight must be an integer or floating-point scalar
// expect: weight: {float32[2]}@CLIENTS
#include <cstdint>
#include <array>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;

constexpr auto c = ctff::computation<"c", ctff::at_clients<float>, ctff::at_clients<std::array<float, 2>>>(
    [](auto x, auto w) { return ctff::federated_mean(x, w); });  // expect-line
static_assert(!c.compact().empty());
