// federated_mean of integers with a weight: the value's rules are the unweighted mean's.
// expect: ctff: federated_mean: the member type must consist of floating-point or complex tensors
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;

constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>, ctff::at_clients<float>>(
    [](auto x, auto w) { return ctff::federated_mean(x, w); });  // expect-line
static_assert(!c.compact().empty());
