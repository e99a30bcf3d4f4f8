// make_struct with a name Python's StructType reserves (one of its attributes).
// expect: ctff: make_struct<names...>: a struct element name must not be empty nor an attribute name of Python's StructType
// expect-condition: names: \"loss\", \"items\"
// expect-computed: names: "loss", "items"
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return ctff::make_struct<"loss", "items">(x, x); });  // expect-line
static_assert(!c.compact().empty());
