// xla_computation of a function with a parameter, given only the result's binding.
// expect: ctff: xla_computation: give a parameter binding exactly when the function type has a parameter
#include <ctff/ctff.hpp>

constexpr auto t = ctff::xla_computation<ctff::function<float, float>>("", ctff::xla_index(0));  // expect-line
