// A value made from constants only, kept in a variable, meets calls of the parameter made
// after it: Python binds it first, C++ cannot see when it was made. One error naming its line.
// expect: ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is kept in a variable and meets calls traced elsewhere
#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<std::int32_t>>([](auto x) {
  auto v0 = ctff::federated_value(100.0f, ctff::SERVER);  // expect-line
  auto z = ctff::federated_sum(x);
  return std::tuple{z, v0};
});
static_assert(!c.compact().empty());
static_assert(c.bytes().size() != 0);
static_assert(!c.structural().empty());
