// Parameter names become element names of the parameter struct: Python's StructType reserves
// its attribute names, and a parameter is a Python identifier.
// expect: ctff: computation: a parameter name (ctff::arg<"name", T>) must be a Python identifier, not a keyword, and not an attribute name of Python's StructType
// expect-condition: parameter: \"items\"
// expect-computed: parameter: "items"
// expect-condition: parameter: \"2b\"
// expect-computed: parameter: "2b"
#include <cstdint>

#include <ctff/ctff.hpp>

using items = ctff::arg<"items", std::int32_t>;
using two_b = ctff::arg<"2b", float>;
constexpr auto c = ctff::computation<"c", items, two_b>([](auto a, auto) { return a; });  // expect-line
static_assert(!c.compact().empty());
