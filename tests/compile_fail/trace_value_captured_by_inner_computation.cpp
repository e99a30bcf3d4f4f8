// A computation made inside a compile-time trace whose function captures a value of the
// enclosing trace (Python: a reference the inner computation does not bind).
// Trace mode: found inside the inner computation's own (nested) trace, which cannot go on from a
// value of another trace, so the trace fails as a constant expression and the user's line shown
// is the use of the computation (the static_assert); the capture's line is not known there.
// expect-mode: trace
// expect: ctff: a value of one trace was used inside another trace
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::int32_t>([](auto x) {
  const auto inner = ctff::computation<"inner", std::int32_t>([x](auto) { return x; });
  return inner(x);
});
static_assert(c.bytes().size() != 0);  // expect-line
