// federated_max of bool members.
// expect: ctff: federated_max: the member type must consist of integer or floating-point tensors
// expect: value: {bool}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<bool>>(
    [](auto x) { return ctff::federated_max(x); });  // expect-line
static_assert(!c.compact().empty());
