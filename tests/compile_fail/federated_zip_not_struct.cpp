// federated_zip of a single federated value.
// expect: ctff: federated_zip: the value must be a struct
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_zip(x); });  // expect-line
static_assert(!c.compact().empty());
