// Running a computation and asking for its result as a C++ type the result does not convert to.
// expect: ctff: call: the result type does not convert to the requested C++ type
#include <cstdint>
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

int main() {
  ctff::executor ex;
  const std::string s = ex.call<std::string>(add_one, std::int32_t{1});  // expect-line
  return static_cast<int>(s.size());
}
