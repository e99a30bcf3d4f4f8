// Struct field names are unique.
// expect: ctff: struct field names must be unique
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::struct_<ctff::field<"a", int>, ctff::field<"a", float>>>().size() > 0);  // expect-line
