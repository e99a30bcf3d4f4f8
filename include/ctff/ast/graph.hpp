// The data one trace records: nodes, struct elements, literals, bindings and embedded
// computations. Everything is index based, so it can live in constexpr std::vectors.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ctff/ast/node.hpp"
#include "ctff/core/byte_view.hpp"
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
  std::uint32_t bytes_off = 0, compact_off = 0, compact_len = 0, formatted_off = 0,
                formatted_len = 0, structural_rel = 0, structural_len = 0;
};

struct graph {
  std::vector<node> nodes;
  std::vector<struct_elem> elems;
  std::vector<lit> lits;
  std::vector<std::int64_t> dims;
  std::vector<std::uint64_t> vals;
  std::vector<char> chars;
  std::vector<unsigned char> byte_pool;
  std::vector<embed> embeds;
  std::vector<std::uint32_t> bindings;  // bound nodes, in binding order

  std::string_view name{};   // the context name: name, or name_<suffix> on a clash
  std::uint32_t suffix = 0;

  constexpr std::uint32_t add(const node& n) {
    nodes.push_back(n);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }
  constexpr std::uint32_t bind(std::uint32_t id) {
    bindings.push_back(id);
    return static_cast<std::uint32_t>(bindings.size() - 1);
  }
  constexpr std::uint32_t add_chars(std::string_view s) {
    auto at = static_cast<std::uint32_t>(chars.size());
    for (char c : s) chars.push_back(c);
    return at;
  }
  constexpr std::string_view chars_at(std::uint32_t off, std::uint32_t len) const {
    return len ? std::string_view(chars.data() + off, len) : std::string_view{};
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

// Digits of n, for spelling `fc_<name>_symbol_<n>`.
constexpr std::size_t decimal_digits(std::uint64_t n) {
  std::size_t k = 1;
  while (n >= 10) {
    n /= 10;
    ++k;
  }
  return k;
}

}  // namespace ctff::detail
