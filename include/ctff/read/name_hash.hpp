// The hash of names in the readers' and checker's maps (read/name_scope.hpp, read/type_rules.hpp):
// FNV-1a over the name's bytes. Not std::hash<std::string_view>: libc++ 22 implements it in its
// shared library (__hash_memory), so a program built with libc++ 22's headers would not link
// against an older libc++ runtime, which is what this machine's -stdlib=libc++ finds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ctff::detail {

struct name_hash {
  std::size_t operator()(std::string_view s) const noexcept {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ull;
    }
    return static_cast<std::size_t>(h);
  }
};

}  // namespace ctff::detail
