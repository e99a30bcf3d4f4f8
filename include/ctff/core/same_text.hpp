// Whether two texts are the same object's characters (the caches of texts already measured).
// g++'s -fsanitize=undefined cannot decide in constant evaluation whether two constants of equal
// size are different objects (they might be merged), so there, and only there, texts compare by
// content: equal content gives equal measurements, so the caches stay exact.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "ctff/core/defer.hpp"

namespace ctff::detail {

CTFF_DEFER
constexpr bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (std::is_constant_evaluated() && !__builtin_constant_p(a.data() == b.data())) {
    for (std::size_t i = 0; i != a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  return a.data() == b.data();
}

}  // namespace ctff::detail
