// Writing a computation_tree back to Computation wire bytes: the inner building blocks' fields by
// wire_form (ast/wire_form.hpp), as traced trees are written; Types through the shared type writer,
// literals through the shared Array writer, TensorFlow/Xla/Data payloads verbatim. Canonical input
// (what protobuf, upb and ctff write) comes back byte for byte.
#pragma once

#include <cstddef>
#include <string>

#include "ctff/ast/array_writer.hpp"
#include "ctff/ast/wire_form.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {
namespace detail {

static_assert(no_index == wire_no_arg);  // a call without argument

// The oneof field of each node kind, in block_kind's order.
inline constexpr computation_field block_field[] = {
    computation_field::reference, computation_field::selection,  computation_field::struct_,
    computation_field::call,      computation_field::lambda,     computation_field::block,
    computation_field::intrinsic, computation_field::data,       computation_field::placement,
    computation_field::literal,   computation_field::tensorflow, computation_field::xla,
};
static_assert(std::size(block_field) == static_cast<std::size_t>(block_kind::xla) + 1);

// The read tree's side of wire_form (ast/wire_form.hpp), which writes the inner nodes' fields.
class tree_writer {
 public:
  explicit tree_writer(const computation_tree& t) : t_(t) {}

  std::size_t size(std::uint32_t i) {
    back_sink s{};
    write_message(i, s);
    return static_cast<std::size_t>(-s.pos);
  }
  void write_into(std::uint32_t i, unsigned char* out, std::size_t n) {
    back_sink s{out, static_cast<std::ptrdiff_t>(n)};
    write_message(i, s);
  }
  std::string bytes(std::uint32_t i) {
    std::string out(size(i), '\0');
    write_into(i, reinterpret_cast<unsigned char*>(out.data()), out.size());
    return out;
  }

  // Node i's Computation message; inner nodes' fields by wire_form (ast/wire_form.hpp).
  void write_message(std::uint32_t i, back_sink& s) const {
    using form = wire_form<tree_writer, back_sink>;
    const block_node& n = t_.nodes[i];
    const auto end = s.pos;
    switch (n.kind) {
      case block_kind::reference:
      case block_kind::intrinsic:
      case block_kind::placement:  // each a message whose field 1 is the node's text
        s.string_field(1, t_.text(i));
        break;
      case block_kind::selection:
        form::selection(*this, n.a, n.index, s);
        break;
      case block_kind::struct_:
        form::struct_(*this, n.first, n.count, s);
        break;
      case block_kind::call:
        form::call(*this, n.a, n.b, s);  // no_index == wire_no_arg
        break;
      case block_kind::lambda:
        form::lambda(*this, i, n.a, s);
        break;
      case block_kind::block:
        form::block(*this, n.first, n.count, n.a, s);
        break;
      case block_kind::literal: {
        const auto e = s.pos;
        write_array(tree_access::pool(t_), tree_access::pool(t_).lits[n.b], s);
        s.close(1, e);
        break;
      }
      case block_kind::tensorflow:
      case block_kind::xla:
      case block_kind::data:  // each its payload's bytes, verbatim
        s.chars(t_.text(i));
        break;
    }
    s.close(static_cast<std::uint32_t>(block_field[static_cast<std::size_t>(n.kind)]), end);
    if (n.type != no_index) write_nested_type(t_.types, n.type, 1, s);
  }

  // For wire_form: a lambda's parameter, struct elements and block locals (both in the tree's
  // elems).
  void parameter(std::uint32_t i, back_sink& s) const { s.string_field(1, t_.text(i)); }
  std::uint32_t element(std::uint32_t e) const { return t_.elems[e].value; }
  void element_name(std::uint32_t e, back_sink& s) const {
    s.string_field(1, t_.name(t_.elems[e]));
  }
  std::uint32_t local(std::uint32_t e) const { return element(e); }
  void local_name(std::uint32_t e, back_sink& s) const { element_name(e, s); }

 private:

  const computation_tree& t_;
};

}  // namespace detail

// The wire bytes of a computation tree (of the subtree at `node`, by default the whole tree).
inline std::string serialize(const computation_tree& t, std::uint32_t node = no_index) {
  detail::tree_writer w(t);
  return w.bytes(node == no_index ? t.root : node);
}

}  // namespace ctff
