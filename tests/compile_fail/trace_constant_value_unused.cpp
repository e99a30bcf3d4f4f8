// A value made from constants only that is never used: Python binds it, C++ cannot tell where.
// expect-mode: trace strict
// expect: ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is never used
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<std::int32_t>>([](auto x) {
  ctff::federated_value(2, ctff::SERVER);  // expect-made-line
  return ctff::federated_sum(x);
});
static_assert(!c.compact().empty());  // expect-line
