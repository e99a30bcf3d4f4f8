// A traced function that returns nothing.
// expect: ctff: computation: the traced function returned nothing
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<std::int32_t>>(  // expect-line
    [](auto x) { ctff::federated_sum(x); });
static_assert(!c.compact().empty());
