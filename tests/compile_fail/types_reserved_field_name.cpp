// A struct field named like an attribute of Python's StructType (and any dunder name).
// expect: ctff: a struct field name must not be an attribute name of Python's StructType
// expect: reserved_name_free<ctff::fixed_string<7>{"__len__"}>
#include <ctff/ctff.hpp>

using t = ctff::struct_<ctff::field<"__len__", int>>;
static_assert(ctff::type_string<t>().size() > 0);  // expect-line
