// function_t spelled directly with a C++ result type (ctff::function<void, int> maps it).
// expect: ctff: function_t takes TFF types
#include <ctff/ctff.hpp>

static_assert(sizeof(ctff::function_t<void, int>) > 0);  // expect-line
