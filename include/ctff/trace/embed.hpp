// Embedded computations whose bytes and printed forms are produced during the trace that uses
// them (polymorphic instances, opaque TensorFlow/XLA/Data computations). They are written into the
// using graph's pools (`embed::owned`), so they work in constant evaluation and at run time alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "ctff/core/defer.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/ast/node.hpp"
#include "ctff/trace/context.hpp"
#include "ctff/core/byte_view.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// Appends n zero elements to a pool and returns where they start.
template <class Pool>
constexpr std::uint32_t grow(Pool& v, std::size_t n) {
  const auto at = static_cast<std::uint32_t>(v.size());
  v.append_n(n, typename Pool::value_type{});
  return at;
}

// Writes `w(byte_sink&)` into g.byte_pool; sets e.bytes_off / e.size.
template <class W>
constexpr void own_bytes(graph& g, embed& e, const W& w) {
  byte_sink count{};
  w(count);
  e.owned = true;
  e.size = static_cast<std::uint32_t>(count.n);
  e.bytes_off = grow(g.byte_pool, count.n);
  byte_sink out{g.byte_pool.data() + e.bytes_off};
  w(out);
}

// Writes `p(text_sink&)` (which honours text_sink::formatted) into g.chars; returns {off, len}.
// Formatted text is kept encoded for embedding (text_sink::encode_breaks).
template <class P>
constexpr void own_text(graph& g, const P& p, bool formatted, std::uint32_t& off,
                        std::uint32_t& len) {
  text_sink count{};
  count.formatted = formatted;
  count.encode_breaks = true;
  p(count);
  len = static_cast<std::uint32_t>(count.n);
  off = grow(g.chars, count.n);
  text_sink out{g.chars.data() + off};
  out.formatted = formatted;
  out.encode_breaks = true;
  p(out);
}

// Puts an embed's encoded structural drawing, n characters written by `w(char*)`, into g.chars
// (after its compact text: the offset is kept relative to it, see `embed`).
template <class W>
constexpr void own_structural(graph& g, embed& e, std::size_t n, const W& w) {
  const std::uint32_t at = grow(g.chars, n);
  w(g.chars.data() + at);
  e.structural_rel = at - e.compact_off;
  e.structural_len = static_cast<std::uint32_t>(n);
}
CTFF_DEFER
constexpr void own_structural(graph& g, embed& e, std::string_view text) {
  own_structural(g, e, text.size(), [&](char* out) {
    for (char ch : text) *out++ = ch;
  });
}

// An embed of g already holding a copy of the bytes b (and so of their texts), among the last
// few embeds (run time: a computation embedded by every step of a loop is copied once).
CTFF_DEFER
inline const embed* owned_copy_of(const graph& g, byte_view b) {
  constexpr std::size_t window = 16;
  const std::size_t n = g.embeds.size();
  for (std::size_t i = n; i != 0 && n - i < window; --i) {
    const embed& e = g.embeds[i - 1];
    if (e.owned && e.size == b.size() &&
        (b.size() == 0 || std::memcmp(g.byte_pool.data() + e.bytes_off, b.data(), b.size()) == 0))
      return &e;
  }
  return nullptr;
}

// Records an `embedded` node for embeds[index].
CTFF_DEFER
constexpr std::uint32_t embedded_node(trace_ctx& g, std::uint32_t index) {
  return g.add({.kind = node_kind::embedded, .a = index});
}

}  // namespace ctff::detail
