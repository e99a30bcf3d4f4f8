// Call-dominant form and the passes that come with it, as TFF's compiler defines them
// (transformations.to_call_dominant, tree_transformations.uniquify_reference_names,
// remove_unused_block_locals, remove_mapped_or_applied_identity, normalize_types): every call of an
// intrinsic or compiled computation bound once, in order, to a local of the nearest enclosing
// Lambda's Block; called Lambdas inlined, Blocks flattened, selections from Structs resolved.
//   bound names: every Lambda parameter and Block local named once in the whole tree
//   (uniquify_reference_names; free names stay as they are).
// The public functions work on computation trees (a tree in, the rewritten tree out); the passes
// proper (ctff::detail) work on building blocks (forms/building_block.hpp, forms/block_traversal.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/block_traversal.hpp"
#include "ctff/forms/block_wire.hpp"
#include "ctff/forms/building_block.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff {
namespace detail {

// Gives every bound name its own (uniquify_reference_names): a binding keeps its name unless an
// earlier binding has it; with rename_all every binding gets a fresh one. References follow their
// bindings; free references are left alone.
class uniquifier {
 public:
  uniquifier(form_context& c, bool rename_all) : c_(c), rename_all_(rename_all) {}

  bb run(const bb& n) {
    depth_guard g(c_.depth);
    switch (n->kind) {
      case block_kind::reference: {
        for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
          if (it->first == n->text) {
            if (it->second == n->text) return n;
            return c_.reference(it->second, n->type);
          }
        return n;
      }
      case block_kind::selection: {
        bb s = run(n->a);
        return s == n->a ? n : c_.selection(s, n->index);
      }
      case block_kind::struct_: {
        std::vector<bb_elem> e;
        bool changed = false;
        for (const auto& x : n->elems) {
          e.push_back({x.name, run(x.value)});
          changed = changed || e.back().value != x.value;
        }
        return changed ? c_.struct_(std::move(e)) : n;
      }
      case block_kind::call: {
        bb f = run(n->a);
        bb a = n->b ? run(n->b) : bb();
        return f == n->a && a == n->b ? n : c_.call(f, a);
      }
      case block_kind::lambda: {
        if (n->text.empty()) {
          bb r = run(n->a);
          return r == n->a ? n : c_.lambda(n->text, n->param_type, r);
        }
        const std::string name = bind(n->text);
        scope_.emplace_back(n->text, name);
        bb r = run(n->a);
        scope_.pop_back();
        return r == n->a && name == n->text ? n : c_.lambda(name, n->param_type, r);
      }
      case block_kind::block: {
        std::vector<bb_elem> e;
        bool changed = false;
        const std::size_t depth = scope_.size();
        for (const auto& x : n->elems) {
          bb v = run(x.value);
          const std::string name = bind(x.name);
          scope_.emplace_back(x.name, name);
          changed = changed || v != x.value || name != x.name;
          e.push_back({name, v});
        }
        bb r = run(n->a);
        scope_.resize(depth);
        return changed || r != n->a ? c_.block(std::move(e), r) : n;
      }
      default:
        return n;
    }
  }

 private:
  std::string bind(const std::string& name) {
    std::string out = rename_all_ || used_.count(name) ? c_.fresh_name() : name;
    used_.insert(out);
    return out;
  }

  form_context& c_;
  bool rename_all_;
  std::set<std::string> used_;
  std::vector<std::pair<std::string, std::string>> scope_;  // (old name, new name), innermost last
};

inline bb uniquify_names(form_context& c, const bb& n, bool rename_all = false) {
  return uniquifier(c, rename_all).run(n);
}

// Drops the Block locals that the result does not need, and a Block left without locals.
inline bb remove_unused_locals(form_context& c, const bb& n) {
  return transform_postorder(c, n, [&c](const bb& x) -> bb_change {
           if (x->kind != block_kind::block) return {x, false};
           std::set<std::string> used = free_names(c, x->a);
           if (used.empty() || x->elems.empty()) return {x->a, true};
           std::vector<bb_elem> kept;
           for (auto it = x->elems.rbegin(); it != x->elems.rend(); ++it) {
             if (!used.count(it->name)) continue;
             kept.push_back(*it);
             used.merge(free_names(c, it->value));
             used.erase(it->name);
           }
           if (kept.size() == x->elems.size()) return {x, false};
           if (kept.empty()) return {x->a, true};
           return {c.block(std::vector<bb_elem>(kept.rbegin(), kept.rend()), x->a), true};
         })
      .node;
}

inline bool is_identity_lambda(const bb& f) {
  return f->kind == block_kind::lambda && f->a->kind == block_kind::reference &&
         !f->text.empty() && f->a->text == f->text;
}

// `federated_map(<(x -> x), v>)` (and apply, map_all_equal, sequence_map) becomes `v`.
inline bb remove_mapped_identity(form_context& c, const bb& n) {
  return transform_postorder(c, n, [](const bb& x) -> bb_change {
           if (x->kind != block_kind::call || x->a->kind != block_kind::intrinsic) return {x, false};
           const std::string& uri = x->a->text;
           if (intrinsic_facts_of(uri).kind != intrinsic_kind::map) return {x, false};
           if (!x->b || x->b->kind != block_kind::struct_ || x->b->elems.size() < 2)
             throw form_error("map_argument", "",
                              "the argument of " + uri + " is not written as a struct of its two parts");
           if (!is_identity_lambda(x->b->elems[0].value)) return {x, false};
           return {x->b->elems[1].value, true};
         })
      .node;
}

// normalize_types with normalize_all_equal_bit false: the types stay as they are, but every
// Reference becomes a node of its own (as Python builds a new one for each).
inline bb renew_references(form_context& c, const bb& n) {
  return transform_postorder(c, n, [&c](const bb& x) -> bb_change {
           if (x->kind == block_kind::reference) return {c.reference(x->text, x->type), true};
           if (x->kind == block_kind::lambda)
             return {c.lambda(x->text, x->param_type, x->a), true};
           return {x, false};
         })
      .node;
}

// to_call_dominant's name resolution scopes.
class cdf_scope {
 public:
  cdf_scope(cdf_scope* parent, bool bind_to_parent) : parent_(parent), own_(!bind_to_parent) {}

  bb resolve(const std::string& name) const {
    for (const cdf_scope* s = this; s; s = s->parent_) {
      auto it = s->locals_.find(name);
      if (it != s->locals_.end()) return it->second;
    }
    return nullptr;
  }
  void add_local(const std::string& name, bb value) { locals_[name] = std::move(value); }
  bb create_binding(form_context& c, const bb& value) {
    cdf_scope* s = this;
    while (!s->own_) s = s->parent_;
    std::string name = c.fresh_name();
    s->bound_.push_back({name, value});
    bb ref = c.reference(name, value->type);
    s->locals_[name] = ref;
    return ref;
  }
  bb block_with(form_context& c, const bb& result) {
    if (bound_.empty()) return result;
    return c.block(std::move(bound_), result);
  }

 private:
  cdf_scope* parent_;
  bool own_;
  std::vector<bb_elem> bound_;
  std::map<std::string, bb> locals_;
};

inline bb cdf_build(form_context& c, const bb& n, cdf_scope& scope) {
  depth_guard g(c.depth);
  switch (n->kind) {
    case block_kind::reference: {
      bb r = scope.resolve(n->text);
      return r ? r : n;
    }
    case block_kind::selection: {
      bb s = cdf_build(c, n->a, scope);
      if (s->kind == block_kind::struct_) {
        if (n->index < 0 || static_cast<std::size_t>(n->index) >= s->elems.size())
          throw form_error("type_mismatch", "", "a selection out of range of its struct");
        return s->elems[static_cast<std::size_t>(n->index)].value;
      }
      return c.selection(s, n->index);
    }
    case block_kind::struct_: {
      std::vector<bb_elem> e;
      for (const auto& x : n->elems) e.push_back({x.name, cdf_build(c, x.value, scope)});
      return c.struct_(std::move(e));
    }
    case block_kind::call: {
      bb f = cdf_build(c, n->a, scope);
      bb a = n->b ? cdf_build(c, n->b, scope) : bb();
      if (f->kind == block_kind::lambda) {
        if (a) {
          cdf_scope child(&scope, true);
          child.add_local(f->text, a);
          return cdf_build(c, f->a, child);
        }
        return cdf_build(c, f->a, scope);
      }
      return scope.create_binding(c, c.call(f, a));
    }
    case block_kind::lambda: {
      cdf_scope child(&scope, false);
      if (!n->text.empty()) child.add_local(n->text, c.reference(n->text, n->param_type));
      bb r = cdf_build(c, n->a, child);
      return c.lambda(n->text, n->param_type, child.block_with(c, r));
    }
    case block_kind::block: {
      cdf_scope child(&scope, true);
      for (const auto& x : n->elems) child.add_local(x.name, cdf_build(c, x.value, child));
      return cdf_build(c, n->a, child);
    }
    default:
      return n;
  }
}

// How many building blocks the node stands for once written out (a node used twice counts
// twice), up to `limit` (then limit + 1).
inline std::uint64_t expanded_size(form_context& c, const bb& n, std::uint64_t limit) {
  std::map<const bb_node*, std::uint64_t> memo;
  std::function<std::uint64_t(const bb&)> size = [&](const bb& x) -> std::uint64_t {
    if (!x) return 0;
    depth_guard g(c.depth);
    auto it = memo.find(x.get());
    if (it != memo.end()) return it->second;
    std::uint64_t s = 1 + size(x->a) + size(x->b);
    for (const auto& e : x->elems) {
      s += size(e.value);
      if (s > limit) break;
    }
    if (s > limit) s = limit + 1;
    memo[x.get()] = s;
    return s;
  };
  return size(n);
}

// Inlining can make a small tree exponentially large (a local used twice, bound to a struct of
// the one before it, and so on): past this many building blocks, the passes stop.
inline constexpr std::uint64_t max_form_blocks = std::uint64_t{1} << 21;

// transformations.to_call_dominant.
inline bb to_call_dominant(form_context& c, const bb& n) {
  cdf_scope top(nullptr, false);
  bb r = cdf_build(c, n, top);
  r = top.block_with(c, r);
  if (expanded_size(c, r, max_form_blocks) > max_form_blocks)
    throw form_error("size_limit", "",
                     "in call-dominant form the computation has more than " +
                         std::to_string(max_form_blocks) + " building blocks");
  r = uniquify_names(c, r);
  return remove_unused_locals(c, r);
}

inline void check_closed(form_context& c, const bb& n, const char* what) {
  auto names = free_names(c, n);
  if (names.empty()) return;
  throw form_error("unbound_references", "",
                   std::string(what) + " refers to `" + *names.begin() + "`, which it does not bind");
}

// transformations.get_normalized_call_dominant_lambda (all_equal bits left alone): a Lambda in
// call-dominant form whose result is a Block.
inline bb normalized_call_dominant_lambda(form_context& c, const bb& lam) {
  if (lam->kind != block_kind::lambda)
    throw form_error("round_lambda", "", "expected a lambda");
  bb n = remove_mapped_identity(c, lam);
  n = to_call_dominant(c, n);
  if (n->kind != block_kind::lambda) {
    if (n->kind != block_kind::block || n->a->kind != block_kind::lambda)
      throw form_error("round_lambda", "", "call-dominant form did not give a lambda");
    const bb& inner = n->a;
    std::vector<bb_elem> locals = n->elems;
    bb result = inner->a;
    if (result->kind == block_kind::block) {
      for (const auto& x : result->elems) locals.push_back(x);
      result = result->a;
    }
    n = c.lambda(inner->text, inner->param_type, c.block(std::move(locals), result));
  }
  if (n->a->kind != block_kind::block) n = c.lambda(n->text, n->param_type, c.block({}, n->a));
  n = renew_references(c, n);
  check_closed(c, n, "the call-dominant lambda");
  return n;
}

}  // namespace detail

// The tree in call-dominant form (TFF's transformations.to_call_dominant): compact text and bytes as
// TFF's, up to the names of the bindings it makes.
inline computation_tree to_call_dominant(const computation_tree& t) {
  detail::form_context c(t.types);
  return detail::to_tree(c, detail::to_call_dominant(c, detail::from_tree(c, t)));
}

// The tree with every bound name unique (TFF's tree_transformations.uniquify_reference_names).
inline computation_tree uniquify_reference_names(const computation_tree& t) {
  detail::form_context c(t.types);
  return detail::to_tree(c, detail::uniquify_names(c, detail::from_tree(c, t)));
}

}  // namespace ctff
