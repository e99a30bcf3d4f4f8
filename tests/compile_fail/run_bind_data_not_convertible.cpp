// Binding a data computation to a callable whose result does not convert to the data's type.
// expect: ctff: bind: the callable's result does not convert to the data's type
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto weights = ctff::data<float>("type.googleapis.com/x", "");

int main() {
  ctff::executor ex;
  ex.bind(weights, [] { return std::string("w"); });  // expect-line
}
