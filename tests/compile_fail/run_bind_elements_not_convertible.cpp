// Binding an opaque computation of a struct parameter to a callable taking one argument per
// element, one of which does not convert.
// expect: ctff: bind: the callable's parameters do not convert from the elements of the computation's parameter type
#include <cstdint>
#include <string>
#include <tuple>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto step = ctff::tensorflow_computation<ctff::function<std::tuple<float, std::int32_t>, float>>(
    "", ctff::tf_struct(ctff::tf_tensor("x:0"), ctff::tf_tensor("n:0")), ctff::tf_tensor("y:0"));

int main() {
  ctff::executor ex;
  ex.bind(step, [](float x, const std::string& n) { return x + static_cast<float>(n.size()); });  // expect-line
}
