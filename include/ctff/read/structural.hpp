// The structural drawing of any computation tree: federated_language's
// structural_representation(), built the way Python builds it (each subtree a list of rows padded
// to one width; siblings glued side by side as close as the rows' padding allows). This is the
// direct form of the algorithm, linear in the rows each glue touches: trees read from files are
// drawn once, for a person to look at. (The tracing side has a linear-time layout for traced
// trees, ast/structural.hpp; it knows only the tree shapes a trace makes.) Widths count code
// points, as Python's len() does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/ast/structural_labels.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {
namespace detail {

class tree_drawer {
 public:
  // One row: `pad` spaces, then s from `off` on; `w` its width in code points. Padding on the left
  // and cutting leading spaces only move numbers, so gluing costs what is appended, not the
  // width of what is already there.
  struct row {
    std::int64_t pad = 0;
    std::string s;
    std::size_t off = 0;
    std::int64_t w = 0;
  };
  using rows = std::vector<row>;

  explicit tree_drawer(const computation_tree& t) : t_(t) {}

  rows draw(std::uint32_t i) const {
    const block_node& n = t_.node(i);
    const std::string label = node_label(i);
    switch (n.kind) {
      case block_kind::block:
      case block_kind::call: {
        rows left = n.kind == block_kind::block ? list(i) : draw(n.a);
        const std::int64_t lead0 = left[0].w - trail(left[0]);
        left = concat(one(spaces(lead0) + "/"), std::move(left), true);
        rows lines;
        if (n.kind == block_kind::block || n.b != no_index) {
          rows right = draw(n.kind == block_kind::block ? n.a : n.b);
          const std::int64_t lp = lead(right[0]) - 1;
          const std::int64_t tp = right[0].w - lp - 1;
          right = concat(one("\\" + spaces(tp)), std::move(right), false);
          lines = fit(std::move(left), right, width(label), 4);
        } else {
          lines = std::move(left);
        }
        rows top = one(spaces(lead(lines[0]) + 1) + label);  // before lines is moved from
        return concat(std::move(top), std::move(lines), true);
      }
      case block_kind::lambda:
      case block_kind::selection:
      case block_kind::struct_: {
        rows below = n.kind == block_kind::struct_ ? list(i) : draw(n.a);
        const std::int64_t lp = lead(below[0]);
        rows top = one(spaces(lp) + label);
        top.push_back(make(spaces(lp) + "|"));
        return concat(std::move(top), std::move(below), true);
      }
      default:
        return one(label);
    }
  }

  // Python's text: rows without trailing whitespace, joined by '\n'. `encoded`: a line break
  // inside a row (a multi-line literal) as structural_break, the form ast/structural.hpp embeds.
  std::string text(std::uint32_t i, bool encoded) const {
    const rows r = draw(i);
    std::string out;
    for (std::size_t k = 0; k != r.size(); ++k) {
      if (k) out += '\n';
      std::string_view body = std::string_view(r[k].s).substr(r[k].off);
      while (!body.empty() && is_space(body.back())) body.remove_suffix(1);
      if (!body.empty()) out.append(static_cast<std::size_t>(r[k].pad), ' ');
      for (char c : body) out += (encoded && c == '\n') ? '\x01' : c;
    }
    return out;
  }

 private:
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
           (c >= '\x1c' && c <= '\x1f');
  }
  static std::int64_t width(std::string_view s) {
    std::int64_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    return n;
  }
  static row make(std::string s) {
    row r;
    r.w = width(s);
    r.s = std::move(s);
    return r;
  }
  static rows one(std::string s) {
    rows r;
    r.push_back(make(std::move(s)));
    return r;
  }
  static std::string spaces(std::int64_t n) { return std::string(n > 0 ? static_cast<std::size_t>(n) : 0, ' '); }

  // Leading / trailing spaces (all of it for a blank row, as Python counts).
  static std::int64_t lead(const row& r) {
    std::size_t k = r.off;
    while (k != r.s.size() && r.s[k] == ' ') ++k;
    return r.pad + static_cast<std::int64_t>(k - r.off);
  }
  static std::int64_t trail(const row& r) {
    std::size_t k = r.s.size();
    while (k != r.off && r.s[k - 1] == ' ') --k;
    const auto in_s = static_cast<std::int64_t>(r.s.size() - k);
    return k == r.off ? in_s + r.pad : in_s;
  }
  static void cut_leading(row& r, std::int64_t n) {  // n <= lead(r)
    const std::int64_t from_pad = std::min(n, r.pad);
    r.pad -= from_pad;
    r.off += static_cast<std::size_t>(n - from_pad);
    r.w -= n;
  }
  static void cut_trailing(row& r, std::int64_t n) {  // n <= trail(r)
    const auto in_s = static_cast<std::int64_t>(r.s.size() - r.off);
    const std::int64_t from_s = std::min(n, in_s);
    r.s.resize(r.s.size() - static_cast<std::size_t>(from_s));
    r.pad -= n - from_s;
    r.w -= n;
  }
  static void pad_right(row& r, std::int64_t n) {
    if (r.pad && r.off == r.s.size()) {  // blank so far: keep it as padding
      r.pad += n;
    } else {
      r.s.append(static_cast<std::size_t>(n), ' ');
    }
    r.w += n;
  }
  // Appends b to a, after `gap` spaces.
  static void append(row& a, std::int64_t gap, const row& b) {
    if (a.off == a.s.size()) {  // a is blank: its spaces and the gap become b's padding
      const std::int64_t p = a.pad + gap + b.pad;
      a.s.assign(b.s, b.off, std::string::npos);
      a.off = 0;
      a.pad = p;
    } else {
      a.s.append(static_cast<std::size_t>(gap + b.pad), ' ');
      a.s.append(b.s, b.off, std::string::npos);
    }
    a.w += gap + b.w;
  }

  // a above b, every row padded to the widest (on the right when `left`, else on the left).
  static rows concat(rows a, rows b, bool left) {
    for (auto& r : b) a.push_back(std::move(r));
    std::int64_t w = 0;
    for (const auto& r : a) w = std::max(w, r.w);
    for (auto& r : a) {
      const std::int64_t pad = w - r.w;
      if (pad <= 0) continue;
      if (left) {
        pad_right(r, pad);
      } else {
        r.pad += pad;
        r.w += pad;
      }
    }
    return a;
  }

  // r glued to the right of l: `first` columns of padding wanted between their first rows, at
  // least `min` between the other rows they share; a positive inset eats padding on either side.
  // (l is taken by value and extended in place: a long list is glued element by element.)
  static rows fit(rows l, const rows& r, std::int64_t first, std::int64_t min) {
    std::int64_t inset = trail(l[0]) + lead(r[0]) - first;
    const std::size_t common = std::min(l.size(), r.size());
    for (std::size_t k = 1; k < common; ++k) inset = std::min(inset, trail(l[k]) + lead(r[k]) - min);
    const std::size_t left_height = l.size();
    for (std::size_t k = 0; k != common; ++k) {
      row& a = l[k];
      row b = r[k];
      if (inset > 0) {
        std::int64_t cut = 0;
        if (const std::int64_t tp = trail(a); tp > 0) {
          cut = std::min(tp, inset);
          cut_trailing(a, cut);
        }
        if (inset - cut > 0) {
          if (const std::int64_t lp = lead(b); lp > 0) cut_leading(b, std::min(lp, inset - cut));
        }
      }
      append(a, inset < 0 ? -inset : 0, b);
    }
    for (std::size_t k = common; k < r.size(); ++k) l.push_back(r[k]);
    std::int64_t lo = -1, hi = 0;
    for (const auto& x : l) {
      hi = std::max(hi, x.w);
      lo = lo < 0 ? x.w : std::min(lo, x.w);
    }
    if (lo != hi) {
      const bool left = left_height > r.size();
      for (auto& x : l) {
        const std::int64_t pad = hi - x.w;
        if (pad <= 0) continue;
        if (left) {
          pad_right(x, pad);
        } else {
          x.pad += pad;
          x.w += pad;
        }
      }
    }
    return l;
  }

  // `[name=a, b, ...]` of struct elements or block locals.
  rows list(std::uint32_t i) const {
    const block_node& n = t_.node(i);
    rows lines = one("[");
    for (std::uint32_t k = 0; k != n.count; ++k) {
      const block_elem& e = t_.elem(i, k);
      rows c = draw(e.value);
      if (e.name_len || n.kind == block_kind::block) c = fit(one(std::string(t_.name(e)) + "="), c, 0, 0);
      if (k == 0) {
        lines = fit(std::move(lines), c, 0, 0);
      } else {
        lines = fit(std::move(lines), one(","), 0, 0);
        lines = fit(std::move(lines), c, 1, 4);
      }
    }
    return fit(std::move(lines), one("]"), 0, 0);
  }

  std::string node_label(std::uint32_t i) const {
    const block_node& n = t_.node(i);
    switch (n.kind) {
      case block_kind::block: return std::string(label::block);
      case block_kind::call: return std::string(label::call);
      case block_kind::struct_: return std::string(label::struct_);
      case block_kind::placement: return std::string(label::placement);
      case block_kind::intrinsic: return std::string(t_.text(i));
      case block_kind::reference: return wrapped(label::ref, t_.text(i));
      case block_kind::selection: return wrapped(label::selection, std::to_string(n.index));
      case block_kind::lambda: {
        const std::string_view p = t_.text(i);
        return wrapped(label::lambda, p.empty() ? label::no_parameter : p);
      }
      case block_kind::literal:
      case block_kind::tensorflow:
      case block_kind::xla:
      case block_kind::data: {
        text_sink count{};
        put_leaf(i, count);
        std::string out(count.n, '\0');
        text_sink s{out.data()};
        put_leaf(i, s);
        return out;
      }
    }
    return {};
  }
  static std::string wrapped(std::string_view open, std::string_view inner) {
    std::string out(open);
    out += inner;
    out += label::close;
    return out;
  }
  void put_leaf(std::uint32_t i, text_sink& s) const {
    const block_node& n = t_.node(i);
    if (n.kind == block_kind::literal) {
      put_literal_label(literal_of(tree_access::pool(t_), tree_access::pool(t_).lits[n.b]), s);
    } else {
      put_opaque_label(t_, i, s, true);
    }
  }

  const computation_tree& t_;
};

}  // namespace detail

// Python's structural_representation() of the tree (or of the subtree at `node`).
inline std::string structural(const computation_tree& t, std::uint32_t node = no_index) {
  return detail::tree_drawer(t).text(node == no_index ? t.root : node, false);
}

}  // namespace ctff
