// A traced function of two parameters (the struct unpacked) that returns nothing.
// expect: ctff: computation: the traced function returned nothing
#include <cstdint>

#include <ctff/ctff.hpp>

constexpr auto c = ctff::computation<"c", std::int32_t, float>(  // expect-line
    [](auto, auto) {});
static_assert(!c.compact().empty());
