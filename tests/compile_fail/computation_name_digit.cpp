// A computation name starting with a digit.
// expect: ctff: computation: the name must be a Python identifier and not a keyword
// expect-condition: name: \"1x\"
// expect-computed: name: "1x"
#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"1x">([] { return 1; });  // expect-line
static_assert(!c.compact().empty());
