// The one-argument form of a generic operator (Python's generic_plus(arg)) on a tensor.
// expect: ctff: generic operator: a single argument must be a struct of two elements
// expect: argument: int32
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::int32_t>(
    [](auto x) { return ctff::generic_plus(x); });  // expect-line
static_assert(!c.compact().empty());
