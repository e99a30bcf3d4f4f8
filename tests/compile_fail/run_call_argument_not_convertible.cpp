// Running a computation with a C++ argument that does not convert to its parameter type.
// expect: ctff: call: the arguments do not convert to the computation's parameter type
#include <cstdint>
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

int main() {
  ctff::executor ex;
  return static_cast<int>(ex.call<std::int32_t>(add_one, std::string("one")));  // expect-line
}
