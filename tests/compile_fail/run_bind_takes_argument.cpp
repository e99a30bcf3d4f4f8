// Binding a computation with no parameter to a callable that takes one.
// expect: ctff: bind: the callable must take no argument: the computation has no parameter
#include <cstdint>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto draw = ctff::tensorflow_computation<ctff::function<void, std::int32_t>>("", ctff::tf_tensor("d:0"));

int main() {
  ctff::executor ex;
  ex.bind(draw, [](std::int32_t seed) { return seed + 1; });  // expect-line
}
