// Output sinks shared by every printer and serializer. A sink without a buffer only counts, so the
// same code computes a size (first pass) and then writes into storage of exactly that size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ctff::detail {

// Characters. Formatted printing needs indentation after each line break.
struct text_sink {
  char* out = nullptr;
  std::size_t n = 0;
  int indent = 0;       // in units of two spaces
  bool formatted = false;

  constexpr void put(char c) {
    if (out) out[n] = c;
    ++n;
  }
  constexpr void put(std::string_view s) {
    if (!out) {  // counting: no need to touch each character
      n += s.size();
      return;
    }
    for (char c : s) out[n++] = c;
  }
  // A line break of the formatted form; nothing in the compact form.
  constexpr void line() {
    if (!formatted) return;
    put('\n');
    for (int i = 0; i < indent; ++i) put("  ");
  }
  // Text that may hold line breaks of an already formatted child: each break keeps our indent.
  // (The compact form keeps a line break as it is, as Python does for multi-line literals.)
  constexpr void put_lines(std::string_view s) {
    if (!formatted || indent == 0) {
      put(s);
      return;
    }
    for (char c : s) {
      if (c == '\n') {
        line();
      } else {
        put(c);
      }
    }
  }
  constexpr void put_uint(std::uint64_t v) {
    char tmp[20]{};
    int k = 0;
    do {
      tmp[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (k) put(tmp[--k]);
  }
  constexpr void put_int(std::int64_t v) {
    if (v < 0) {
      put('-');
      put_uint(static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(v));
    } else {
      put_uint(static_cast<std::uint64_t>(v));
    }
  }
};

// Protocol-buffer wire bytes.
struct byte_sink {
  unsigned char* out = nullptr;
  std::size_t n = 0;

  constexpr void put(unsigned char b) {
    if (out) out[n] = b;
    ++n;
  }
  constexpr void varint(std::uint64_t v) {
    while (v >= 0x80) {
      put(static_cast<unsigned char>(v | 0x80));
      v >>= 7;
    }
    put(static_cast<unsigned char>(v));
  }
  constexpr void tag(std::uint32_t field, std::uint32_t wire_type) {
    varint((static_cast<std::uint64_t>(field) << 3) | wire_type);
  }
  constexpr void bytes(const unsigned char* p, std::size_t len) {
    if (out && len) {
#if defined(__clang__)
      // clang evaluates memcpy as one step in constant evaluation; a loop costs steps per byte.
      __builtin_memcpy(out + n, p, len);
#else
      for (std::size_t i = 0; i != len; ++i) out[n + i] = p[i];
#endif
    }
    n += len;
  }
  constexpr void chars(std::string_view s) {
    if (out)
      for (std::size_t i = 0; i != s.size(); ++i) out[n + i] = static_cast<unsigned char>(s[i]);
    n += s.size();
  }
  // A length-delimited string field; proto3 omits empty strings.
  constexpr void string_field(std::uint32_t field, std::string_view s) {
    if (s.empty()) return;
    tag(field, 2);
    varint(s.size());
    chars(s);
  }
  constexpr void fixed32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) put(static_cast<unsigned char>(v >> (8 * i)));
  }
  constexpr void fixed64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) put(static_cast<unsigned char>(v >> (8 * i)));
  }
};

constexpr std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Size of a length-delimited field with a one-byte tag (all our field numbers are < 16).
constexpr std::size_t field_size(std::size_t payload) { return 1 + varint_size(payload) + payload; }

}  // namespace ctff::detail
