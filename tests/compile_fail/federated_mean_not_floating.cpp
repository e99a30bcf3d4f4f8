// federated_mean of int32 members (not floating-point or complex).
// expect: ctff: federated_mean: the member type must consist of floating-point or complex tensors
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_mean(x); });  // expect-line
static_assert(!c.compact().empty());
