// Calling a computation with one argument per parameter, one of which holds a member that does
// not convert, deep in a range of aggregates: the diagnostic names the argument by the parameter's
// name, the path to the member, the TFF type expected there and the C++ type given.
// expect: ctff: call: the arguments do not convert to the computation's parameter type
// expect-computed: the computation's parameter type; at: arg.data[].y; expected: float32[?]; given: std::vector<double>
// expect-whole: at: arg.data[].y; expected: float32[?]; given: std::vector<double>
// expect-pieces: {"at: arg.data[].y"}, ctff::tff_types<20>{"expected: float32[?]"}, ctff::tff_types<26>{"given: std::vector<double>"}
#include <array>
#include <cstdint>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

struct client_data {
  std::vector<std::array<float, 2>> x;
  std::vector<double> y;  // float32 expected
};
using client_data_t = ctff::struct_<ctff::field<"x", ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 2>>,
                                    ctff::field<"y", ctff::tensor<ctff::dtype::float32, ctff::unknown_dim>>>;
constexpr auto count = ctff::computation<"count", ctff::arg<"scale", float>, ctff::arg<"data", ctff::at_clients<client_data_t>>>(
    [](auto scale, auto data) { return std::tuple{scale, data}; });

int main() {
  ctff::executor ex;
  const std::vector<client_data> clients(2);
  const ctff::dynamic_value r = ex.call(count, 1.0f, clients);  // expect-line
  return r ? 0 : 1;
}
