// federated_zip of values placed at CLIENTS and at SERVER.
// expect: ctff: federated_zip: all federated values must have the same placement
// expect: <{int32}@CLIENTS,int32@SERVER>
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>, ctff::at_server<i32>>(
    [](auto a, auto b) { return ctff::federated_zip(a, b); });  // expect-line
static_assert(!c.compact().empty());
