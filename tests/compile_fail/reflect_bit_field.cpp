// An aggregate with a bit-field member has no member addresses, so no names.
// expect: ctff: an aggregate with a reference or bit-field member has no TFF type
// expect: has_addressable_members<flags>
#include <cstdint>

#include <ctff/ctff.hpp>

struct flags {
  std::int32_t mode : 3;
  std::int32_t count;
};

using flags_type = ctff::tff_t<flags>;  // expect-line
