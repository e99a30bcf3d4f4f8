// A floating value (made from constants) evaluated first, then a helper whose unused result
// sits before its calls: the unused result may belong to the helper or to the statement before.
// One error naming the line that made the value made from constants.
// expect: ctff: C++ evaluated these arguments out of order and their calls cannot be put back into Python
#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<std::int32_t>>([](auto x) {
  auto h = [](auto v) {
    ctff::federated_max(v);
    return ctff::federated_sum(v);
  };
  return std::tuple{ctff::federated_value(1, ctff::SERVER), h(x)};  // expect-line
});
static_assert(!c.compact().empty());
