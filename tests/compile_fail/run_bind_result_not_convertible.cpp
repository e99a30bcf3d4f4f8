// Binding an opaque computation to a callable whose result does not convert to the
// computation's result type.
// expect: ctff: bind: the callable's result does not convert to the computation's result type
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto scale = ctff::tensorflow_computation<ctff::function<float, float>>(
    "", ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));

int main() {
  ctff::executor ex;
  ex.bind(scale, [](float x) { return std::string(static_cast<std::size_t>(x), 'x'); });  // expect-line
}
