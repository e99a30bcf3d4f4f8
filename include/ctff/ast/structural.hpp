// The structural form of a finished trace: federated_language's structural_representation(), an
// ASCII drawing of the building-block tree. Python builds it as lists of padded lines and glues
// sibling drawings together ("fitting") as close as their outlines allow; copying every line at
// every level is quadratic. Here a drawing is a rectangle known by its width and its outline (per
// row, the columns where its content starts and ends), kept as a shared linked list, so a fit
// costs only the rows the two sides have in common. Pieces of text hang from one another with
// relative offsets; absolute positions are resolved once at the end, then the text is written
// row by row. Two passes like the other outputs: the size, then the text.
//
// Nested computations arrive as text (`embed::structural`); a line break inside one row of such
// text (a multi-line numpy literal) is stored as '\x01' so rows can be told apart (`encoded`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/ast/drawing_sink.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/ast/structural_text.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/core/scratch.hpp"

namespace ctff::detail {
// The layout; the labels and the text are basic_structural_text's. A class template only so that
// a TU that includes ctff and prints no drawing compiles none of it (g++ analyses a template's
// members when they are instantiated, not when read).
template <class V = void>
class basic_structural_writer : public basic_structural_text<V> {
  using base = basic_structural_text<V>;
  using base::breaks_;
  using base::g_;
  using base::node_label_len;
  using base::symbol_len;
  using typename base::piece;

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
  // A piece of text at a position relative to its parent place (the pieces of a drawing hang
  // from one of them, its root); absolute once resolve() has run.
  // (No member initializers, as for row: kept in scratch arrays, always made whole.)
  struct place {
    std::int32_t x, y;
    std::uint32_t parent;
    piece kind;
    std::uint32_t a;
    std::int32_t len;
  };

  // One row of a drawing's outline: content in [s, e); the rows below follow at `next`, shifted
  // right by dx. Rows never change once a later drawing links to them, so drawings share them.
  struct row {
    std::int32_t s, e;
    std::uint32_t next;
    std::int32_t dx;
  };

  struct rect {
    std::int32_t w;
    std::uint32_t h;
    std::uint32_t head;  // first row
    std::uint32_t at;    // its root place, at column ax, row ay
    std::int32_t ax, ay;
  };

  // An embedded drawing's outline, computed once per text.
  struct drawing {
    std::string_view text;
    rect shape;
    std::uint32_t embed;  // its entry in the graph's embeds
  };

  constexpr std::uint32_t add_row(std::int32_t s, std::int32_t e, std::uint32_t nx,
                                  std::int32_t dx) {
    rows_.push_back(row{s, e, nx, dx});
    return static_cast<std::uint32_t>(rows_.size() - 1);
  }
  constexpr std::uint32_t add_place(piece kind, std::uint32_t a, std::int32_t len) {
    places_.push_back(place{0, 0, no_node, kind, a, len});
    return static_cast<std::uint32_t>(places_.size() - 1);
  }
  // Hangs place `p`, at column x and row y of drawing `host`, from host's root.
  constexpr void attach(std::uint32_t p, std::int32_t x, std::int32_t y, const rect& host) {
    place& q = places_.data()[p];
    q.parent = host.at;
    q.x = x - host.ax;
    q.y = y - host.ay;
  }

  // A one-row drawing of one piece.
  constexpr rect leaf(piece kind, std::uint32_t a, std::int32_t len) {
    const std::uint32_t at = add_place(kind, a, len);
    return rect{len, 1, add_row(0, len, no_node, 0), at, 0, 0};
  }
  constexpr rect glyph_leaf(char c) { return leaf(piece::glyph, static_cast<std::uint32_t>(c), 1); }
  constexpr rect node_leaf(std::uint32_t i) { return leaf(piece::node, i, node_label_len(i)); }

  // An embedded computation's drawing: one piece; its outline is worked out once per text (the
  // same nested computation used again shares it).
  constexpr rect embedded(std::uint32_t e) {
    const std::string_view t = g_.embed_structural(g_.embeds.p[e]);
    std::uint32_t k = static_cast<std::uint32_t>(drawings_.size());
    for (std::uint32_t tries = 0; k != 0 && tries != 8; ++tries) {
      const drawing& d = drawings_[--k];
      if (same_text(d.text, t)) return placed(k);
    }
    drawings_.push_back(drawing{t, outline(t), e});
    return placed(static_cast<std::uint32_t>(drawings_.size() - 1));
  }
  constexpr rect placed(std::uint32_t k) {
    rect r = drawings_[k].shape;
    r.at = add_place(piece::embedded, k, 0);
    return r;
  }
  constexpr rect outline(std::string_view t) {
    rect r{0, 0, no_node, no_node, 0, 0};
    std::uint32_t last = no_node;
    const char* p = t.data();
    const std::size_t n = t.size();
    std::size_t begin = 0;
    for (std::size_t i = 0; i <= n; ++i) {
      if (i != n && p[i] != '\n') {
        if (p[i] == structural_break) breaks_ = true;
        continue;
      }
      std::size_t s = begin;
      while (s != i && p[s] == ' ') ++s;
      const std::uint32_t k = add_row(static_cast<std::int32_t>(s - begin),
                                      static_cast<std::int32_t>(i - begin), no_node, 0);
      if (last == no_node) r.head = k; else rows_[last].next = k;
      last = k;
      if (rows_[k].e > r.w) r.w = rows_[k].e;
      ++r.h;
      begin = i + 1;
    }
    return r;
  }

  // `label` above a `|` above the child, at the column where the child's first row starts
  // (Lambda, Selection, Struct).
  constexpr rect stacked(std::uint32_t node_id, const rect& c) {
    const std::int32_t len = node_label_len(node_id);
    const std::int32_t s0 = rows_[c.head].s;
    rect r = c;  // c two rows down
    r.ay += 2;
    attach(add_place(piece::node, node_id, len), s0, 0, r);
    attach(add_place(piece::glyph, '|', 1), s0, 1, r);
    if (s0 + len > r.w) r.w = s0 + len;
    if (s0 + 1 > r.w) r.w = s0 + 1;
    r.h += 2;
    const std::uint32_t second = add_row(s0, s0 + 1, c.head, 0);
    r.head = add_row(s0, s0 + len, second, 0);
    return r;
  }

  // Glues `r` to the right of `l` (Python's fit): as close as `first_gap` columns between their
  // first rows and `min_gap` between the other rows they share allow, whichever is tightest; a
  // negative gap overlaps trailing spaces of l with leading spaces of r.
  constexpr rect fit(const rect& l, const rect& r, std::int32_t first_gap, std::int32_t min_gap) {
    const std::uint32_t common = l.h < r.h ? l.h : r.h;
    // Shared rows start where the left side starts and end where the right side ends; recorded
    // in place first, shifted below once the sides' offsets are known. (Through pointers: an
    // element access through scratch's operator[] is a call to the constant evaluators.)
    const auto first = static_cast<std::uint32_t>(rows_.size());
    row* const out = rows_.extend(common);
    const row* const in = rows_.data();
    std::int32_t inset = 0;
    std::uint32_t li = l.head, ri = r.head;
    std::int32_t lb = 0, rb = 0;
    for (std::uint32_t i = 0; i != common; ++i) {
      const row& a = in[li];
      const row& b = in[ri];
      const std::int32_t room = (l.w - a.e - lb) + b.s + rb - (i ? min_gap : first_gap);
      if (i == 0 || room < inset) inset = room;
      out[i] = row{a.s + lb, b.e + rb, first + i + 1, 0};
      lb += a.dx;
      rb += b.dx;
      li = a.next;
      ri = b.next;
    }
    const std::int32_t joined = l.w + r.w - inset;  // width of a row both sides share
    std::int32_t xl = 0, xr = l.w - inset, w = joined;
    if (l.h > r.h) {
      if (l.w > w) w = l.w;
    } else if (l.h < r.h && joined < r.w) {
      w = r.w;
      xl = r.w - joined;
      xr = 0;
    }
    for (std::uint32_t k = 0; k != common; ++k) {
      out[k].s += xl;
      out[k].e += xr;
    }
    row& last = out[common - 1];
    last.next = no_node;
    if (l.h > r.h) {
      last.next = li;
      last.dx = lb + xl;
    } else if (r.h > l.h) {
      last.next = ri;
      last.dx = rb + xr;
    }
    // One side stays where it is (xl or xr is 0); the other hangs from its root.
    rect o = xl == 0 ? l : r;
    if (xl == 0) {
      attach(r.at, xr + r.ax, r.ay, o);
    } else {
      attach(l.at, xl + l.ax, l.ay, o);
    }
    o.w = w;
    o.h = l.h > r.h ? l.h : r.h;
    o.head = first;
    return o;
  }

  // Call and Block: the label over a `/` to the first child (f) and, if there is one, a `\` to
  // the second (a).
  constexpr rect forked(std::uint32_t node_id, const rect& f, const rect* a) {
    const std::int32_t len = node_label_len(node_id);
    // `/` just after the end of f's first row.
    const std::int32_t fe = rows_[f.head].e;
    rect both = f;  // f one row down
    both.ay += 1;
    attach(add_place(piece::glyph, '/', 1), fe, 0, both);
    both.w = fe + 1 > f.w ? fe + 1 : f.w;
    both.h = f.h + 1;
    both.head = add_row(fe, fe + 1, f.head, 0);
    if (a) {
      // `\` just before the start of a's first row (a moves right by one if that is column 0).
      const std::int32_t as = rows_[a->head].s;
      const std::int32_t edge = 1 + a->w - as;
      const std::int32_t w = edge > a->w ? edge : a->w;
      const std::int32_t shift = w - a->w;
      rect right = *a;  // a one row down, `shift` columns right
      right.ax += shift;
      right.ay += 1;
      attach(add_place(piece::glyph, '\\', 1), w - edge, 0, right);
      right.w = w;
      right.h = a->h + 1;
      right.head = add_row(w - edge, w - edge + 1, a->head, shift);
      both = fit(both, right, len, 4);
    }
    const std::int32_t col = rows_[both.head].s + 1;
    rect r = both;  // one row down
    r.ay += 1;
    attach(add_place(piece::node, node_id, len), col, 0, r);
    if (col + len > r.w) r.w = col + len;
    r.h = both.h + 1;
    r.head = add_row(col, col + len, both.head, 0);
    return r;
  }

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
  scratch<row> rows_;
  scratch<place> places_;
  scratch<rect> vals_;
  scratch<drawing> drawings_;
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
