// Selecting an element of a federated value whose member is no struct.
// expect: ctff: get: the value is not a struct or a federated struct
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::get<0>(x); });  // expect-line
static_assert(!c.compact().empty());
