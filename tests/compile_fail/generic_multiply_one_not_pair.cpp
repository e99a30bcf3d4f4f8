// The one-argument form of a generic operator on a struct whose two elements differ.
// expect: ctff: generic operator: the argument must have type <T,T> (two unnamed elements of the same type)
// expect: argument: <int32,float32>
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::struct_<std::int32_t, float>>(
    [](auto x) { return ctff::generic_multiply(x); });  // expect-line
static_assert(!c.compact().empty());
