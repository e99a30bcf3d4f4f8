// The text side of the structural form (ast/structural.hpp): the pieces a drawing is made of,
// Python's label for each and their lengths, and the drawing written from laid-out pieces (as
// drawn() gives them: row by row, left to right) into a char buffer or into a constant.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "ctff/ast/context_names.hpp"
#include "ctff/ast/drawing_sink.hpp"
#include "ctff/ast/structural_labels.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/numpy/literal_print.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// What a piece of the drawing shows: one character (a = the character), a node's label (a =
// node), a struct element's `name=` (a = element), a Block local's `fc_<name>_symbol_<k>=` (a = k),
// or rows of an embedded drawing.
enum class drawing_piece : std::uint8_t { glyph, node, name_eq, symbol_eq, embedded };

// A laid-out piece: row y, columns [x, x + len). Of an embedded drawing (a = its entry in the
// graph's embeds), one row of it: the characters [from, to) of its text.
// (No member initializers: pieces live in scratch arrays; `drawn_piece{}` is all zeros, a glyph.)
struct drawn_piece {
  std::uint32_t y;
  std::int32_t x, len;
  drawing_piece kind;
  std::uint32_t a, from, to;
};

// A class template only so that a TU that includes ctff and prints no drawing compiles none of
// it (g++ analyses a template's members when they are instantiated, not when read).
template <class D = void>
class basic_structural_text {
 public:
  // `encoded`: write line breaks inside rows as structural_break (the form embedded into other
  // drawings) instead of '\n' (Python's text).
  constexpr basic_structural_text(const graph_view& g, bool encoded)
      : g_(g), names_(g), encoded_(encoded) {
    pos_.assign(g.nodes.size(), no_node);
    for (std::uint32_t k = 0; k != g.bindings.size(); ++k) pos_[g.bindings[k]] = k;
  }

 protected:
  using piece = drawing_piece;

  template <class Sink>
  constexpr void symbol(Sink& s, std::uint32_t k) const {
    s.put(names_.symbol_prefix());
    s.put_uint(k);
  }

  // What a lambda's label names: its parameter, or None.
  constexpr std::string_view lambda_parameter(const node& n) const {
    if (n.b) return names_.arg();
    return n.text.empty() ? label::no_parameter : n.text;
  }

  // Python's node labels, and the `name=` of list elements. (Defined before their first use in
  // this class: clang evaluates a member template only if its definition came first.)
  template <class Sink>
  constexpr void put_label(piece kind, std::uint32_t a, std::int32_t len, Sink& s) const {
    if (kind == piece::name_eq) {
      s.put(g_.elems.p[a].name);
      s.put('=');
      return;
    }
    if (kind == piece::symbol_eq) {
      symbol(s, a);
      s.put('=');
      return;
    }
    const node& n = g_.nodes.p[a];
    switch (n.kind) {
      case node_kind::param_ref:
        s.put(label::ref);
        s.put(names_.arg());
        s.put(label::close);
        return;
      case node_kind::symbol_ref:
        s.put(label::ref);
        symbol(s, pos_[n.a]);
        s.put(label::close);
        return;
      case node_kind::named_ref:
        s.put(label::ref);
        s.put(n.text);
        s.put(label::close);
        return;
      case node_kind::selection:
        s.put(label::selection);
        s.put_uint(n.b);
        s.put(label::close);
        return;
      case node_kind::struct_:
        s.put(label::struct_);
        return;
      case node_kind::call:
        s.put(label::call);
        return;
      case node_kind::intrinsic:
        s.put(n.text);
        return;
      case node_kind::lambda:
        s.put(label::lambda);
        s.put(lambda_parameter(n));
        s.put(label::close);
        return;
      case node_kind::block:
        s.put(label::block);
        return;
      case node_kind::literal:
        if constexpr (std::is_same_v<Sink, text_sink>) {
          put_literal_label<D>(literal_of(g_, g_.lits.p[n.a]), s);
        } else {
          scratch<char> buf;
          buf.assign(static_cast<std::size_t>(len), ' ');
          text_sink t{buf.data()};
          put_literal_label<D>(literal_of(g_, g_.lits.p[n.a]), t);
          for (char c : buf) s.put(c == '\n' && encoded_ ? structural_break : c);
        }
        return;
      case node_kind::placement:
        s.put(label::placement);
        return;
      case node_kind::embedded:
        return;  // drawn from its rows
    }
  }

  // Label lengths without printing them (all but literals).
  constexpr std::int32_t ctx_len() const { return static_cast<std::int32_t>(names_.ctx().size()); }
  constexpr std::int32_t symbol_len(std::uint32_t k) const {
    return 11 + ctx_len() + static_cast<std::int32_t>(decimal_digits(k));  // fc_<ctx>_symbol_<k>
  }
  constexpr std::int32_t node_label_len(std::uint32_t i) {
    const node& n = g_.nodes.p[i];
    const auto text = static_cast<std::int32_t>(n.text.size());
    switch (n.kind) {
      case node_kind::param_ref: return label::wrapped_len(label::ref, names_.arg().size());
      case node_kind::symbol_ref:
        return label::wrapped_len(label::ref, static_cast<std::size_t>(symbol_len(pos_[n.a])));
      case node_kind::named_ref: return label::wrapped_len(label::ref, n.text.size());
      case node_kind::selection: return label::wrapped_len(label::selection, decimal_digits(n.b));
      case node_kind::struct_: return static_cast<std::int32_t>(label::struct_.size());
      case node_kind::call: return static_cast<std::int32_t>(label::call.size());
      case node_kind::intrinsic: return text;
      case node_kind::lambda: return label::wrapped_len(label::lambda, lambda_parameter(n).size());
      case node_kind::block: return static_cast<std::int32_t>(label::block.size());
      case node_kind::placement: return static_cast<std::int32_t>(label::placement.size());
      case node_kind::embedded: return 0;
      case node_kind::literal: break;
    }
    // Only a literal's label can break a line: print it to find out.
    text_sink count{};
    put_label(piece::node, i, 0, count);
    scratch<char> buf;
    buf.assign(count.n, ' ');
    text_sink s{buf.data()};
    put_label(piece::node, i, 0, s);
    for (char c : buf) breaks_ = breaks_ || c == '\n';
    return static_cast<std::int32_t>(count.n);
  }

 public:
  // (After the member templates they use: clang evaluates a member template only if its
  // definition came before the use.)
  // The text, each character once and in order: the pieces as drawn() orders them, with the
  // spaces between them (constant evaluation is slow per character, and g++ keeps a constant
  // array's elements in order of first write).
  template <class Sink>
  constexpr void write_pieces(const drawn_piece* ps, std::size_t n, Sink& s) const {
    std::uint32_t row = 0;
    std::int32_t col = 0;
    for (std::size_t k = 0; k != n; ++k) {
      const drawn_piece& p = ps[k];
      for (; row != p.y; ++row) {
        s.put('\n');
        col = 0;
      }
      s.spaces(p.x - col);
      switch (p.kind) {
        case piece::glyph:
          s.put(static_cast<char>(p.a));
          break;
        case piece::embedded: {
          const embed& e = g_.embeds.p[p.a];
          const char* t = g_.embed_structural(e).data();
          s.run(t + p.from, p.to - p.from, !encoded_ && e.structural_breaks);
          break;
        }
        default:
          put_label(p.kind, p.a, p.len, s);
      }
      col = p.x + p.len;
    }
  }

  // The text of a drawing laid out before (its pieces, drawn()) as a constant of N characters
  // (its size()): a char_array whose first N characters are the text.
  template <std::size_t N>
  constexpr auto text(const drawn_piece* ps, std::size_t n) const {
#if defined(__clang__)
    constexpr std::size_t blocks = N / 64 + 1;
    drawing_block_sink<blocks> s{};
    for (char& c : s.blank.c) c = ' ';
    s.cur = drawing_block(s.blank);  // (a temporary: see drawing_block)
    write_pieces(ps, n, s);
    while (s.done != blocks) s.flush();
    return std::bit_cast<char_array<blocks * 64>>(s.out);
#else
    constexpr std::size_t words = N / 8 + 1;
    drawing_word_sink<words> s{};
    write_pieces(ps, n, s);
    s.finish();
    return std::bit_cast<char_array<words * 8>>(s.out);
#endif
  }

 protected:
  const graph_view g_;
  context_names names_;
  bool encoded_;
  bool breaks_ = false;         // a label holds a line break (a multi-line literal)
  scratch<std::uint32_t> pos_;  // node -> its Block local, or no_node
};

using structural_text = basic_structural_text<>;

}  // namespace ctff::detail
