// A computation named like a Python keyword (no Python function can have that name).
// expect: ctff: computation: the name must be a Python identifier and not a keyword
// expect-condition: name: \"lambda\"
// expect-computed: name: "lambda"
#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"lambda">([] { return 1; });  // expect-line
static_assert(!c.compact().empty());
