// A float32[4] times a float32 constant (issue 55 item 6): federated_language's generic_multiply
// takes <T,T>, and Python never broadcast a scalar (Value.__mul__, until TFF 0.67, required
// equivalent types; it is gone since 0.68), so there are no bytes of Python's to match. One
// error, which says what to write: the constant with the tensor's type, a std::array.
// expect: ctff: generic operator: federated_language does not broadcast a scalar (the operands must have one type, <T,T>)
// expect: std::array<float, 4>{0.5f, 0.5f, 0.5f, 0.5f}
// expect: left: float32[4]
#include <array>

#include <ctff/ctff.hpp>

struct model {
  std::array<float, 4> weights;
  float bias;
};
constexpr auto halve = ctff::computation<"halve", model>(
    [](auto m) { return ctff::get<"weights">(m) * 0.5f; });  // expect-line
constexpr auto round_ = ctff::computation<"round", ctff::at_clients<model>>(
    [](auto v) { return ctff::federated_mean(ctff::federated_map(halve, v)); });
static_assert(!round_.compact().empty());
