// tensorflow_computation given an empty result binding.
// expect: ctff: tensorflow_computation: the result needs a binding
#include <ctff/ctff.hpp>

using F = ctff::function<void, float>;
constexpr auto t = ctff::tensorflow_computation<F>("", ctff::tf_binding<0>{});  // expect-line
