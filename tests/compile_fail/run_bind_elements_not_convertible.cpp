// Binding an opaque computation of a struct parameter to a callable taking one argument per
// element, one of which does not convert.
// expect: ctff: bind: the callable's parameters do not convert from the elements of the computation's parameter type
// expect-computed: elements of the computation's parameter type; at: parameter[1]; expected: int32; given: std::basic_string<char>
// expect-whole: at: parameter[1]; expected: int32; given: std::__cxx11::basic_string<char>
// expect-pieces: {"at: parameter[1]"}, ctff::tff_types<15>{"expected: int32"}
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
