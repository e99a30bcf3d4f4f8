// Writing a computation_tree back to Computation wire bytes, back to front like the tracing
// side's serializer (core/sink.hpp back_sink): Types through the shared type writer, literals
// through the shared Array writer, TensorFlow/Xla/Data payloads verbatim. Canonical input (what
// protobuf, upb and ctff write) comes back byte for byte.
#pragma once

#include <cstddef>
#include <string>

#include "ctff/ast/array_writer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {
namespace detail {

// Computation's oneof field for each building block.
constexpr std::uint32_t block_field(block_kind k) {
  switch (k) {
    case block_kind::tensorflow: return 2;
    case block_kind::intrinsic: return 3;
    case block_kind::lambda: return 4;
    case block_kind::block: return 5;
    case block_kind::reference: return 6;
    case block_kind::call: return 7;
    case block_kind::struct_: return 8;
    case block_kind::selection: return 9;
    case block_kind::data: return 10;
    case block_kind::placement: return 11;
    case block_kind::xla: return 12;
    case block_kind::literal: return 14;
  }
  return 0;
}

class tree_writer {
 public:
  explicit tree_writer(const computation_tree& t) : t_(t) {}

  std::size_t size(std::uint32_t i) {
    back_sink s{};
    node(i, s);
    return static_cast<std::size_t>(-s.pos);
  }
  void write_into(std::uint32_t i, unsigned char* out, std::size_t n) {
    back_sink s{out, static_cast<std::ptrdiff_t>(n)};
    node(i, s);
  }
  std::string bytes(std::uint32_t i) {
    std::string out(size(i), '\0');
    write_into(i, reinterpret_cast<unsigned char*>(out.data()), out.size());
    return out;
  }

 private:
  void elems(const block_node& n, back_sink& s) {
    for (std::uint32_t k = n.count; k-- > 0;) {
      const block_elem& e = t_.elems[n.first + k];
      const auto end = s.pos;
      const auto v = s.pos;
      node(e.value, s);
      s.close(2, v);
      s.string_field(1, tree_access::pool(t_).chars_at(e.name_off, e.name_len));
      s.close(1, end);
    }
  }
  void child(std::uint32_t field, std::uint32_t i, back_sink& s) {
    const auto end = s.pos;
    node(i, s);
    s.close(field, end);
  }

  void node(std::uint32_t i, back_sink& s) {
    const block_node& n = t_.nodes[i];
    const auto end = s.pos;
    const std::string_view text = t_.text(i);
    switch (n.kind) {
      case block_kind::reference:
      case block_kind::intrinsic:
      case block_kind::placement:
        s.string_field(1, text);
        break;
      case block_kind::lambda:
        child(2, n.a, s);
        s.string_field(1, text);
        break;
      case block_kind::block:
        child(2, n.a, s);
        elems(n, s);
        break;
      case block_kind::call:
        if (n.b != no_index) child(2, n.b, s);
        child(1, n.a, s);
        break;
      case block_kind::struct_:
        elems(n, s);
        break;
      case block_kind::selection:
        if (n.index != 0) {
          s.varint(static_cast<std::uint64_t>(static_cast<std::int64_t>(n.index)));
          s.tag(3, 0);
        }
        child(1, n.a, s);
        break;
      case block_kind::literal: {
        const auto e = s.pos;
        write_array(tree_access::pool(t_), tree_access::pool(t_).lits[n.b], s);
        s.close(1, e);
        break;
      }
      case block_kind::tensorflow:
      case block_kind::xla:
      case block_kind::data:
        s.chars(text);
        break;
    }
    s.close(block_field(n.kind), end);
    if (n.type != no_index) write_nested_type(t_.types, n.type, 1, s);
  }

  const computation_tree& t_;
};

}  // namespace detail

// The wire bytes of a computation tree (of the subtree at `node`, by default the whole tree).
inline std::string serialize(const computation_tree& t, std::uint32_t node = no_index) {
  detail::tree_writer w(t);
  return w.bytes(node == no_index ? t.root : node);
}

}  // namespace ctff
