// The Computation message of a finished trace, written straight to wire bytes back to front (as upb
// does): a message's fields are written last to first, each payload before its length, so every
// length is known when it is needed and no separate sizing pass over the nodes is required. The
// same code run without a buffer counts the bytes. The inner building blocks' fields are written by
// wire_form (ast/wire_form.hpp), for read trees too; this is the graph's side of it. Names
// (`<name>_arg`, `fc_<name>_symbol_<n>`) as the printers spell them (ast/context_names.hpp).
#pragma once

#include <cstddef>
#include <string_view>

#include "ctff/ast/context_names.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/ast/wire_form.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/ast/array_writer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// A call without argument: the graph's no_node is the forms' marker.
static_assert(no_node == wire_no_arg);

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
    write_message(root, s);
    return static_cast<std::size_t>(-s.pos);
  }

  // Writes the message into exactly `size` bytes at `out` (size from size()).
  constexpr void write_into(std::uint32_t root, unsigned char* out, std::size_t size) const {
    Sink s{out, static_cast<std::ptrdiff_t>(size)};
    write_message(root, s);
  }

  // The message written back to front into s (growing_back_sink: in one pass at run time).
  constexpr void write_back(std::uint32_t root, Sink& s) const { write_message(root, s); }

  // Appends the message to a forward sink.
  constexpr void write(std::uint32_t root, byte_sink& s) const {
    const std::size_t n = size(root);
    if (s.out) write_into(root, s.out + s.n, n);
    s.n += n;
  }

  // Node i's Computation message; inner nodes' fields by wire_form (ast/wire_form.hpp).
  constexpr void write_message(std::uint32_t i, Sink& s) const {
    using form = wire_form<basic_serializer, Sink>;
    const node& n = g_.nodes.p[i];
    const auto end = s.pos;
    std::uint32_t field = 0;
    switch (n.kind) {
      case node_kind::param_ref: {
        const auto e = s.pos;
        put_arg_name(s);
        s.close(1, e);
        field = computation_field::reference;
        break;
      }
      case node_kind::symbol_ref: {
        const auto e = s.pos;
        put_symbol(s, pos_[n.a]);
        s.close(1, e);
        field = computation_field::reference;
        break;
      }
      case node_kind::named_ref:
        s.string_field(1, n.text);
        field = computation_field::reference;
        break;
      case node_kind::intrinsic:
        s.string_field(1, n.text);
        field = computation_field::intrinsic;
        break;
      case node_kind::selection:
        form::selection(*this, n.a, n.b, s);
        field = computation_field::selection;
        break;
      case node_kind::struct_:
        form::struct_(*this, n.a, n.b, s);
        field = computation_field::struct_;
        break;
      case node_kind::call:
        form::call(*this, n.a, n.b, s);
        field = computation_field::call;
        break;
      case node_kind::lambda:
        form::lambda(*this, i, n.a, s);
        field = computation_field::lambda;
        break;
      case node_kind::block:
        form::block(*this, 0, static_cast<std::uint32_t>(g_.bindings.size()), n.a, s);
        field = computation_field::block;
        break;
      case node_kind::literal: {
        const auto e = s.pos;
        write_array(g_, g_.lits.p[n.a], s);
        s.close(1, e);
        field = computation_field::literal;
        break;
      }
      case node_kind::placement:
        s.string_field(1, placement_uri(static_cast<placement_kind>(n.a)));
        field = computation_field::placement;
        break;
      case node_kind::embedded: {  // written whole, with its own type
        auto b = g_.embed_bytes(g_.embeds.p[n.a]);
        s.bytes(b.data(), b.size());
        return;
      }
    }
    s.close(field, end);
    s.bytes(n.type, n.type_size);
    s.varint(n.type_size);
    s.tag(1, 2);
  }

  // For wire_form: a lambda's parameter, a struct element (in the graph's elems) and a block
  // local (the trace's k-th binding, named by its position).
  constexpr void parameter(std::uint32_t i, Sink& s) const {
    const node& n = g_.nodes.p[i];
    if (n.b) {
      const auto e = s.pos;
      put_arg_name(s);
      s.close(1, e);
    } else {
      s.string_field(1, n.text);
    }
  }
  constexpr std::uint32_t element(std::uint32_t e) const { return g_.elems.p[e].value; }
  constexpr void element_name(std::uint32_t e, Sink& s) const {
    s.string_field(1, g_.elems.p[e].name);
  }
  constexpr std::uint32_t local(std::uint32_t k) const { return g_.bindings.p[k]; }
  constexpr void local_name(std::uint32_t k, Sink& s) const {
    const auto e = s.pos;
    put_symbol(s, k);
    s.close(1, e);
  }

 private:
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
