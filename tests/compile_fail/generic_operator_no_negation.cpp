// -x on a traced value: federated_language has no negation. One error, and none from the
// computation that calls the one that traces it.
// expect: ctff: operator-: federated_language has no negation intrinsic
// expect: operand: int32
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto negate = ctff::computation<"negate", std::int32_t>(
    [](auto x) { return -x; });  // expect-line
constexpr auto twice = ctff::computation<"twice", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_sum(ctff::federated_map(negate, v)); });
static_assert(!twice.compact().empty());
