// A computation name Python cannot give a function (a space).
// expect: ctff: computation: the name must be a Python identifier and not a keyword
// expect-condition: name: \"my comp\"
// expect-computed: name: "my comp"
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"my comp", std::int32_t>(  // expect-line
    [](auto x) { return x; });
static_assert(!c.compact().empty());
