// An aggregate with a reference member cannot be reflected (its member names cannot be read).
// expect: ctff: an aggregate with a reference or bit-field member has no TFF type
// expect: has_addressable_members<view>
#include <ctff/ctff.hpp>

struct view {
  const float& value;
};

using view_type = ctff::tff_t<view>;  // expect-line
