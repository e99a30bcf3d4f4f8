// Calling a computation with an aggregate (with std::vector members, which convert against the
// parameter's types) whose member is named z where the parameter's element is y: the diagnostic
// names the argument, the element expected and the member given.
// expect: ctff: call: the arguments do not convert to the computation's parameter type
// expect-computed: the computation's parameter type; at: arg; expected: an element named y; given: the member z
// expect-whole: at: arg; expected: an element named y; given: the member z
// expect-pieces: {"at: arg"}, ctff::tff_types<28>{"expected: an element named y"}, ctff::tff_types<19>{"given: the member z"}
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

struct sample {
  std::vector<float> x;
  std::vector<float> z;
};
using sample_t = ctff::struct_<ctff::field<"x", ctff::tensor<ctff::dtype::float32, ctff::unknown_dim>>,
                               ctff::field<"y", ctff::tensor<ctff::dtype::float32, ctff::unknown_dim>>>;
constexpr auto total = ctff::computation<"total", sample_t>(
    [](auto s) { return ctff::get<"x">(s) + ctff::get<"y">(s); });

int main() {
  ctff::executor ex;
  const auto r = ex.call<std::vector<float>>(total, sample{{1.0f}, {2.0f}});  // expect-line
  return static_cast<int>(r.size());
}
