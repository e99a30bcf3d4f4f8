// a - b on traced values: federated_language has no subtraction. One error: none from the
// computation that traces it, its outputs, or a typed call of it.
// expect: ctff: operator-: federated_language has no subtraction intrinsic
// expect: left: float32
#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

constexpr auto diff = ctff::computation<"diff", float, float>(
    [](auto a, auto b) { return a - b; });  // expect-line
static_assert(!diff.compact().empty());

int main() {
  ctff::executor ex;
  return static_cast<int>(ex.call<float>(diff, 1.0f, 2.0f) + ex.call<double>(diff, 1.0f, 2.0f));
}
