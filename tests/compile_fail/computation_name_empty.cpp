// An empty computation name.
// expect: ctff: computation: the name must be a Python identifier and not a keyword
// expect-condition: name: \"\"
// expect-computed: name: ""
#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"">([] { return 1; });  // expect-line
static_assert(!c.compact().empty());
