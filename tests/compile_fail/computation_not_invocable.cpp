// A traced function that takes neither the parameter nor one argument per element.
// expect: ctff: computation: the traced function must take the parameter whole, or one argument per element of a struct parameter
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::int32_t, float>(  // expect-line
    [](auto a, auto b, auto) { return a + b; });
static_assert(!c.compact().empty());
