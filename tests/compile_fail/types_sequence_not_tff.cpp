// sequence_t spelled directly with a C++ type (ctff::sequence<int> maps it).
// expect: ctff: sequence_t takes a TFF type
#include <ctff/ctff.hpp>

static_assert(sizeof(ctff::sequence_t<int>) > 0);  // expect-line
