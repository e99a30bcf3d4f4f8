// A computation without parameters: two values made from constants only, kept in variables and
// returned in the other order. Python binds `a` first; C++ cannot see which was made first.
// expect: ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is kept in a variable
#include <tuple>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c">([] {
  auto a = ctff::federated_value(1, ctff::SERVER);  // expect-line
  auto b = ctff::federated_value(2.0f, ctff::SERVER);
  return std::tuple{b, a};
});
static_assert(!c.formatted().empty());
