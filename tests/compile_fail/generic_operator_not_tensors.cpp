// generic_plus of federated values.
// expect: ctff: generic operator: both operands must be tensors or structs of tensors
// expect: left: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return x + x; });  // expect-line
static_assert(!c.compact().empty());
