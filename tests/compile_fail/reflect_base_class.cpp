// An aggregate with a base class: Boost.PFR cannot reflect it; one ctff: error names the struct.
// expect: ctff: an aggregate with a base class has no TFF type
// expect: has_no_base_class<derived>
#include <ctff/ctff.hpp>

struct base {
  float x;
};
struct derived : base {
  float y;
};

using derived_type = ctff::tff_t<derived>;  // expect-line
