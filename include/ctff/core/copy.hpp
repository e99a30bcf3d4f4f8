// Copying n trivially copyable elements in constant evaluation. clang evaluates __builtin_memcpy
// as one step (a loop costs several steps per element); g++ cannot evaluate it, so it loops
// (at compile time only).
#pragma once

#include <cstddef>

namespace ctff::detail {

// The traits scratch<T> and copy_elems need, as the compilers' builtins: the <type_traits>
// classes check completeness through a dozen helper instantiations per type, paid by every TU
// that includes ctff (scratch is instantiated for ~20 types when the headers are read).
template <class T>
inline constexpr bool trivially_copyable_v = __is_trivially_copyable(T);
template <class T>
inline constexpr bool trivially_default_constructible_v = __is_trivially_constructible(T);
#if defined(__clang__)
template <class T>
inline constexpr bool trivially_destructible_v = __is_trivially_destructible(T);
#else
template <class T>
inline constexpr bool trivially_destructible_v = __has_trivial_destructor(T);
#endif

template <class T>
constexpr void copy_elems(T* to, const T* from, std::size_t n) {
  static_assert(trivially_copyable_v<T>);
#if !defined(__clang__)
  if (__builtin_is_constant_evaluated()) {
    for (std::size_t i = 0; i != n; ++i) to[i] = from[i];
    return;
  }
#endif
  if (n) __builtin_memcpy(to, from, n * sizeof(T));
}

}  // namespace ctff::detail
