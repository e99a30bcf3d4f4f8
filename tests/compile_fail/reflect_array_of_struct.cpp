// A std::array element must be a scalar (or a std::array of scalars), not a struct.
// expect: ctff: a std::array element must be a scalar
// expect: std_array_element_is_scalar<point>
#include <array>
#include <ctff/ctff.hpp>

struct point {
  float x;
  float y;
};

using points = ctff::tff_t<std::array<point, 4>>;  // expect-line
