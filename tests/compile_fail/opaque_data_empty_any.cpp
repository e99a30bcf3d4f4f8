// ctff::empty_any stands for a TensorFlow graph_def or an XLA hlo_module, not a Data value (whose
// type_url would be silently dropped).
// expect: ctff: data: an empty Any is data<T>("", "")
#include <ctff/ctff.hpp>

constexpr auto d = ctff::data<ctff::sequence<float>>("type.googleapis.com/my.Dataset", ctff::empty_any);  // expect-line
static_assert(d.size() > 0);
