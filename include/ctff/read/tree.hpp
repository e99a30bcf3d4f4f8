// A Computation read from its wire bytes (ctff/read/reader.hpp): every building block as data,
// in flat vectors like the traced graph (children before parents, indices instead of pointers),
// so that any tree, however it was made, can be printed, checked, written back and embedded.
// Types share one ctff::type_desc (each node points to its Type's root there); literals live in
// a detail::graph pool so that the tracing side's literal printer and Array writer apply as is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/ast/graph.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff {

// The building blocks of federated_language, one per member of Computation's `computation` oneof.
enum class block_kind : std::uint8_t {
  reference, selection, struct_, call, lambda, block, intrinsic, data, placement, literal,
  tensorflow, xla
};

inline constexpr std::uint32_t no_index = 0xffffffffu;

struct block_node {
  block_kind kind{};
  std::uint32_t type = no_index;  // root of its Type in computation_tree::types; no_index: no type
  std::uint32_t a = no_index;     // selection: source; call: function; lambda, block: result
  std::uint32_t b = no_index;     // call: argument (no_index: none); literal: index in the pool's lits
  std::int32_t index = 0;         // selection
  std::uint32_t first = 0, count = 0;        // struct elements / block locals, in `elems`
  std::uint32_t text_off = 0, text_len = 0;  // in the pool's chars: reference name, lambda parameter,
                                             // intrinsic or placement uri; TensorFlow, Xla and
                                             // Data: the serialized message (payload)
};

// A struct element or a block local.
struct block_elem {
  std::uint32_t value = 0;
  std::uint32_t name_off = 0, name_len = 0;
};

class computation_tree;

namespace detail {
// The tree's literal and string pool, for the readers, printers and writers (not part of the
// tree's public interface: its type is the tracer's graph).
struct tree_access {
  static graph& pool(computation_tree& t);
  static const graph& pool(const computation_tree& t);
};
}  // namespace detail

class computation_tree {
 public:
  std::vector<block_node> nodes;
  std::vector<block_elem> elems;
  type_desc types;
  std::uint32_t root = no_index;

  const block_node& node(std::uint32_t i) const { return nodes[i]; }
  std::string_view text(std::uint32_t i) const {
    return pool_.chars_at(nodes[i].text_off, nodes[i].text_len);
  }
  const block_elem& elem(std::uint32_t i, std::uint32_t k) const { return elems[nodes[i].first + k]; }
  std::string_view name(const block_elem& e) const { return pool_.chars_at(e.name_off, e.name_len); }
  bool has_type(std::uint32_t i) const { return nodes[i].type != no_index; }
  // The node's type as a description of its own (root set), e.g. for ctff::to_string.
  type_desc type_of(std::uint32_t i) const {
    type_desc d = types;
    d.root = nodes[i].type;
    return d;
  }
  // The node's type string (compact, or formatted), without copying the types; "" when the
  // node has no type.
  std::string type_string(std::uint32_t i, bool formatted = false) const {
    if (i == no_index || nodes[i].type == no_index) return {};
    return detail::type_text(types, nodes[i].type, formatted);
  }

 private:
  friend struct detail::tree_access;
  detail::graph pool_;  // literals (lits, dims, vals) and every string (chars)
};

inline detail::graph& detail::tree_access::pool(computation_tree& t) { return t.pool_; }
inline const detail::graph& detail::tree_access::pool(const computation_tree& t) { return t.pool_; }

namespace detail {

// One step from a building block down to a child, as a path spells it (read/path.hpp): the field,
// and for a struct element or a Block local its index and name.
struct child_step {
  const char* what;
  std::int64_t index = -1;
  std::string_view name{};
};

// The one walk over a building block's children, which every run-time walk of a read tree uses:
// f(child, step) for each child of building block i in the reader's order (a Selection's source;
// a Call's function, then its argument if it has one; a Lambda's result; a Struct's elements; a
// Block's locals in order, then its result). f returns false to stop; then so does this (else
// true; a leaf has no children). The children are given as stored, not checked against the tree.
template <class F>
bool for_each_child(const computation_tree& t, std::uint32_t i, F&& f) {
  const block_node& n = t.node(i);
  switch (n.kind) {
    case block_kind::selection: return f(n.a, child_step{"selection.source"});
    case block_kind::call:
      return f(n.a, child_step{"call.function"}) && (n.b == no_index || f(n.b, child_step{"call.argument"}));
    case block_kind::lambda: return f(n.a, child_step{"lambda.result"});
    case block_kind::struct_:
    case block_kind::block: {
      const bool block = n.kind == block_kind::block;
      for (std::uint32_t k = 0; k != n.count; ++k) {
        const block_elem& e = t.elem(i, k);
        if (!f(e.value, child_step{block ? "block.local" : "struct", k, t.name(e)})) return false;
      }
      return !block || f(n.a, child_step{"block.result"});
    }
    default: return true;
  }
}

}  // namespace detail

constexpr std::string_view block_kind_name(block_kind k) {
  switch (k) {
    case block_kind::reference: return "reference";
    case block_kind::selection: return "selection";
    case block_kind::struct_: return "struct";
    case block_kind::call: return "call";
    case block_kind::lambda: return "lambda";
    case block_kind::block: return "block";
    case block_kind::intrinsic: return "intrinsic";
    case block_kind::data: return "data";
    case block_kind::placement: return "placement";
    case block_kind::literal: return "literal";
    case block_kind::tensorflow: return "tensorflow";
    case block_kind::xla: return "xla";
  }
  return "?";
}

namespace detail {
// A building block of kind k, as messages name it: "a Reference", "an Intrinsic".
constexpr std::string_view a_block(block_kind k) {
  switch (k) {
    case block_kind::reference: return "a Reference";
    case block_kind::selection: return "a Selection";
    case block_kind::struct_: return "a Struct";
    case block_kind::call: return "a Call";
    case block_kind::lambda: return "a Lambda";
    case block_kind::block: return "a Block";
    case block_kind::intrinsic: return "an Intrinsic";
    case block_kind::data: return "a Data block";
    case block_kind::placement: return "a Placement";
    case block_kind::literal: return "a Literal";
    case block_kind::tensorflow: return "a TensorFlow computation";
    case block_kind::xla: return "an Xla computation";
  }
  return "a building block";
}
}  // namespace detail

}  // namespace ctff
