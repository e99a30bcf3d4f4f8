// The geometry of the structural drawing (ast/structural.hpp): a drawing is a rectangle known by
// its width and its outline (per row, the columns where its content starts and ends), kept as a
// shared linked list, so that gluing two drawings side by side as close as their outlines allow
// (Python's "fitting") costs only the rows they have in common, not a copy of every line. Its
// pieces of text hang from one another with relative offsets, resolved by the writer once the
// whole drawing is laid out. Here: those rectangles, leaves, embedded drawings' outlines, and
// the three ways a drawing is built from its children (stacked, fit, forked).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/ast/graph.hpp"
#include "ctff/ast/structural_text.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/core/scratch.hpp"

namespace ctff::detail {
// The drawings' rectangles and how they are glued; the tree walk that builds them is
// basic_structural_writer's. A class template for the reason basic_structural_text is one.
template <class V = void>
class basic_structural_fit : public basic_structural_text<V> {
  using base = basic_structural_text<V>;

 public:
  // `encoded`: as basic_structural_text.
  constexpr basic_structural_fit(const graph_view& g, bool encoded) : base(g, encoded) {}

 protected:
  using base::breaks_;
  using base::g_;
  using base::node_label_len;
  using typename base::piece;

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

  scratch<row> rows_;
  scratch<place> places_;
  scratch<drawing> drawings_;
};

}  // namespace ctff::detail
