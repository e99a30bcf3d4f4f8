// The Computation message of a finished trace, written straight to wire bytes in two steps: one
// forward pass sizes every node (children precede parents), then the tree is written through a
// pointer. Names are spelled only here: `<name>_arg`, `fc_<name>_symbol_<n>`.
#pragma once

#include <vector>

#include "ctff/ast/graph.hpp"
#include "ctff/ast/literal.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

class serializer {
 public:
  constexpr explicit serializer(const graph& g) : g_(g) {
    pos_.assign(g.nodes.size(), no_node);
    for (std::uint32_t k = 0; k != g.bindings.size(); ++k) pos_[g.bindings[k]] = k;
    name_len_ = g.name.size() + (g.suffix ? 1 + decimal_digits(g.suffix) : 0);
    body_.assign(g.nodes.size(), 0);
    size_.assign(g.nodes.size(), 0);
    for (std::uint32_t i = 0; i != g.nodes.size(); ++i) measure(i);
  }

  constexpr std::size_t size(std::uint32_t root) const { return size_[root]; }

  constexpr void write(std::uint32_t i, byte_sink& s) const {
    const node& n = g_.nodes[i];
    if (n.kind == node_kind::embedded) {
      s.bytes(g_.embed_bytes(g_.embeds[n.a]).data(), size_[i]);
      return;
    }
    s.tag(1, 2);
    s.varint(n.type_size);
    s.bytes(n.type, n.type_size);
    s.tag(field_of(n.kind), 2);
    s.varint(body_[i]);
    switch (n.kind) {
      case node_kind::param_ref:
        s.tag(1, 2);
        s.varint(name_len_ + 4);
        put_ctx_name(s);
        s.chars("_arg");
        return;
      case node_kind::symbol_ref:
        s.tag(1, 2);
        s.varint(symbol_len(pos_[n.a]));
        put_symbol(s, pos_[n.a]);
        return;
      case node_kind::named_ref:
        s.string_field(1, n.text);
        return;
      case node_kind::selection:
        sub(1, n.a, s);
        if (n.b) {
          s.tag(3, 0);
          s.varint(n.b);
        }
        return;
      case node_kind::struct_:
        for (std::uint32_t k = 0; k != n.b; ++k) {
          const struct_elem& e = g_.elems[n.a + k];
          s.tag(1, 2);
          s.varint(elem_size(e));
          s.string_field(1, e.name);
          sub(2, e.value, s);
        }
        return;
      case node_kind::call:
        sub(1, n.a, s);
        if (n.b != no_node) sub(2, n.b, s);
        return;
      case node_kind::intrinsic:
        s.string_field(1, n.text);
        return;
      case node_kind::lambda:
        if (n.b) {
          s.tag(1, 2);
          s.varint(name_len_ + 4);
          put_ctx_name(s);
          s.chars("_arg");
        } else {
          s.string_field(1, n.text);
        }
        sub(2, n.a, s);
        return;
      case node_kind::block:
        for (std::uint32_t k = 0; k != g_.bindings.size(); ++k) {
          auto b = g_.bindings[k];
          s.tag(1, 2);
          s.varint(field_size(symbol_len(k)) + field_size(size_[b]));
          s.tag(1, 2);
          s.varint(symbol_len(k));
          put_symbol(s, k);
          sub(2, b, s);
        }
        sub(2, n.a, s);
        return;
      case node_kind::literal: {
        const lit& l = g_.lits[n.a];
        s.tag(1, 2);
        s.varint(array_size(g_, l));
        write_array(g_, l, s);
        return;
      }
      case node_kind::placement:
        s.string_field(1, placement_uri(static_cast<placement_kind>(n.a)));
        return;
      case node_kind::embedded:
        return;
    }
  }

 private:
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

  constexpr std::size_t symbol_len(std::uint32_t k) const {
    return 3 + name_len_ + 8 + decimal_digits(k);
  }
  constexpr void put_ctx_name(byte_sink& s) const {
    s.chars(g_.name);
    if (g_.suffix) {
      s.put('_');
      put_number(s, g_.suffix);
    }
  }
  static constexpr void put_number(byte_sink& s, std::uint64_t v) {
    char tmp[20]{};
    int k = 0;
    do {
      tmp[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (k) s.put(static_cast<unsigned char>(tmp[--k]));
  }
  constexpr void put_symbol(byte_sink& s, std::uint32_t k) const {
    s.chars("fc_");
    put_ctx_name(s);
    s.chars("_symbol_");
    put_number(s, k);
  }
  constexpr std::size_t elem_size(const struct_elem& e) const {
    return (e.name.empty() ? 0 : field_size(e.name.size())) + field_size(size_[e.value]);
  }
  constexpr void sub(std::uint32_t field, std::uint32_t i, byte_sink& s) const {
    s.tag(field, 2);
    s.varint(size_[i]);
    write(i, s);
  }

  constexpr void measure(std::uint32_t i) {
    const node& n = g_.nodes[i];
    std::size_t b = 0;
    switch (n.kind) {
      case node_kind::embedded:
        size_[i] = g_.embeds[n.a].size;
        return;
      case node_kind::param_ref: b = field_size(name_len_ + 4); break;
      case node_kind::symbol_ref: b = field_size(symbol_len(pos_[n.a])); break;
      case node_kind::named_ref: b = n.text.empty() ? 0 : field_size(n.text.size()); break;
      case node_kind::selection:
        b = field_size(size_[n.a]) + (n.b ? 1 + varint_size(n.b) : 0);
        break;
      case node_kind::struct_:
        for (std::uint32_t k = 0; k != n.b; ++k) b += field_size(elem_size(g_.elems[n.a + k]));
        break;
      case node_kind::call:
        b = field_size(size_[n.a]) + (n.b != no_node ? field_size(size_[n.b]) : 0);
        break;
      case node_kind::intrinsic: b = field_size(n.text.size()); break;
      case node_kind::lambda:
        b = (n.b ? field_size(name_len_ + 4) : (n.text.empty() ? 0 : field_size(n.text.size()))) +
            field_size(size_[n.a]);
        break;
      case node_kind::block:
        for (std::uint32_t k = 0; k != g_.bindings.size(); ++k)
          b += field_size(field_size(symbol_len(k)) + field_size(size_[g_.bindings[k]]));
        b += field_size(size_[n.a]);
        break;
      case node_kind::literal: b = field_size(array_size(g_, g_.lits[n.a])); break;
      case node_kind::placement:
        b = field_size(placement_uri(static_cast<placement_kind>(n.a)).size());
        break;
    }
    body_[i] = static_cast<std::uint32_t>(b);
    size_[i] = static_cast<std::uint32_t>(field_size(n.type_size) + field_size(b));
  }

  const graph& g_;
  std::vector<std::uint32_t> pos_;
  std::vector<std::uint32_t> body_;
  std::vector<std::uint32_t> size_;
  std::size_t name_len_ = 0;
};

}  // namespace ctff::detail
