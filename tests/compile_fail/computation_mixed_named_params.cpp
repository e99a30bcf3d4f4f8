// Naming some parameters but not all (Python names all parameters or none).
// expect: ctff: computation: name every parameter (ctff::arg<"name", T>) or none, as Python does; a partly named struct is one ctff::struct_<...> parameter
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", ctff::arg<"x", std::int32_t>, float>(  // expect-line
    [](auto x, auto y) { return ctff::make_struct(x, y); });
static_assert(!c.compact().empty());
