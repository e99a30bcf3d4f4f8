// Tensor dimensions are >= 0, or unknown_dim; unknown_rank stands alone.
// expect: ctff: tensor dimensions must be >= 0 or unknown_dim; unknown_rank stands alone
#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::tensor<ctff::dtype::int32, 3, -4>>().size() > 0);  // expect-line
