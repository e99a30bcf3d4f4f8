// federated_secure_sum_bitwidth of float32 members.
// expect: ctff: federated_secure_sum_bitwidth: the member type must be a structure of integers
// expect: value: {float32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>>(
    [](auto x) { return ctff::federated_secure_sum_bitwidth(x, 8); });  // expect-line
static_assert(!c.compact().empty());
