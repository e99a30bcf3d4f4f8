// A polymorphic computation's name is its Python function's name too.
// expect: ctff: polymorphic: the name must be a Python identifier and not a keyword
// expect-condition: name: \"add-one\"
// expect-computed: name: "add-one"
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto add_one = ctff::polymorphic<"add-one">([](auto x) { return x + 1; });  // expect-line
constexpr auto c = ctff::computation<"c", std::int32_t>([](auto x) { return add_one(x); });
static_assert(!c.compact().empty());
