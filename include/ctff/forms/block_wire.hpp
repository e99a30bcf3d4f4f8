// Building blocks (forms/building_block.hpp) in and out: read from a computation_tree, written as
// Computation wire bytes (TensorFlow, Xla, Data and Literal as the messages they were read as),
// and read back as a computation_tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/core/sink.hpp"
#include "ctff/forms/building_block.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
#include "ctff/types/wire.hpp"

namespace ctff::detail {

inline bb from_tree_node(form_context& c, const computation_tree& t, std::uint32_t i) {
  depth_guard g(c.depth);
  const block_node& n = t.node(i);
  if (n.type == no_index)
    throw form_error("typed_computation", "", std::string("a ") +
                                                  std::string(block_kind_name(n.kind)) +
                                                  " without a type");
  switch (n.kind) {
    case block_kind::reference:
      c.avoid_prefix_of(t.text(i));
      return c.reference(std::string(t.text(i)), n.type);
    case block_kind::intrinsic:
      return c.intrinsic(std::string(t.text(i)), n.type);
    case block_kind::placement:
      return c.leaf(block_kind::placement, std::string(t.text(i)), n.type);
    case block_kind::selection:
      return c.selection(from_tree_node(c, t, n.a), n.index);
    case block_kind::struct_: {
      std::vector<bb_elem> e;
      for (std::uint32_t k = 0; k != n.count; ++k) {
        const block_elem& x = t.elem(i, k);
        e.push_back({std::string(t.name(x)), from_tree_node(c, t, x.value)});
      }
      return c.struct_(std::move(e));
    }
    case block_kind::call:
      return c.call(from_tree_node(c, t, n.a), n.b == no_index ? bb() : from_tree_node(c, t, n.b));
    case block_kind::lambda: {
      if (c.kind_of(n.type) != type_kind::function)
        throw form_error("typed_computation", "", "a lambda whose type is not a function type");
      const std::string param(t.text(i));
      c.avoid_prefix_of(param);
      const std::uint32_t pt = c.param_of(n.type);
      if (param.empty() != (pt == no_index))
        throw form_error("typed_computation", "",
                         "a lambda whose parameter name and parameter type disagree");
      return c.lambda(param, pt, from_tree_node(c, t, n.a));
    }
    case block_kind::block: {
      std::vector<bb_elem> e;
      for (std::uint32_t k = 0; k != n.count; ++k) {
        const block_elem& x = t.elem(i, k);
        if (t.name(x).empty())
          throw form_error("typed_computation", "", "a block local without a name");
        c.avoid_prefix_of(t.name(x));
        e.push_back({std::string(t.name(x)), from_tree_node(c, t, x.value)});
      }
      return c.block(std::move(e), from_tree_node(c, t, n.a));
    }
    default:
      return c.leaf(n.kind, serialize(t, i), n.type);
  }
}

// The tree's root as a building block, with a context holding its types.
inline bb from_tree(form_context& c, const computation_tree& t) {
  if (t.root == no_index || t.root >= t.nodes.size())
    throw form_error("typed_computation", "", "an empty computation");
  return from_tree_node(c, t, t.root);
}

// ---- to wire bytes ----

inline void write_block(const form_context& c, const bb_node& n, growing_back_sink& s);

inline void write_child(const form_context& c, std::uint32_t field, const bb_node& n,
                        growing_back_sink& s) {
  const auto end = s.pos;
  write_block(c, n, s);
  s.close(field, end);
}

inline void write_elems(const form_context& c, const std::vector<bb_elem>& e, growing_back_sink& s) {
  for (std::size_t k = e.size(); k-- > 0;) {
    const auto end = s.pos;
    write_child(c, 2, *e[k].value, s);
    s.string_field(1, e[k].name);
    s.close(1, end);
  }
}

inline void write_block(const form_context& c, const bb_node& n, growing_back_sink& s) {
  if (kept_as_message(n.kind)) {
    s.chars(n.text);
    return;
  }
  const auto end = s.pos;
  std::uint32_t field = 0;
  switch (n.kind) {
    case block_kind::reference:
      s.string_field(1, n.text);
      field = computation_field::reference;
      break;
    case block_kind::intrinsic:
      s.string_field(1, n.text);
      field = computation_field::intrinsic;
      break;
    case block_kind::placement:
      s.string_field(1, n.text);
      field = computation_field::placement;
      break;
    case block_kind::selection:
      if (n.index != 0) {
        s.varint(static_cast<std::uint64_t>(n.index));
        s.tag(3, 0);
      }
      write_child(c, 1, *n.a, s);
      field = computation_field::selection;
      break;
    case block_kind::struct_:
      write_elems(c, n.elems, s);
      field = computation_field::struct_;
      break;
    case block_kind::call:
      if (n.b) write_child(c, 2, *n.b, s);
      write_child(c, 1, *n.a, s);
      field = computation_field::call;
      break;
    case block_kind::lambda:
      write_child(c, 2, *n.a, s);
      s.string_field(1, n.text);
      field = computation_field::lambda;
      break;
    case block_kind::block:
      write_child(c, 2, *n.a, s);
      write_elems(c, n.elems, s);
      field = computation_field::block;
      break;
    default:
      break;
  }
  s.close(field, end);
  write_nested_type(c.types, n.type, 1, s);
}

// The building block's Computation message.
inline std::string to_bytes(const form_context& c, const bb& n) {
  growing_back_sink s(256);
  write_block(c, *n, s);
  return std::string(reinterpret_cast<const char*>(s.data()), s.size());
}

inline computation_tree to_tree(const form_context& c, const bb& n) {
  return read_computation(to_bytes(c, n));
}

}  // namespace ctff::detail
