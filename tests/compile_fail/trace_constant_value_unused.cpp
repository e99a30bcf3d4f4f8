// A value made from constants only that is never used: Python binds it, C++ cannot tell where.
// Trace mode: no trace ever sees the value (it records into a context of its own, which dies with
// it, and constant evaluation has no state that could tell the trace), so the trace fails as a
// constant expression; the compilers' account of that names the line that made it (clang: that
// line's destructor call; g++: the subscript of the read that fails, trace/context.hpp).
// expect-mode: trace strict
// expect: ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is never used
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::at_clients<std::int32_t>>([](auto x) {
  ctff::federated_value(2, ctff::SERVER);  // expect-line
  return ctff::federated_sum(x);
});
static_assert(!c.compact().empty());
