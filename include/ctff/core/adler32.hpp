// zlib's adler32 and its lowercase hex spelling: the name Python gives a compiled computation
// (`comp#<hex>`), used by the tracer's opaque computations and by the reader's printer alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ctff/core/defer.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// zlib's adler32, as Python names a compiled computation: `comp#<hex>`.
CTFF_DEFER
constexpr std::uint32_t adler32(const unsigned char* p, std::size_t n) {
  std::uint32_t a = 1, b = 0;
  for (std::size_t i = 0; i != n; ++i) {
    a = (a + p[i]) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

// Lowercase hex without zero padding (Python's '{:x}'.format(n)).
CTFF_DEFER
constexpr void put_hex(text_sink& s, std::uint32_t v) {
  constexpr char digits[] = "0123456789abcdef";
  char tmp[8]{};
  int k = 0;
  do {
    tmp[k++] = digits[v & 15u];
    v >>= 4;
  } while (v);
  while (k) s.put(tmp[--k]);
}

}  // namespace ctff::detail
