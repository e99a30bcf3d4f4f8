// Comparing enumerators cheaply on clang. clang resolves `a == b` on two enumerators by trying
// every built-in operator candidate (each pair of arithmetic types): about 0.45 M instructions per
// comparison, and 1.4 M per assignment `a = b`, where a call costs 0.04 M and setting a member by
// initialisation nothing extra (docs/performance.md, round 19; g++ does not care). So the headers
// ctff.hpp includes compare enumerators with is() and set them by initialising.
#pragma once

#include <type_traits>

namespace ctff::detail {

// Whether `a` is one of `b...` (enumerators of a's type).
template <class E, class... B>
constexpr bool is(E a, B... b) {
  static_assert(std::is_enum_v<E> && (std::is_same_v<E, B> && ...));
  using U = std::underlying_type_t<E>;
  return ((static_cast<U>(a) == static_cast<U>(b)) || ...);
}

}  // namespace ctff::detail
