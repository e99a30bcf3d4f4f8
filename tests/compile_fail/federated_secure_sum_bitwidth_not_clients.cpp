// federated_secure_sum_bitwidth of a SERVER value.
// expect: ctff: federated_secure_sum_bitwidth: the value must be placed at CLIENTS
// expect: value: int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_server<i32>>(
    [](auto x) { return ctff::federated_secure_sum_bitwidth(x, 8); });  // expect-line
static_assert(!c.compact().empty());
