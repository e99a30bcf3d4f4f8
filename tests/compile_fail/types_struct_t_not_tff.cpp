// struct_t spelled directly with C++ types (ctff::struct_<int, float> maps them).
// expect: ctff: struct_t elements must be TFF types (use ctff::struct_ for C++ types)
#include <ctff/ctff.hpp>

static_assert(sizeof(ctff::struct_t<int, float>) > 0);  // expect-line
