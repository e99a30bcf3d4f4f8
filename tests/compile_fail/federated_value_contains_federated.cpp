// federated_value of a value that is already federated.
// expect: ctff: federated_value: the value must not contain federated or function types
// expect: value: <int32@SERVER>
#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;

constexpr auto c = ctff::computation<"c", ctff::at_server<i32>>(
    [](auto x) { return ctff::federated_value(std::tuple{x}, ctff::CLIENTS); });  // expect-line
static_assert(!c.compact().empty());
