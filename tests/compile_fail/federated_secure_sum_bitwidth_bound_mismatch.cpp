// federated_secure_sum_bitwidth with an unnamed struct bound for a named member struct.
// expect: ctff: federated_secure_sum_bitwidth: bitwidth must be one integer scalar, or a struct of them with the structure and names of the member type
// expect: bitwidth: <int32,int32>
#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;

constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::struct_<ctff::field<"a", i32>, ctff::field<"b", i32>>>>(
    [](auto x) { return ctff::federated_secure_sum_bitwidth(x, std::tuple{8, 8}); });  // expect-line
static_assert(!c.compact().empty());
