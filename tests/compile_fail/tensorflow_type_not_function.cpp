// tensorflow_computation given a type that is not a function type.
// expect: ctff: tensorflow_computation: the type must be a function type
#include <ctff/ctff.hpp>

constexpr auto t = ctff::tensorflow_computation<float>("", ctff::tf_tensor("y:0"));  // expect-line
