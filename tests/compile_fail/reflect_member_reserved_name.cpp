// An aggregate member named like an attribute of Python's StructType. (clang++-22 prints the
// name as fixed_string<5UL>{"items"}, older compilers as ctff::fixed_string<5>{"items"}.)
// expect: ctff: an aggregate member's name is an attribute name of Python's StructType
// expect-re: member_name_allowed<batch, (ctff::)?fixed_string<5(UL)?>\{"items"\}>
#include <cstdint>

#include <ctff/ctff.hpp>

struct batch {
  std::int32_t items;
};

using batch_type = ctff::tff_t<batch>;  // expect-line
