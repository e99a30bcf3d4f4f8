// The compact and formatted text of any computation tree, by federated_language's rules: inner
// nodes laid out by text_form (ast/text_form.hpp), as traced trees are; literals printed by the
// shared numpy printer, compiled computations as `comp#<adler32 hex>` and Data as the decimal
// adler32 of its Computation message (see docs/opaque_computations.md).
#pragma once

#include <string>
#include <string_view>

#include "ctff/ast/text_form.hpp"
#include "ctff/core/adler32.hpp"
#include "ctff/numpy/literal_print.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
#include "ctff/types/print.hpp"

namespace ctff {
namespace detail {

// adler32 of node i's Computation message: the name Python gives a compiled computation.
inline std::uint32_t node_checksum(const computation_tree& t, std::uint32_t i) {
  const std::string b = serialize(t, i);
  return adler32(reinterpret_cast<const unsigned char*>(b.data()), b.size());
}

// `comp#<hex>` / `<decimal>` (form == 0), or `Compiled(<hex>)` / `Data(<decimal>)` (form == 1).
inline void put_opaque_label(const computation_tree& t, std::uint32_t i, text_sink& s, bool structural) {
  const std::uint32_t sum = node_checksum(t, i);
  const bool data = t.node(i).kind == block_kind::data;
  if (data) {
    if (structural) s.put("Data(");
    s.put_uint(sum);
  } else {
    s.put(structural ? "Compiled(" : "comp#");
    put_hex(s, sum);
  }
  if (structural) s.put(')');
}

static_assert(no_index == text_no_arg);  // a call without argument

// The read tree's side of text_form (ast/text_form.hpp), which lays the inner nodes out.
class tree_printer {
 public:
  explicit tree_printer(const computation_tree& t) : t_(t) {}

  void print(std::uint32_t i, text_sink& s) {
    using form = text_form<tree_printer>;
    const block_node& n = t_.node(i);
    switch (n.kind) {
      case block_kind::reference:
      case block_kind::intrinsic:
        s.put(t_.text(i));
        return;
      case block_kind::placement: {
        const std::string_view uri = t_.text(i);
        s.put(uri == "clients" ? std::string_view("CLIENTS") : uri == "server" ? std::string_view("SERVER") : uri);
        return;
      }
      case block_kind::selection:
        form::selection(*this, n.a, n.index, s);
        return;
      case block_kind::struct_:
        form::struct_(*this, n.first, n.count, s);
        return;
      case block_kind::call:
        form::call(*this, n.a, n.b, s);  // no_index == text_no_arg
        return;
      case block_kind::lambda:
        form::lambda(*this, i, n.a, s);
        return;
      case block_kind::block:
        form::block(*this, n.first, n.count, n.a, s);
        return;
      case block_kind::literal:
        print_literal(literal_of(tree_access::pool(t_), tree_access::pool(t_).lits[n.b]), s);
        return;
      case block_kind::tensorflow:
      case block_kind::xla:
      case block_kind::data:
        put_opaque_label(t_, i, s, false);
        return;
    }
  }

  // For text_form: a lambda's parameter, a struct element and a block local (both in the tree's
  // elems). A local always has a name (`=v` if it is empty); an element may have none.
  void parameter(std::uint32_t i, text_sink& s) const { s.put(t_.text(i)); }
  std::uint32_t element(std::uint32_t e, text_sink& s) const {
    const block_elem& el = t_.elems[e];
    if (el.name_len) put_name(el, s);
    return el.value;
  }
  std::uint32_t local(std::uint32_t e, text_sink& s) const {
    const block_elem& el = t_.elems[e];
    put_name(el, s);
    return el.value;
  }

 private:
  void put_name(const block_elem& e, text_sink& s) const {
    s.put(t_.name(e));
    s.put('=');
  }

  const computation_tree& t_;
};

// `encode_breaks`: the formatted text as a trace embeds it (text_sink::encode_breaks).
inline std::string tree_text(const computation_tree& t, std::uint32_t i, bool formatted,
                             bool encode_breaks = false) {
  tree_printer p(t);
  text_sink count{};
  count.formatted = formatted;
  count.encode_breaks = encode_breaks;
  p.print(i, count);
  std::string out(count.n, '\0');
  text_sink s{out.data()};
  s.formatted = formatted;
  s.encode_breaks = encode_breaks;
  p.print(i, s);
  return out;
}

}  // namespace detail

// Python's compact_representation() of the tree (or of the subtree at `node`).
inline std::string compact(const computation_tree& t, std::uint32_t node = no_index) {
  return detail::tree_text(t, node == no_index ? t.root : node, false);
}
// Python's formatted_representation().
inline std::string formatted(const computation_tree& t, std::uint32_t node = no_index) {
  return detail::tree_text(t, node == no_index ? t.root : node, true);
}
// The type string of the tree's root.
inline std::string type_string(const computation_tree& t, bool formatted = false) {
  return t.type_string(t.root, formatted);
}

}  // namespace ctff
