// A sequence cannot contain a sequence, even through a struct.
// expect: ctff: a sequence cannot contain a federated, function or sequence type
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::sequence<ctff::struct_<ctff::sequence<int>>>>().size() > 0);  // expect-line
