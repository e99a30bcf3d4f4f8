// Calling a computation whose type is not a function type (data).
// expect: ctff: call: not a computation of a function type
#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto weights = ctff::data<float>("type.googleapis.com/x", "");

int main() {
  ctff::executor ex;
  return static_cast<int>(ex.call<float>(weights));  // expect-line
}
