// A federated type cannot contain a federated type.
// expect: ctff: a federated type cannot contain a federated or function type
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::at_server<ctff::at_clients<int>>>().size() > 0);  // expect-line
