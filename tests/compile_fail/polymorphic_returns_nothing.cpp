// A polymorphic computation whose function returns nothing, found at its first call.
// expect: ctff: polymorphic: the traced function returned nothing
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto p = ctff::polymorphic<"p">([](auto x) { (void)x; });
constexpr auto c = ctff::computation<"c", std::int32_t>([](auto x) { return p(x); });  // expect-line
static_assert(!c.compact().empty());
