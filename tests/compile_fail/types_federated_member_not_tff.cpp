// federated_t spelled directly with a C++ member type (ctff::at_clients<int> maps it; federated_t
// takes TFF types only).
// expect: ctff: federated_t takes a TFF member type
#include <ctff/ctff.hpp>

static_assert(sizeof(ctff::federated_t<int, ctff::placement_kind::clients, false>) > 0);  // expect-line
