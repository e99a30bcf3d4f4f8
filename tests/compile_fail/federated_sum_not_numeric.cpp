// federated_sum of bool members (not numeric).
// expect: ctff: federated_sum: the member type must be a structure of numeric tensors (not bool or str)
// expect: value: {<int32,bool>}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::struct_<i32, bool>>>(
    [](auto x) { return ctff::federated_sum(x); });  // expect-line
static_assert(!c.compact().empty());
