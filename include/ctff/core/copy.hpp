// Copying n trivially copyable elements in constant evaluation. clang evaluates __builtin_memcpy
// as one step (a loop costs several steps per element); g++ cannot evaluate it, so it loops.
#pragma once

#include <cstddef>
#include <type_traits>

namespace ctff::detail {

template <class T>
constexpr void copy_elems(T* to, const T* from, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
#if defined(__clang__)
  if (n) __builtin_memcpy(to, from, n * sizeof(T));
#else
  for (std::size_t i = 0; i != n; ++i) to[i] = from[i];
#endif
}

}  // namespace ctff::detail
