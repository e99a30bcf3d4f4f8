// Struct field names are not empty.
// expect: ctff: a struct field name must not be empty
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::struct_<ctff::field<"", int>>>().size() > 0);  // expect-line
