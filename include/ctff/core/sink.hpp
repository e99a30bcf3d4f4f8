// Output sinks shared by every printer and serializer. A sink without a buffer only counts, so the
// same code computes a size (first pass) and then writes into storage of exactly that size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "ctff/core/copy.hpp"
#include "ctff/core/wire_size.hpp"

namespace ctff::detail {

// A line break inside a multi-line literal, in formatted text kept for embedding. Python indents
// only the lines its printer makes, never a literal's own lines; an embedded text re-indented
// into its user must tell the two apart.
inline constexpr char literal_break = '\x02';

// v's decimal digits into tmp, least significant first; returns how many.
constexpr int reversed_decimal(std::uint64_t v, char (&tmp)[20]) {
  int k = 0;
  do {
    tmp[k++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  return k;
}

// Characters. Formatted printing needs indentation after each line break.
struct text_sink {
  char* out = nullptr;
  std::size_t n = 0;
  int indent = 0;       // in units of two spaces
  bool formatted = false;
  bool encode_breaks = false;  // formatted text for embedding: a literal's breaks as literal_break

  constexpr void put(char c) {
    if (out) out[n] = c;
    ++n;
  }
  constexpr void put(std::string_view s) {
    if (!out) {  // counting: no need to touch each character
      n += s.size();
      return;
    }
    const char* const p = s.data();
    const std::size_t k = s.size();
    copy_elems(out + n, p, k);
    n += k;
  }
  // A line break of the formatted form; nothing in the compact form.
  constexpr void line() {
    if (!formatted) return;
    put('\n');
    for (int i = 0; i < indent; ++i) put("  ");
  }
  // A line break inside a literal's text: kept as it is (Python never indents it), in both forms.
  constexpr void break_in_literal() { put(formatted && encode_breaks ? literal_break : '\n'); }
  // Formatted text of an embedded computation: each of its own line breaks keeps our indent, a
  // literal's breaks stay as they are. (The compact form has only literal breaks.)
  constexpr void put_lines(std::string_view s) {
    if (!formatted) {
      put(s);
      return;
    }
    // Runs without breaks in one put each (a call per character is most of the cost).
    const char* const p = s.data();
    const std::size_t k = s.size();
    std::size_t from = 0;
#if defined(__clang__)
    // clang finds a character in one step; a literal's breaks are rare, so only texts without
    // them take this way.
    if (k && !__builtin_char_memchr(p, literal_break, k)) {
      for (const char* nl; from != k && (nl = __builtin_char_memchr(p + from, '\n', k - from));) {
        const auto i = static_cast<std::size_t>(nl - p);
        put(s.substr(from, i - from));
        line();
        from = i + 1;
      }
      put(s.substr(from));
      return;
    }
#endif
    for (std::size_t i = 0; i != k; ++i) {
      const char c = p[i];
      if (c != '\n' && c != literal_break) continue;
      put(s.substr(from, i - from));
      from = i + 1;
      if (c == '\n')
        line();
      else
        break_in_literal();
    }
    put(s.substr(from));
  }
  constexpr void put_uint(std::uint64_t v) {
    char tmp[20]{};
    int k = reversed_decimal(v, tmp);
    if (!out) {
      n += static_cast<std::size_t>(k);
      return;
    }
    while (k) out[n++] = tmp[--k];
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
    varint(tag_value(field, wire_type));
  }
  constexpr void bytes(const unsigned char* p, std::size_t len) {
    if (out && len) {
#if defined(__clang__)
      // clang evaluates memcpy as one step in constant evaluation; a loop costs steps per byte.
      __builtin_memcpy(out + n, p, len);
#else
      if (!std::is_constant_evaluated()) {
        std::memcpy(out + n, p, len);
        n += len;
        return;
      }
      // Eight at a time: g++ counts every evaluated expression against -fconstexpr-ops-limit
      // (and keeps what it allocates for them until the evaluation ends); the unrolled loop
      // evaluates half as many per byte.
      unsigned char* d = out + n;
      std::size_t i = 0;
      for (; len - i >= 8; i += 8, d += 8, p += 8) {
        d[0] = p[0]; d[1] = p[1]; d[2] = p[2]; d[3] = p[3];
        d[4] = p[4]; d[5] = p[5]; d[6] = p[6]; d[7] = p[7];
      }
      for (; i != len; ++i) *d++ = *p++;
#endif
    }
    n += len;
  }
  constexpr void chars(std::string_view s) {
    if (out) {
      unsigned char* d = out + n;
      for (const char *p = s.data(), *const e = p + s.size(); p != e;)
        *d++ = static_cast<unsigned char>(*p++);
    }
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

// Protocol-buffer wire bytes written backwards, as upb does: bytes land in [pos - k, pos), so a
// message's fields go last to first and each payload before its length, which is then known.
// Without a base it only moves pos (counting).
struct back_sink {
  unsigned char* base = nullptr;
  std::ptrdiff_t pos = 0;

  constexpr void put(unsigned char b) {
    --pos;
    if (base) base[pos] = b;
  }
  // A run written forward into the k bytes before pos.
  constexpr unsigned char* reserve(std::size_t k) {
    pos -= static_cast<std::ptrdiff_t>(k);
    return base ? base + pos : nullptr;
  }
  constexpr void bytes(const unsigned char* p, std::size_t k) {
    byte_sink s{reserve(k)};
    s.bytes(p, k);
  }
  constexpr void chars(std::string_view t) {
    byte_sink s{reserve(t.size())};
    s.chars(t);
  }
  constexpr void varint(std::uint64_t v) {
    if (v < 0x80) {  // most lengths and tags: one byte
      put(static_cast<unsigned char>(v));
      return;
    }
    byte_sink s{reserve(varint_size(v))};
    s.varint(v);
  }
  constexpr void tag(std::uint32_t field, std::uint32_t wire_type) {
    varint(tag_value(field, wire_type));
  }
  constexpr void fixed32(std::uint32_t v) {
    byte_sink s{reserve(4)};
    s.fixed32(v);
  }
  constexpr void fixed64(std::uint64_t v) {
    byte_sink s{reserve(8)};
    s.fixed64(v);
  }
  constexpr void number(std::uint64_t v) {  // decimal digits, last digit first
    do {
      put(static_cast<unsigned char>('0' + v % 10));
      v /= 10;
    } while (v);
  }
  // Closes a length-delimited field whose payload was written since `end`.
  constexpr void close(std::uint32_t field, std::ptrdiff_t end) {
    varint(static_cast<std::uint64_t>(end - pos));
    tag(field, 2);
  }
  constexpr void string_field(std::uint32_t field, std::string_view t) {
    if (t.empty()) return;
    const auto end = pos;
    chars(t);
    close(field, end);
  }
};

// Run time: back_sink over a buffer that grows, so that one pass writes a message of unknown
// size (no counting pass). `base` is the buffer's end and `pos` goes negative, so the positions a
// writer keeps stay valid when the bytes move into a larger buffer. Each operation makes room for
// its most bytes, then writes through back_sink.
class growing_back_sink : public back_sink {
 public:
  explicit growing_back_sink(std::size_t capacity) { grow(capacity ? capacity : 64); }
  growing_back_sink(const growing_back_sink&) = delete;
  growing_back_sink& operator=(const growing_back_sink&) = delete;
  ~growing_back_sink() { delete[] buf_; }

  // The bytes written.
  const unsigned char* data() const { return base + pos; }
  std::size_t size() const { return static_cast<std::size_t>(-pos); }

  void put(unsigned char b) { room(1); back_sink::put(b); }
  unsigned char* reserve(std::size_t k) { room(k); return back_sink::reserve(k); }
  void bytes(const unsigned char* p, std::size_t k) { room(k); back_sink::bytes(p, k); }
  void chars(std::string_view t) { room(t.size()); back_sink::chars(t); }
  void varint(std::uint64_t v) { room(10); back_sink::varint(v); }
  void tag(std::uint32_t field, std::uint32_t wire_type) { room(5); back_sink::tag(field, wire_type); }
  void fixed32(std::uint32_t v) { room(4); back_sink::fixed32(v); }
  void fixed64(std::uint64_t v) { room(8); back_sink::fixed64(v); }
  void number(std::uint64_t v) { room(20); back_sink::number(v); }
  void close(std::uint32_t field, std::ptrdiff_t end) { room(15); back_sink::close(field, end); }
  void string_field(std::uint32_t field, std::string_view t) {
    room(t.size() + 15);
    back_sink::string_field(field, t);
  }

 private:
  void room(std::size_t k) {
    if (static_cast<std::size_t>(-pos) + k > cap_) grow(2 * cap_ + k);
  }
  void grow(std::size_t cap) {
    auto* b = new unsigned char[cap];
    const std::size_t n = size();
    if (n) std::memcpy(b + cap - n, data(), n);
    delete[] buf_;
    buf_ = b;
    cap_ = cap;
    base = b + cap;
  }

  unsigned char* buf_ = nullptr;
  std::size_t cap_ = 0;
};

}  // namespace ctff::detail
