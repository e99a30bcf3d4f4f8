// The data one trace records: nodes, struct elements, literals, bindings and embedded
// computations. Everything is index based, so it can live in constexpr growable arrays (scratch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ctff/core/defer.hpp"
#include "ctff/ast/node.hpp"
#include "ctff/core/byte_view.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

struct lit {
  dtype dt = dtype::invalid;
  std::uint32_t dim_begin = 0, dim_count = 0;  // in graph::dims; none for a scalar
  std::uint32_t val_begin = 0, val_count = 0;  // in graph::vals (bit patterns; strings: offset,len)
};

// A whole Computation message and its printed forms, written verbatim where it is used.
// Either points to storage that outlives the trace, or (owned) to offsets in the graph's pools.
// `structural` is the structural drawing, encoded (rows end at '\n', a line break inside a row is
// '\x01': see ast/structural.hpp). Owned, it lies in chars at compact_off + structural_rel: relative
// to the compact text, so code that moves the pools (context merges) need not know of it.
struct embed {
  const unsigned char* bytes = nullptr;
  std::uint32_t size = 0;
  std::string_view compact{}, formatted{}, structural{};
  bool owned = false;
  // Whether `structural` may hold '\x01' (false: it is also the plain drawing, copied as it is).
  bool structural_breaks = true;
  std::uint32_t bytes_off = 0, compact_off = 0, compact_len = 0, formatted_off = 0,
                formatted_len = 0, structural_rel = 0, structural_len = 0;
};

// The characters [off, off + len) of a character pool (a vector or a pool_view).
template <class Chars>
constexpr std::string_view chars_in(const Chars& chars, std::uint32_t off, std::uint32_t len) {
  return len ? std::string_view(chars.data() + off, len) : std::string_view{};
}

// Read-only access to one pool of a finished graph: its vector, or the array of a frozen graph
// (ast/frozen_graph.hpp), which the outputs of a compile-time computation read in place.
template <class T>
struct pool_view {
  const T* p = nullptr;
  std::uint32_t n = 0;
  constexpr const T& operator[](std::size_t i) const { return p[i]; }
  constexpr std::size_t size() const { return n; }
  constexpr bool empty() const { return n == 0; }
  constexpr const T* data() const { return p; }
  constexpr const T* begin() const { return p; }
  constexpr const T* end() const { return p + n; }
};

template <class V>
constexpr pool_view<typename V::value_type> view_of(const V& v) {
  return {v.data(), static_cast<std::uint32_t>(v.size())};
}

// The pools of a graph, each a Pool<T>: scratch arrays while it is traced (not std::vector: see
// core/scratch.hpp), pool_views once it is read (graph_view).
template <template <class> class Pool>
struct graph_pools {
  Pool<node> nodes;
  Pool<struct_elem> elems;
  Pool<lit> lits;
  Pool<std::int64_t> dims;
  Pool<std::uint64_t> vals;
  Pool<char> chars;
  Pool<unsigned char> byte_pool;
  Pool<embed> embeds;
  Pool<std::uint32_t> bindings;  // bound nodes, in binding order

  std::string_view name{};  // the context name: name, or name_<suffix> on a clash
  std::uint32_t suffix = 0;
};

struct graph : graph_pools<scratch> {

  // (No `add` for nodes: a trace adds them with trace_ctx::add, trace/context.hpp, which keeps
  // their binding-order bookkeeping in step.)
  CTFF_DEFER  // (as the functions: core/defer.hpp)
  constexpr std::uint32_t bind(std::uint32_t id) {
    bindings.push_back(id);
    return static_cast<std::uint32_t>(bindings.size() - 1);
  }
  CTFF_DEFER
  constexpr std::uint32_t add_chars(std::string_view s) {
    auto at = static_cast<std::uint32_t>(chars.size());
    chars.append(s.data(), s.size());
    return at;
  }
  constexpr std::string_view chars_at(std::uint32_t off, std::uint32_t len) const {
    return chars_in(chars, off, len);
  }
};

// A finished graph as the printers, the serializer and the structural writer read it.
struct graph_view : graph_pools<pool_view> {
  constexpr graph_view() = default;
  // Implicit: a graph being printed does not change while it is read.
  constexpr graph_view(const graph& g)  // NOLINT(google-explicit-constructor)
      : graph_pools<pool_view>{view_of(g.nodes), view_of(g.elems), view_of(g.lits), view_of(g.dims),
                               view_of(g.vals), view_of(g.chars), view_of(g.byte_pool), view_of(g.embeds),
                               view_of(g.bindings), g.name, g.suffix} {}

  constexpr std::string_view chars_at(std::uint32_t off, std::uint32_t len) const {
    return chars_in(chars, off, len);
  }
  constexpr byte_view embed_bytes(const embed& e) const {
    return e.owned ? byte_view(byte_pool.data() + e.bytes_off, e.size) : byte_view(e.bytes, e.size);
  }
  constexpr std::string_view embed_structural(const embed& e) const {
    return e.owned ? chars_at(e.compact_off + e.structural_rel, e.structural_len) : e.structural;
  }
  constexpr std::string_view embed_text(const embed& e, bool formatted) const {
    if (!e.owned) return formatted ? e.formatted : e.compact;
    return formatted ? chars_at(e.formatted_off, e.formatted_len)
                     : chars_at(e.compact_off, e.compact_len);
  }
};

// Literal l of g as numpy's printers read it (numpy/literal.hpp, `literal_ref`).
constexpr literal_ref literal_of(const graph_view& g, const lit& l) {
  return {l.dt, l.dim_count, g.dims.data() + l.dim_begin, g.vals.data() + l.val_begin,
          g.chars.data()};
}

// Digits of n, for spelling `fc_<name>_symbol_<n>`.
CTFF_DEFER
constexpr std::size_t decimal_digits(std::uint64_t n) {
  std::size_t k = 1;
  while (n >= 10) {
    n /= 10;
    ++k;
  }
  return k;
}

}  // namespace ctff::detail
