// A computation made inside a compile-time trace whose function captures a value of the
// enclosing trace (Python: a reference the inner computation does not bind). Found inside the
// inner computation's nested trace, kept in the outermost trace, and reported at the line that
// made the inner computation.
// expect: ctff: a value of one trace was used inside another trace
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::int32_t>([](auto x) {
  const auto inner = ctff::computation<"inner", std::int32_t>([x](auto) { return x; });  // expect-line
  return inner(x);
});
static_assert(c.bytes().size() != 0);
