// An opaque computation's bytes given as a number.
// expect: ctff: opaque computation: give the bytes as a string literal
#include <ctff/ctff.hpp>

using F = ctff::function<void, float>;
constexpr auto t = ctff::tensorflow_computation<F>(42, ctff::tf_tensor("y:0"));  // expect-line
