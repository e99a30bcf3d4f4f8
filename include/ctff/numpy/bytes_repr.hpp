// Python's repr() of a bytes value, the text numpy prints for an 'S' (str) element.
#pragma once

#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// A numpy bytes value as Python's repr writes it: b'...' (b"..." when it holds ' and no "). numpy
// drops trailing NUL bytes of an 'S' value; a Python bytes object keeps them (`keep_nuls`).
CTFF_DEFER
constexpr void put_bytes_repr(text_sink& s, std::string_view text, bool keep_nuls = false) {
  while (!keep_nuls && !text.empty() && text.back() == '\0') text.remove_suffix(1);
  bool has_single = false, has_double = false;
  for (char c : text) {
    has_single |= c == '\'';
    has_double |= c == '"';
  }
  const char q = has_single && !has_double ? '"' : '\'';
  s.put('b');
  s.put(q);
  constexpr char hex[] = "0123456789abcdef";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == q) {
      s.put('\\');
      s.put(c);
    } else if (c == '\n') {
      s.put("\\n");
    } else if (c == '\r') {
      s.put("\\r");
    } else if (c == '\t') {
      s.put("\\t");
    } else if (u < 0x20 || u >= 0x7f) {
      s.put("\\x");
      s.put(hex[u >> 4]);
      s.put(hex[u & 15]);
    } else {
      s.put(c);
    }
  }
  s.put(q);
}

}  // namespace ctff::detail
