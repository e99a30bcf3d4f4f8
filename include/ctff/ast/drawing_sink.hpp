// The sinks the structural form is written through (structural_text::write_pieces(): put(char),
// put(string_view), put_uint, spaces(k), run(p, k, breaks)): into a char buffer at run time, and
// at compile time into storage each compiler evaluates cheaply (64-character blocks on clang,
// 64-bit words on g++), bit_cast to a char_array at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/core/copy.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// Stands for a line break inside one row of an embedded drawing.
inline constexpr char structural_break = '\x01';

template <std::size_t N>
struct char_array {
  char data[N];
};

// Sinks of structural_text::write_pieces(): put(char), put(string_view), put_uint, spaces(k).
template <class Self>
struct drawing_sink_base {
  constexpr void put(std::string_view t) { self().run(t.data(), t.size(), false); }
  constexpr void put_uint(std::uint64_t v) {
    char tmp[20]{};
    int k = reversed_decimal(v, tmp);
    while (k) self().put(tmp[--k]);
  }
  constexpr Self& self() { return static_cast<Self&>(*this); }
};
// Into a char buffer.
struct drawing_char_sink : drawing_sink_base<drawing_char_sink> {
  using drawing_sink_base<drawing_char_sink>::put;
  char* out;
  std::size_t n = 0;
  constexpr explicit drawing_char_sink(char* o) : out(o) {}
  constexpr void put(char c) { out[n++] = c; }
  // k characters from p; `breaks`: structural_break becomes '\n'.
  constexpr void run(const char* p, std::size_t k, bool breaks) {
    if (!breaks) {
      copy_elems(out + n, p, k);
      n += k;
      return;
    }
    for (std::size_t i = 0; i != k; ++i) out[n++] = p[i] == structural_break ? '\n' : p[i];
  }
  constexpr void spaces(std::int32_t k) {
    for (; k > 0; --k) out[n++] = ' ';
  }
};
// clang: into blocks of 64 characters that start as spaces: only other characters are stored
// one by one, a block is copied in one step of constant evaluation (single stores are slow).
// A block is copied from a temporary (`drawing_block(blank)`), never from another member of the
// sink: clang 22's bytecode interpreter (-fexperimental-new-constant-interpreter) rejects an
// assignment between two subobjects of one object ("'memcpy' between overlapping memory regions").
struct drawing_block {
  char c[64];
};
template <std::size_t Blocks>
struct drawing_blocks {
  drawing_block b[Blocks];
};
template <std::size_t Blocks>
struct drawing_block_sink : drawing_sink_base<drawing_block_sink<Blocks>> {
  using drawing_sink_base<drawing_block_sink<Blocks>>::put;
  drawing_blocks<Blocks> out{};
  drawing_block blank{}, cur{};
  std::size_t done = 0, at = 0;  // blocks written; characters in cur
  constexpr void flush() {
    out.b[done++] = drawing_block(cur);
    cur = drawing_block(blank);
    at = 0;
  }
  constexpr void put(char c) {
    if (c != ' ') cur.c[at] = c;
    if (++at == 64) flush();
  }
  // As put for each character, a block's share at a time (a call, or a test, per character is
  // most of the cost; spaces are stored like other characters here).
  constexpr void run(const char* p, std::size_t k, bool breaks) {
    while (k) {
      const std::size_t take = k < 64 - at ? k : 64 - at;
      if (breaks) {
        for (std::size_t i = 0; i != take; ++i)
          cur.c[at + i] = p[i] == structural_break ? '\n' : p[i];
      } else {
        copy_elems(cur.c + at, p, take);
      }
      at += take;
      p += take;
      k -= take;
      if (at == 64) flush();
    }
  }
  constexpr void spaces(std::int32_t k) {
    auto n = static_cast<std::size_t>(k > 0 ? k : 0);
    while (n) {
      if (at == 0 && n >= 64) {
        out.b[done++] = drawing_block(blank);
        n -= 64;
        continue;
      }
      const std::size_t take = n < 64 - at ? n : 64 - at;
      at += take;
      n -= take;
      if (at == 64) flush();
    }
  }
};

// g++: into 64-bit words of eight characters (character i is bits [8 (i % 8), 8 (i % 8) + 8) of
// word i / 8), each stored once and in order, then bit_cast; a run of spaces fills its share of a
// word in one operation and whole words of spaces are one constant. As fast as 64-character
// blocks on g++ and about 45 MiB less at 1023 calls (g++ keeps every element of every block it
// copies); clang, which copies a run of characters in one step, keeps the blocks.
template <std::size_t Words>
struct drawing_word_sink : drawing_sink_base<drawing_word_sink<Words>> {
  using drawing_sink_base<drawing_word_sink<Words>>::put;
  static constexpr std::uint64_t spaces8 = 0x2020202020202020u;
  std::uint64_t out[Words]{};
  std::size_t done = 0;  // words written
  std::uint64_t cur = 0;
  unsigned at = 0;  // characters in cur
  constexpr void store() {
    out[done++] = cur;
    cur = 0;
    at = 0;
  }
  static constexpr std::uint64_t u64(char c) { return static_cast<unsigned char>(c); }
  constexpr void put(char c) {
    cur |= u64(c) << (8 * at);
    if (++at == 8) store();
  }
  constexpr void run(const char* p, std::size_t k, bool breaks) {
    if (breaks) {
      for (std::size_t i = 0; i != k; ++i) put(p[i] == structural_break ? '\n' : p[i]);
      return;
    }
    std::size_t i = 0;
    while (i != k && at) put(p[i++]);
    for (; k - i >= 8; i += 8)
      out[done++] = u64(p[i]) | u64(p[i + 1]) << 8 | u64(p[i + 2]) << 16 | u64(p[i + 3]) << 24 |
                    u64(p[i + 4]) << 32 | u64(p[i + 5]) << 40 | u64(p[i + 6]) << 48 |
                    u64(p[i + 7]) << 56;
    while (i != k) put(p[i++]);
  }
  constexpr void spaces(std::int32_t k) {
    auto n = static_cast<std::size_t>(k > 0 ? k : 0);
    if (at && n) {
      const std::size_t take = n < 8 - at ? n : 8 - at;
      cur |= (spaces8 >> (8 * (8 - take))) << (8 * at);
      at += static_cast<unsigned>(take);
      n -= take;
      if (at == 8) store();
    }
    for (; n >= 8; n -= 8) out[done++] = spaces8;
    if (n) {
      cur = spaces8 >> (8 * (8 - n));
      at = static_cast<unsigned>(n);
    }
  }
  // The last word, then zeros.
  constexpr void finish() {
    while (done != Words) store();
  }
};

}  // namespace ctff::detail
