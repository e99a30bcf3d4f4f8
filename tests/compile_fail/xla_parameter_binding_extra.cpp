// xla_computation of a function without parameter, given a parameter binding.
// expect: ctff: xla_computation: give a parameter binding exactly when the function type has a parameter
#include <ctff/ctff.hpp>

using F = ctff::function<void, float>;
constexpr auto t = ctff::xla_computation<F>("", ctff::xla_index(0), ctff::xla_index(1));  // expect-line
