// Writing a computation_tree back to Computation wire bytes: the inner building blocks' fields by
// wire_form (ast/wire_form.hpp), as traced trees are written; Types through the shared type writer,
// literals through the shared Array writer, TensorFlow/Xla/Data payloads verbatim. Canonical input
// (what protobuf, upb and ctff write) comes back byte for byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ctff/ast/array_writer.hpp"
#include "ctff/ast/wire_form.hpp"
#include "ctff/core/front_wire.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {
namespace detail {

static_assert(no_index == wire_no_arg);  // a call without argument

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

  // Node i's Computation message; inner nodes' fields by wire_form (ast/wire_form.hpp). (Each
  // case names its oneof field as a constant: a lookup by kind costs the writer 1 % more
  // instructions.)
  void write_message(std::uint32_t i, back_sink& s) const {
    using form = wire_form<tree_writer, back_sink>;
    const block_node& n = t_.nodes[i];
    const auto end = s.pos;
    std::uint32_t field = 0;
    switch (n.kind) {
      case block_kind::reference:
        s.string_field(1, t_.text(i));
        field = computation_field::reference;
        break;
      case block_kind::intrinsic:
        s.string_field(1, t_.text(i));
        field = computation_field::intrinsic;
        break;
      case block_kind::placement:
        s.string_field(1, t_.text(i));
        field = computation_field::placement;
        break;
      case block_kind::selection:
        form::selection(*this, n.a, n.index, s);
        field = computation_field::selection;
        break;
      case block_kind::struct_:
        form::struct_(*this, n.first, n.count, s);
        field = computation_field::struct_;
        break;
      case block_kind::call:
        form::call(*this, n.a, n.b, s);  // no_index == wire_no_arg
        field = computation_field::call;
        break;
      case block_kind::lambda:
        form::lambda(*this, i, n.a, s);
        field = computation_field::lambda;
        break;
      case block_kind::block:
        form::block(*this, n.first, n.count, n.a, s);
        field = computation_field::block;
        break;
      case block_kind::literal: {
        const auto e = s.pos;
        write_array(tree_access::pool(t_), tree_access::pool(t_).lits[n.b], s);
        s.close(1, e);
        field = computation_field::literal;
        break;
      }
      case block_kind::tensorflow:
        s.chars(t_.text(i));
        field = computation_field::tensorflow;
        break;
      case block_kind::xla:
        s.chars(t_.text(i));
        field = computation_field::xla;
        break;
      case block_kind::data:
        s.chars(t_.text(i));
        field = computation_field::data;
        break;
    }
    s.close(field, end);
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

// A Computation message built front to back from parts already written: its Type message (null:
// none known) and its `computation` oneof's field (computation_field) holding `body`. What the
// run-time writers that assemble new Computations around read ones use (forms/compose.hpp,
// run/function_computation.hpp).
inline std::string computation_bytes(const std::string* type, std::uint32_t field, std::string_view body) {
  std::string out;
  if (type) put_message(out, 1, *type);
  put_message(out, field, body);
  return out;
}

}  // namespace detail

// The wire bytes of a computation tree (of the subtree at `node`, by default the whole tree).
inline std::string serialize(const computation_tree& t, std::uint32_t node = no_index) {
  detail::tree_writer w(t);
  return w.bytes(node == no_index ? t.root : node);
}

}  // namespace ctff
