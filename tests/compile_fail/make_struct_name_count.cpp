// make_struct<names...> with fewer names than elements.
// expect: ctff: make_struct<names...>: give one name per element
// expect: elements: <int32,int32>
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return ctff::make_struct<"a">(x, 2); });  // expect-line
static_assert(!c.compact().empty());
