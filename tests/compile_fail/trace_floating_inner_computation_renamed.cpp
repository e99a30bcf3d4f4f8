// A computation with captures made inside a compile-time trace, named like that trace and called
// on a constant only: traced before its enclosing names are known, so its name (Python: c_1)
// cannot be told. One error naming the line that made it.
// expect: ctff: a computation with captures called on constants only is named like an enclosing computation
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c">([] {
  const auto inner = ctff::computation<"c", std::int32_t>([k = 1](auto y) { return y + k; });  // expect-line
  return inner(2);
});
static_assert(c.bytes().size() != 0);
