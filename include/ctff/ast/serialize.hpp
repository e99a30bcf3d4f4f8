// The Computation message of a finished trace, written straight to wire bytes back to front (as
// upb does): a message's fields are written last to first, each payload before its length, so
// every length is known when it is needed and no separate sizing pass over the nodes is required.
// The same code run without a buffer counts the bytes. Names (`<name>_arg`,
// `fc_<name>_symbol_<n>`) as the printers spell them (ast/context_names.hpp).
#pragma once

#include <cstddef>
#include <string_view>

#include "ctff/ast/context_names.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/ast/array_writer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// (Sink: back_sink, or growing_back_sink at run time. A class template rather than member
// templates: clang does not instantiate mutually recursive constexpr member templates of a
// non-template class in time for the constant evaluations that need them.)
template <class Sink>
class basic_serializer {
 public:
  constexpr explicit basic_serializer(const graph_view& g) : g_(g) {
    pos_.assign(g.nodes.size(), no_node);
    for (std::uint32_t k = 0; k != g.bindings.size(); ++k) pos_[g.bindings[k]] = k;
    // The names as the printers spell them, copied once as bytes: a copy of bytes is one step
    // for clang's evaluator (byte_sink::bytes), a copy of characters a step per character.
    const context_names names(g);
    const std::string_view all = names.all();
    names_.assign(all.size(), 0);
    for (std::size_t i = 0; i != all.size(); ++i) names_[i] = static_cast<unsigned char>(all[i]);
    symbol_prefix_len_ = names.symbol_prefix().size();
  }

  // Bytes of the Computation message rooted at `root`.
  constexpr std::size_t size(std::uint32_t root) const {
    Sink s{};
    write_node(root, s);
    return static_cast<std::size_t>(-s.pos);
  }

  // Writes the message into exactly `size` bytes at `out` (size from size()).
  constexpr void write_into(std::uint32_t root, unsigned char* out, std::size_t size) const {
    Sink s{out, static_cast<std::ptrdiff_t>(size)};
    write_node(root, s);
  }

  // The message written back to front into s (growing_back_sink: in one pass at run time).
  constexpr void write_back(std::uint32_t root, Sink& s) const { write_node(root, s); }

  // Appends the message to a forward sink.
  constexpr void write(std::uint32_t root, byte_sink& s) const {
    const std::size_t n = size(root);
    if (s.out) write_into(root, s.out + s.n, n);
    s.n += n;
  }

 private:
  constexpr void write_node(std::uint32_t i, Sink& s) const {
    const node& n = g_.nodes.p[i];
    if (n.kind == node_kind::embedded) {
      auto b = g_.embed_bytes(g_.embeds.p[n.a]);
      s.bytes(b.data(), b.size());
      return;
    }
    const auto end = s.pos;
    switch (n.kind) {
      case node_kind::param_ref: {
        const auto e = s.pos;
        put_arg_name(s);
        s.close(1, e);
        break;
      }
      case node_kind::symbol_ref: {
        const auto e = s.pos;
        put_symbol(s, pos_[n.a]);
        s.close(1, e);
        break;
      }
      case node_kind::named_ref:
      case node_kind::intrinsic:
        s.string_field(1, n.text);
        break;
      case node_kind::selection:
        if (n.b) {
          s.varint(n.b);
          s.tag(3, 0);
        }
        sub(1, n.a, s);
        break;
      case node_kind::struct_:
        for (std::uint32_t k = n.b; k-- > 0;) {
          const struct_elem& e = g_.elems.p[n.a + k];
          const auto ee = s.pos;
          sub(2, e.value, s);
          s.string_field(1, e.name);
          s.close(1, ee);
        }
        break;
      case node_kind::call:
        if (n.b != no_node) sub(2, n.b, s);
        sub(1, n.a, s);
        break;
      case node_kind::lambda:
        sub(2, n.a, s);
        if (n.b) {
          const auto e = s.pos;
          put_arg_name(s);
          s.close(1, e);
        } else {
          s.string_field(1, n.text);
        }
        break;
      case node_kind::block:
        sub(2, n.a, s);
        for (std::uint32_t k = static_cast<std::uint32_t>(g_.bindings.size()); k-- > 0;) {
          const auto le = s.pos;
          sub(2, g_.bindings.p[k], s);
          const auto ne = s.pos;
          put_symbol(s, k);
          s.close(1, ne);
          s.close(1, le);
        }
        break;
      case node_kind::literal: {
        const auto e = s.pos;
        write_array(g_, g_.lits.p[n.a], s);
        s.close(1, e);
        break;
      }
      case node_kind::placement:
        s.string_field(1, placement_uri(static_cast<placement_kind>(n.a)));
        break;
      case node_kind::embedded:
        break;
    }
    s.close(field_of(n.kind), end);
    s.bytes(n.type, n.type_size);
    s.varint(n.type_size);
    s.tag(1, 2);
  }

  constexpr void sub(std::uint32_t field, std::uint32_t i, Sink& s) const {
    const auto end = s.pos;
    write_node(i, s);
    s.close(field, end);
  }

  static constexpr std::uint32_t field_of(node_kind k) {
    switch (k) {
      case node_kind::param_ref: case node_kind::symbol_ref: case node_kind::named_ref: return 6;
      case node_kind::selection: return 9;
      case node_kind::struct_: return 8;
      case node_kind::call: return 7;
      case node_kind::intrinsic: return 3;
      case node_kind::lambda: return 4;
      case node_kind::block: return 5;
      case node_kind::literal: return 14;
      case node_kind::placement: return 11;
      case node_kind::embedded: return 0;
    }
    return 0;
  }

  // `<name>[_<suffix>]_arg`.
  constexpr void put_arg_name(Sink& s) const {
    s.bytes(names_.data() + symbol_prefix_len_, names_.size() - symbol_prefix_len_);
  }
  // `fc_<name>[_<suffix>]_symbol_<k>`, backwards.
  constexpr void put_symbol(Sink& s, std::uint32_t k) const {
    s.number(k);
    s.bytes(names_.data(), symbol_prefix_len_);
  }

  const graph_view g_;
  scratch<std::uint32_t> pos_;
  scratch<unsigned char> names_;  // context_names::all(): `fc_<ctx>_symbol_<ctx>_arg`
  std::size_t symbol_prefix_len_ = 0;
};

using serializer = basic_serializer<back_sink>;

// Run time: the message rooted at `root`, written in one pass (no counting pass) into a buffer
// that grows from a guess of its size.
// (Templates, so that a TU that traces nothing at run time compiles none of it.)
template <class Sink = growing_back_sink>
void write_growing(const graph_view& g, std::uint32_t root, Sink& out) {
  basic_serializer<Sink>(g).write_back(root, out);
}
template <class Sink = growing_back_sink>
scratch<unsigned char> runtime_bytes(const graph_view& g, std::uint32_t root) {
  Sink out(64 + 24 * g.nodes.size() + g.byte_pool.size());
  write_growing(g, root, out);
  scratch<unsigned char> bytes;
  bytes.append(out.data(), out.size());
  return bytes;
}

}  // namespace ctff::detail
