// Walks over building blocks (forms/building_block.hpp), as federated_language's
// transformation_utils walks its own: transforms in postorder and preorder that rebuild only what
// changed, a preorder visit, and the names a tree binds or leaves free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/forms/building_block.hpp"

namespace ctff::detail {

// What a transform returns: the node (changed or not) and whether it changed.
struct bb_change {
  bb node;
  bool changed = false;
};
using bb_transform = std::function<bb_change(const bb&)>;

// The walk transform_elems applies: transform_postorder or transform_preorder.
using bb_walk = bb_change (*)(form_context&, const bb&, const bb_transform&);

// A struct's elements or a block's locals, each transformed by `walk` (into `out`); whether one
// changed.
inline bool transform_elems(form_context& c, const bb& n, const bb_transform& f, bb_walk walk,
                            std::vector<bb_elem>& out) {
  bool changed = false;
  for (const auto& x : n->elems) {
    auto v = walk(c, x.value, f);
    changed = changed || v.changed;
    out.push_back({x.name, v.node});
  }
  return changed;
}

// Children first, then the node with its changed children (transform_postorder).
inline bb_change transform_postorder(form_context& c, const bb& n, const bb_transform& f) {
  depth_guard g(c.depth);
  switch (n->kind) {
    case block_kind::selection: {
      auto s = transform_postorder(c, n->a, f);
      bb cur = s.changed ? c.selection(s.node, n->index) : n;
      auto r = f(cur);
      return {r.node, r.changed || s.changed};
    }
    case block_kind::struct_: {
      std::vector<bb_elem> e;
      const bool changed = transform_elems(c, n, f, transform_postorder, e);
      bb cur = changed ? c.struct_(std::move(e)) : n;
      auto r = f(cur);
      return {r.node, r.changed || changed};
    }
    case block_kind::call: {
      auto fn = transform_postorder(c, n->a, f);
      bb_change arg{n->b, false};
      if (n->b) arg = transform_postorder(c, n->b, f);
      bb cur = fn.changed || arg.changed ? c.call(fn.node, arg.node) : n;
      auto r = f(cur);
      return {r.node, r.changed || fn.changed || arg.changed};
    }
    case block_kind::lambda: {
      auto res = transform_postorder(c, n->a, f);
      bb cur = res.changed ? c.lambda(n->text, n->param_type, res.node) : n;
      auto r = f(cur);
      return {r.node, r.changed || res.changed};
    }
    case block_kind::block: {
      std::vector<bb_elem> e;
      const bool changed = transform_elems(c, n, f, transform_postorder, e);
      auto res = transform_postorder(c, n->a, f);
      bb cur = changed || res.changed ? c.block(std::move(e), res.node) : n;
      auto r = f(cur);
      return {r.node, r.changed || changed || res.changed};
    }
    default:
      return f(n);
  }
}

// The node first; a node the transform changes is not descended into (transform_preorder).
inline bb_change transform_preorder(form_context& c, const bb& n0, const bb_transform& f) {
  depth_guard g(c.depth);
  auto first = f(n0);
  if (first.changed) return first;
  const bb& n = first.node;
  switch (n->kind) {
    case block_kind::lambda: {
      auto res = transform_preorder(c, n->a, f);
      if (!res.changed) return {n, false};
      return {c.lambda(n->text, n->param_type, res.node), true};
    }
    case block_kind::struct_: {
      std::vector<bb_elem> e;
      const bool changed = transform_elems(c, n, f, transform_preorder, e);
      if (!changed) return {n, false};
      return {c.struct_(std::move(e)), true};
    }
    case block_kind::selection: {
      auto s = transform_preorder(c, n->a, f);
      if (!s.changed) return {n, false};
      return {c.selection(s.node, n->index), true};
    }
    case block_kind::call: {
      auto fn = transform_preorder(c, n->a, f);
      bb_change arg{n->b, false};
      if (n->b) arg = transform_preorder(c, n->b, f);
      if (!fn.changed && !arg.changed) return {n, false};
      return {c.call(fn.node, arg.node), true};
    }
    case block_kind::block: {
      std::vector<bb_elem> e;
      const bool changed = transform_elems(c, n, f, transform_preorder, e);
      auto res = transform_preorder(c, n->a, f);
      if (!changed && !res.changed) return {n, false};
      return {c.block(std::move(e), res.node), true};
    }
    default:
      return {n, false};
  }
}

// Every node, parents before children (tree_analysis.visit_preorder).
inline void visit_preorder(form_context& c, const bb& n, const std::function<void(const bb&)>& f) {
  depth_guard g(c.depth);
  f(n);
  switch (n->kind) {
    case block_kind::selection:
    case block_kind::lambda:
      visit_preorder(c, n->a, f);
      return;
    case block_kind::call:
      visit_preorder(c, n->a, f);
      if (n->b) visit_preorder(c, n->b, f);
      return;
    case block_kind::struct_:
      for (const auto& x : n->elems) visit_preorder(c, x.value, f);
      return;
    case block_kind::block:
      for (const auto& x : n->elems) visit_preorder(c, x.value, f);
      visit_preorder(c, n->a, f);
      return;
    default:
      return;
  }
}

// The names a node uses without binding them (get_map_of_unbound_references, for one node).
inline std::set<std::string> free_names(form_context& c, const bb& n) {
  depth_guard g(c.depth);
  std::set<std::string> out;
  switch (n->kind) {
    case block_kind::reference:
      out.insert(n->text);
      return out;
    case block_kind::selection:
      return free_names(c, n->a);
    case block_kind::call:
      out = free_names(c, n->a);
      if (n->b) out.merge(free_names(c, n->b));
      return out;
    case block_kind::lambda:
      out = free_names(c, n->a);
      out.erase(n->text);
      return out;
    case block_kind::struct_:
      for (const auto& x : n->elems) out.merge(free_names(c, x.value));
      return out;
    case block_kind::block: {
      std::set<std::string> bound;
      for (const auto& x : n->elems) {
        for (auto& v : free_names(c, x.value))
          if (!bound.count(v)) out.insert(v);
        bound.insert(x.name);
      }
      for (auto& v : free_names(c, n->a))
        if (!bound.count(v)) out.insert(v);
      return out;
    }
    default:
      return out;
  }
}

// Every name bound or used in the node (transformation_utils.get_unique_names).
inline void collect_names(form_context& c, const bb& n, std::set<std::string>& out) {
  visit_preorder(c, n, [&](const bb& x) {
    if (x->kind == block_kind::reference) out.insert(x->text);
    if (x->kind == block_kind::lambda && !x->text.empty()) out.insert(x->text);
    if (x->kind == block_kind::block)
      for (const auto& e : x->elems) out.insert(e.name);
  });
}

}  // namespace ctff::detail
