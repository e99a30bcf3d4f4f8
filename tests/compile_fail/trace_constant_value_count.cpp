// A client count made from constants only, kept in a variable and used after other calls (the
// idiom: `auto [total, n] = ctff::make_struct(ctff::federated_sum(h), ctff::federated_sum(
// ctff::federated_value(1, ctff::CLIENTS)));`). One error naming its line, whatever outputs.
// expect: ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is kept in a variable
// expect: docs/porting_from_python.md
#include <tuple>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<float>>([](auto h) {
  auto n = ctff::federated_sum(ctff::federated_value(1, ctff::CLIENTS));  // expect-line
  auto total = ctff::federated_sum(h);
  return std::tuple{total, n};
});
int main() { return static_cast<int>(c.bytes().size() + c.compact().size() + c.formatted().size()); }
