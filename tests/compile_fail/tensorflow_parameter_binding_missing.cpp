// tensorflow_computation of a function with a parameter, given only the result's binding.
// expect: ctff: tensorflow_computation: give a parameter binding exactly when the function type has a parameter
#include <ctff/ctff.hpp>

constexpr auto t =
    ctff::tensorflow_computation<ctff::function<float, float>>("", ctff::tf_tensor("y:0"));  // expect-line
