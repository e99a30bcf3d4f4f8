// Binding an opaque computation to a callable whose parameter the computation's parameter does
// not convert to.
// expect: ctff: bind: the callable's parameter does not convert from the computation's parameter type
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto scale = ctff::tensorflow_computation<ctff::function<float, float>>(
    "", ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));

int main() {
  ctff::executor ex;
  ex.bind(scale, [](const std::string& s) { return static_cast<float>(s.size()); });  // expect-line
}
