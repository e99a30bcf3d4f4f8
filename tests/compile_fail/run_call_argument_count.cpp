// Calling a computation of two parameters with three arguments: the diagnostic names the
// parameter type and the number of arguments given.
// expect: ctff: call: the arguments do not convert to the computation's parameter type
// expect-computed: the computation's parameter type; parameter: <a=int32,b=float32>; given: 3 arguments
// expect-whole: parameter: <a=int32,b=float32>; given: 3 arguments
// expect-pieces: {"parameter: <a=int32,b=float32>"}, ctff::tff_types<18>{"given: 3 arguments"}
#include <cstdint>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto scaled = ctff::computation<"scaled", ctff::arg<"a", std::int32_t>, ctff::arg<"b", float>>(
    [](auto a, auto b) { return std::tuple{a, b}; });

int main() {
  ctff::executor ex;
  const ctff::dynamic_value r = ex.call(scaled, std::int32_t{1}, 2.0f, 3.0f);  // expect-line
  return r ? 0 : 1;
}
