// A tensor of dtype::invalid (the value no TFF dtype has).
// expect: ctff: a tensor needs a valid dtype
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::tensor<ctff::dtype::invalid>>().size() > 0);  // expect-line
