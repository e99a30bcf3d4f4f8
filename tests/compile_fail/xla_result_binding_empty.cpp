// xla_computation given an empty result binding.
// expect: ctff: xla_computation: the result needs a binding
#include <ctff/ctff.hpp>

using F = ctff::function<void, float>;
constexpr auto t = ctff::xla_computation<F>("", ctff::xla_binding<0>{});  // expect-line
