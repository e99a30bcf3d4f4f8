// A polymorphic computation called with no argument (its parameter types come from the
// arguments; a function without parameters is a ctff::computation).
// expect: ctff: polymorphic: call it with at least one argument
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto one =
    ctff::polymorphic<"one">([] { return ctff::federated_value(1, ctff::SERVER); });
constexpr auto c = ctff::computation<"c", std::int32_t>([](auto x) {
  (void)x;
  return one();  // expect-line
});
static_assert(c.bytes().size() != 0);
