// xla_computation given a type that is not a function type.
// expect: ctff: xla_computation: the type must be a function type
#include <ctff/ctff.hpp>

constexpr auto t = ctff::xla_computation<float>("", ctff::xla_index(0));  // expect-line
