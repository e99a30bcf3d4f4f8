// Binding an opaque computation of one (non-struct) parameter to a function of two parameters.
// expect: ctff: bind: the callable must take one argument, the computation's parameter (or one per element of a struct parameter)
// expect: callable_parameters<2>::one_or_one_per_element
#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto scale = ctff::tensorflow_computation<ctff::function<float, float>>(
    "", ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));

float times(float a, float b) { return a * b; }

int main() {
  ctff::executor ex;
  ex.bind(scale, times);  // expect-line
}
