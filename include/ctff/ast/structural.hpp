// The structural form of a finished trace: federated_language's structural_representation(), an
// ASCII drawing of the building-block tree. Here: the writer, which walks the tree and builds its
// drawing from its children's (the drawings' geometry, Python's "fitting" done on outlines, is
// ast/structural_fit.hpp; the labels and the text, ast/structural_text.hpp), resolves the pieces'
// absolute positions once at the end, then writes the text row by row. Two passes like the other
// outputs: the size, then the text.
//
// Nested computations arrive as text (`embed::structural`); a line break inside one row of such
// text (a multi-line numpy literal) is stored as '\x01' so rows can be told apart (`encoded`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/ast/drawing_sink.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/ast/structural_fit.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/core/scratch.hpp"

namespace ctff::detail {
// The layout; the drawings' geometry is basic_structural_fit's, the labels and the text are
// basic_structural_text's. A class template only so that a TU that includes ctff and prints no
// drawing compiles none of it (g++ analyses a template's members when they are instantiated, not
// when read).
template <class V = void>
class basic_structural_writer : public basic_structural_fit<V> {
  using base = basic_structural_fit<V>;
  using base::breaks_;
  using base::g_;
  using base::node_label_len;
  using base::symbol_len;
  using typename base::piece;
  using typename base::place;
  using typename base::row;
  using typename base::rect;
  using base::drawings_;
  using base::places_;
  using base::rows_;
  using base::embedded;
  using base::fit;
  using base::forked;
  using base::glyph_leaf;
  using base::leaf;
  using base::node_leaf;
  using base::stacked;

 public:
  // Lays out the tree under `root`. `encoded`: as basic_structural_text.
  constexpr basic_structural_writer(const graph_view& g, std::uint32_t root, bool encoded)
      : base(g, encoded) {
    places_.reserve(4 * g.nodes.size() + 8);
    rows_.reserve(8 * g.nodes.size() + 8);
    const rect r = layout(root);
    height_ = r.h;
    resolve(r);
  }

  // Characters of the text (rows joined by '\n', no trailing break).
  constexpr std::size_t size() const { return size_; }
  // Whether a row holds a line break (then the encoded and plain texts differ).
  constexpr bool has_breaks() const { return breaks_; }

 private:
  // A list `[a, name=b, ...]` is folded one element at a time into the drawing on vals_. Before
  // element k is drawn, its `,` (k > 0) and `name=` are pushed (list_next), so that pieces are
  // made left to right in each row; then the list so far, those and the element are folded.
  constexpr void list_next(std::uint32_t k, bool named, piece name, std::uint32_t a,
                           std::int32_t len) {
    if (k) vals_.push_back(glyph_leaf(','));
    if (named) vals_.push_back(leaf(name, a, len));
  }
  constexpr void list_element(std::uint32_t k, bool named) {
    rect c = pop();
    if (named) {
      const rect name = pop();
      c = fit(name, c, 0, 0);
    }
    if (k == 0) {
      const rect acc = pop();
      vals_.push_back(fit(acc, c, 0, 0));
    } else {
      const rect comma = pop();
      const rect acc = pop();
      vals_.push_back(fit(fit(acc, comma, 0, 0), c, 1, 4));
    }
  }
  constexpr void list_close() {
    const rect acc = pop();
    vals_.push_back(fit(acc, glyph_leaf(']'), 0, 0));
  }

  constexpr rect pop() { return vals_.take_back(); }

  struct frame {
    std::uint32_t node, stage;
  };
  // A child to draw: a leaf at once, anything else by a new frame.
  constexpr void visit(scratch<frame>& todo, std::uint32_t i) {
    switch (g_.nodes.p[i].kind) {
      case node_kind::selection: case node_kind::lambda: case node_kind::call:
      case node_kind::struct_: case node_kind::block:
        todo.push_back({i, 0});
        return;
      case node_kind::embedded:
        vals_.push_back(embedded(g_.nodes.p[i].a));
        return;
      default:
        vals_.push_back(node_leaf(i));
        return;
    }
  }

  // Post-order walk with an explicit stack (no recursion depth limit); a node reached twice is
  // drawn twice, as Python draws a tree. Pieces are made left to right within each row: a
  // drawing's children come before its own pieces, which lie in rows above theirs (labels, `/`,
  // `\`, `|`), left siblings before right ones, and a list's `,` and `name=` before the element.
  constexpr rect layout(std::uint32_t root) {
    scratch<frame> todo;
    todo.push_back({root, 0});
    while (!todo.empty()) {
      frame& f = todo.back();
      const std::uint32_t i = f.node;
      const std::uint32_t stage = f.stage++;
      const node& n = g_.nodes.p[i];
      switch (n.kind) {
        case node_kind::selection:
        case node_kind::lambda:
          if (stage == 0) {
            visit(todo, n.a);
            continue;
          }
          vals_.push_back(stacked(i, pop()));
          break;
        case node_kind::call:
          if (stage == 0 || (stage == 1 && n.b != no_node)) {
            visit(todo, stage == 0 ? n.a : n.b);
            continue;
          }
          if (n.b != no_node) {
            const rect arg = pop();
            const rect fn = pop();
            vals_.push_back(forked(i, fn, &arg));
          } else {
            vals_.push_back(forked(i, pop(), nullptr));
          }
          break;
        case node_kind::struct_:
          // Stage 0 opens the list, stage k folds in element k-1, the last stage closes it.
          if (stage == 0) vals_.push_back(glyph_leaf('['));
          if (stage > 0) list_element(stage - 1, !g_.elems.p[n.a + stage - 1].name.empty());
          if (stage < n.b) {
            const std::uint32_t e = n.a + stage;
            const std::string_view name = g_.elems.p[e].name;
            list_next(stage, !name.empty(), piece::name_eq, e,
                      static_cast<std::int32_t>(name.size()) + 1);
            visit(todo, g_.elems.p[e].value);
            continue;
          }
          list_close();
          vals_.push_back(stacked(i, pop()));
          break;
        case node_kind::block: {
          // The locals as a list, then the result.
          const auto locals = static_cast<std::uint32_t>(g_.bindings.size());
          if (stage == 0) vals_.push_back(glyph_leaf('['));
          if (stage > 0 && stage <= locals) list_element(stage - 1, true);
          if (stage < locals) {
            list_next(stage, true, piece::symbol_eq, stage, symbol_len(stage) + 1);
            visit(todo, g_.bindings.p[stage]);
            continue;
          }
          if (stage == locals) {
            list_close();
            visit(todo, n.a);
            continue;
          }
          const rect result = pop();
          const rect vars = pop();
          vals_.push_back(forked(i, vars, &result));
          break;
        }
        case node_kind::embedded:
          vals_.push_back(embedded(n.a));
          break;
        default:
          vals_.push_back(node_leaf(i));
          break;
      }
      todo.pop_back();
    }
    return pop();
  }

  // Absolute positions and the size of the text. A place is made absolute after its parent,
  // then marked so by losing its parent. (A parent is mostly made before its children, so its
  // position is mostly known already; otherwise the chain up to a known one is walked.)
  constexpr void resolve(const rect& r) {
    places_[r.at].x = r.ax;
    places_[r.at].y = r.ay;
    scratch<std::uint32_t> up;
    place* const ps = places_.data();
    const auto count = static_cast<std::uint32_t>(places_.size());
    for (std::uint32_t k = 0; k != count; ++k) {
      if (ps[k].parent == no_node) continue;
      std::uint32_t j = k;
      for (; ps[ps[j].parent].parent != no_node; j = ps[j].parent) up.push_back(j);
      for (;;) {
        place& p = ps[j];
        const place& q = ps[p.parent];
        p.x += q.x;
        p.y += q.y;
        p.parent = no_node;
        if (up.empty()) break;
        j = up.back();
        up.pop_back();
      }
    }
    // Each row ends where its last piece ends.
    scratch<std::int32_t> ends_s;
    ends_s.assign(height_, 0);
    std::int32_t* const ends = ends_s.data();
    const row* const rows = rows_.data();
    for (std::uint32_t k = 0; k != count; ++k) {
      const place& p = ps[k];
      if (p.kind == piece::embedded) {
        auto y = static_cast<std::uint32_t>(p.y);
        for (std::uint32_t i = drawings_[p.a].shape.head; i != no_node; i = rows[i].next, ++y)
          if (p.x + rows[i].e > ends[y]) ends[y] = p.x + rows[i].e;
      } else if (p.x + p.len > ends[static_cast<std::uint32_t>(p.y)]) {
        ends[static_cast<std::uint32_t>(p.y)] = p.x + p.len;
      }
    }
    size_ = height_ ? height_ - 1 : 0;
    for (std::uint32_t y = 0; y != height_; ++y) size_ += static_cast<std::size_t>(ends[y]);
  }

 public:
  // Number of pieces drawn() writes: one per place, one per row of an embedded drawing.
  constexpr std::size_t piece_count() const {
    std::size_t n = 0;
    for (const place& p : places_) n += p.kind == piece::embedded ? drawings_[p.a].shape.h : 1;
    return n;
  }

  // Writes the piece_count() pieces in writing order into out: row by row and left to right in
  // each row, at absolute columns. Counted per row, then placed in creation order (left to right
  // within a row, see layout()).
  constexpr void drawn(drawn_piece* out) const {
    scratch<std::uint32_t> first_s;  // row r: out[first[r], first[r + 1])
    first_s.assign(height_ + 1, 0);
    std::uint32_t* const first = first_s.data();
    const row* const rows = rows_.data();
    for (const place& p : places_) {
      const auto y = static_cast<std::uint32_t>(p.y);
      const std::uint32_t h = p.kind == piece::embedded ? drawings_[p.a].shape.h : 1;
      for (std::uint32_t k = 1; k <= h; ++k) ++first[y + k];
    }
    for (std::uint32_t r = 0; r != height_; ++r) first[r + 1] += first[r];
    scratch<std::uint32_t> fill_s;
    fill_s.append(first, height_);
    std::uint32_t* const fill = fill_s.data();
    for (const place& p : places_) {
      auto y = static_cast<std::uint32_t>(p.y);
      if (p.kind != piece::embedded) {
        out[fill[y]++] = drawn_piece{y, p.x, p.len, p.kind, p.a, 0, 0};
        continue;
      }
      const std::uint32_t e = drawings_[p.a].embed;
      std::uint32_t from = 0;
      for (std::uint32_t k = drawings_[p.a].shape.head; k != no_node; k = rows[k].next, ++y) {
        const row& w = rows[k];
        out[fill[y]++] = drawn_piece{y, p.x + w.s, w.e - w.s, p.kind, e,
                                     from + static_cast<std::uint32_t>(w.s),
                                     from + static_cast<std::uint32_t>(w.e)};
        from += static_cast<std::uint32_t>(w.e) + 1;
      }
    }
    // (Kept as a safeguard: a sorted row costs one comparison per piece.)
    for (std::uint32_t r = 0; r != height_; ++r) {
      for (std::uint32_t k = first[r] + 1; k < first[r + 1]; ++k) {
        if (out[k - 1].x <= out[k].x) continue;
        const drawn_piece v = out[k];
        std::uint32_t j = k;
        for (; j != first[r] && out[j - 1].x > v.x; --j) out[j] = out[j - 1];
        out[j] = v;
      }
    }
  }

  // Writes size() characters to out[0], out[1], ...
  constexpr void write(char* out) const {
    scratch<drawn_piece> ps;  // (std::vector(n) of a trivial type is not constexpr on clang)
    ps.assign(piece_count(), drawn_piece{});
    drawn(ps.data());
    drawing_char_sink s{out};
    this->write_pieces(ps.data(), ps.size(), s);
  }

  // The number of pieces drawn() returns, for the tree under `root`, without laying it out.
  static constexpr std::size_t count_pieces(const graph_view& g, std::uint32_t root);

 private:
  scratch<rect> vals_;
  std::uint32_t height_ = 0;
  std::size_t size_ = 0;
};

// As many as layout() makes places, but an embedded drawing counts its rows (drawn() gives each
// row a piece). A tree walk: cheap next to the layout itself.
template <class V>
constexpr std::size_t basic_structural_writer<V>::count_pieces(const graph_view& g,
                                                               std::uint32_t root) {
  std::size_t n = 0;
  bool counted = false;
  std::string_view last{};  // the last embedded drawing counted, and its rows
  std::size_t last_rows = 0;
  scratch<std::uint32_t> todo;
  todo.push_back(root);
  while (!todo.empty()) {
    const node& x = g.nodes[todo.back()];
    todo.pop_back();
    switch (x.kind) {
      case node_kind::selection:
      case node_kind::lambda:  // the label and `|`
        n += 2;
        todo.push_back(x.a);
        break;
      case node_kind::call:  // the label, `/` and `\`
        n += x.b != no_node ? 3 : 2;
        todo.push_back(x.a);
        if (x.b != no_node) todo.push_back(x.b);
        break;
      case node_kind::struct_:  // the label, `|`, `[`, `]`, the commas and the names
        n += 4 + (x.b ? x.b - 1 : 0);
        for (std::uint32_t k = 0; k != x.b; ++k) {
          n += g.elems[x.a + k].name.empty() ? 0 : 1;
          todo.push_back(g.elems[x.a + k].value);
        }
        break;
      case node_kind::block: {  // the label, `/`, `\`, `[`, `]`, the commas and the names
        const auto locals = static_cast<std::uint32_t>(g.bindings.size());
        n += 5 + (locals ? 2 * locals - 1 : 0);
        for (std::uint32_t k = 0; k != locals; ++k) todo.push_back(g.bindings[k]);
        todo.push_back(x.a);
        break;
      }
      case node_kind::embedded: {
        // One piece per row; rows counted once per text (a computation used again shares it).
        const std::string_view t = g.embed_structural(g.embeds[x.a]);
        if (!counted || !same_text(t, last)) {  // (see printer)
          counted = true;
          last = t;
          last_rows = 1;
          for (char c : t) last_rows += c == '\n' ? 1 : 0;
        }
        n += last_rows;
        break;
      }
      default:
        ++n;
        break;
    }
  }
  return n;
}

using structural_writer = basic_structural_writer<>;

}  // namespace ctff::detail
