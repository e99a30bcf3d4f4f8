// C++ values as executor values and back, for a static TFF type T, checked at compile time:
//   tensor      a scalar of T's dtype (ctff's mapping: float -> float32, std::string -> str, ...);
//               rank >= 1: std::array<E, N> (N the dimension) or any sized range (any dimension,
//               `?` included) of what the remaining dimensions take; unknown rank: dynamic_value
//   struct      std::tuple / std::pair, or an aggregate (Boost.PFR), element by element; an
//               aggregate's member names must be T's names where T has them
//   sequence    a range of what the element takes
//   {M}@CLIENTS a range with one member per client (results: a container with push_back)
//   M@SERVER, M@CLIENTS all_equal: what M takes
//   any T       dynamic_value itself (checked at run time instead)
#pragma once

#include <string>
#include <type_traits>

#include "ctff/reflect/reflect.hpp"
#include "ctff/run/accepts.hpp"
#include "ctff/run/convert_parts.hpp"
#include "ctff/run/from_value.hpp"
#include "ctff/run/to_value.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff {

// Whether the C++ type U converts to and from the static TFF type T (see the top of this file).
template <class T, class U>
inline constexpr bool converts_v = detail::accepts<T, std::remove_cvref_t<U>>();

// x as a value of the static TFF type T. Throws argument_error for a ragged tensor or a
// dimension the type does not allow; `path` names x in messages.
template <tff_type T, class U>
  requires converts_v<T, U>
dynamic_value to_value(const U& x, const std::string& path = "arg") {
  return detail::to_value<T>(x, path);
}

// v (of the static TFF type T) as U. Throws execution_error when v is not of type T.
template <class U, tff_type T>
  requires converts_v<T, U>
U from_value(const dynamic_value& v, const std::string& path = "result") {
  return detail::from_value<U, T>(v, path);
}

}  // namespace ctff
