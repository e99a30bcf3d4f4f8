// xla_computation over a sequence (XLA computes on tensors and structs only).
// expect: ctff: xla_computation: parameter and result may hold only tensors and structs
#include <ctff/ctff.hpp>

using F = ctff::function<ctff::sequence<float>, float>;
constexpr auto t = ctff::xla_computation<F>("", ctff::xla_index(0), ctff::xla_index(1));  // expect-line
