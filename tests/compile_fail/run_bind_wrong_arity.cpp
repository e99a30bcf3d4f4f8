// Binding an opaque computation of one (non-struct) parameter to a callable of two: the message
// says what the callable must take, not that a parameter does not convert.
// expect: ctff: bind: the callable must take one argument, the computation's parameter (or one per element of a struct parameter)
// expect: generic_callable::one_or_one_per_element
#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto scale = ctff::tensorflow_computation<ctff::function<float, float>>(
    "", ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));

int main() {
  ctff::executor ex;
  ex.bind(scale, [](auto a, auto b) { return a * b; });  // expect-line
}
