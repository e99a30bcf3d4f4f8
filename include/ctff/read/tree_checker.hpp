// The walk that checks a computation tree, node by node, against the rules listed in
// read/checker.hpp (`tree_checker`), collecting every error with its path from the root.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/read/check_error.hpp"
#include "ctff/read/intrinsic_signatures.hpp"
#include "ctff/read/name_scope.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/type_rules.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/instance.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/signatures.hpp"

namespace ctff::detail {

// Copies type node i of `from` (and its subtree) into `to`, in describe()'s layout.
inline std::uint32_t copy_type(const type_desc& from, std::uint32_t i, type_desc& to) {
  const type_node& n = from.node(i);
  std::vector<std::uint32_t> kids;
  kids.reserve(n.kid_count);
  for (std::uint32_t k = 0; k != n.kid_count; ++k) kids.push_back(copy_type(from, from.kid(i, k), to));
  for (std::uint32_t k = 0; k != n.kid_count; ++k)
    if (auto nm = from.name(from.kid(i, k)); !nm.empty()) to.set_name(kids[k], nm);
  type_node c = n;
  c.name_begin = c.name_len = 0;
  c.kid_begin = static_cast<std::uint32_t>(to.kids.size());
  for (auto k : kids) to.kids.push_back(k);
  c.dim_begin = static_cast<std::uint32_t>(to.dims.size());
  for (std::uint32_t k = 0; k != n.dim_count; ++k) to.dims.push_back(from.dims[n.dim_begin + k]);
  if (n.label_len) {
    c.label_begin = to.add_chars(from.label(i));
  }
  return to.add(c);
}

class tree_checker {
 public:
  tree_checker(const computation_tree& t, std::size_t max_errors) : t_(t), max_(max_errors) {}

  std::vector<check_error> run() {
    if (t_.root != no_index) node(t_.root);
    return std::move(errors_);
  }

 private:
  void error(std::string problem) {
    if (errors_.size() < max_) errors_.push_back(check_error{path_string(path_), std::move(problem)});
  }
  std::string type_text(std::uint32_t i) const {
    if (i == no_index) return "(no type)";
    return detail::type_text(t_.types, i);
  }
  bool equivalent(std::uint32_t a, std::uint32_t b) const {
    return assignable(t_.types, a, t_.types, b) && assignable(t_.types, b, t_.types, a);
  }
  const type_node& tn(std::uint32_t i) const { return t_.types.node(i); }

  void child(std::uint32_t i, const char* what, std::int64_t index = -1, std::string_view name = {}) {
    path_.push_back(path_frame{what, index, name});
    node(i);
    path_.pop_back();
  }

  // Declared type of node i must be equivalent to `given` (what its children give).
  void same(std::uint32_t declared, std::uint32_t given, const char* what) {
    if (declared == no_index || given == no_index) return;
    if (!equivalent(declared, given))
      error(std::string("the declared type ") + type_text(declared) + " does not match " + what +
            " " + type_text(given));
  }

  void node(std::uint32_t i) {
    const block_node& n = t_.node(i);
    const std::uint32_t ty = n.type;
    if (ty == no_index) {
      error("the " + std::string(block_kind_name(n.kind)) + " has no type (Computation.type is missing)");
    } else {
      path_.push_back(path_frame{"type", -1, {}});
      type_rules(ty);
      path_.pop_back();
    }
    switch (n.kind) {
      case block_kind::reference: reference(i, ty); return;
      case block_kind::selection: selection(i, ty); return;
      case block_kind::struct_: struct_(i, ty); return;
      case block_kind::call: call(i, ty); return;
      case block_kind::lambda: lambda(i, ty); return;
      case block_kind::block: block(i, ty); return;
      case block_kind::intrinsic: intrinsic(i, ty); return;
      case block_kind::placement: placement(i, ty); return;
      case block_kind::literal: literal(i, ty); return;
      case block_kind::tensorflow:
      case block_kind::xla:
        if (ty != no_index && tn(ty).kind != type_kind::function)
          error("a compiled computation (" + std::string(block_kind_name(n.kind)) + ") has type " + type_text(ty) +
                "; it must be a function type");
        return;
      case block_kind::data:
        return;
    }
  }

  // The type system's own rules on type node i (read/type_rules.hpp), every violation an error.
  void type_rules(std::uint32_t i) {
    check_type_rules(t_.types, i, path_, /*abstract_allowed=*/false,
                     [this](std::string problem) { error(std::move(problem)); });
  }


  void reference(std::uint32_t i, std::uint32_t ty) {
    const std::string_view name = t_.text(i);
    if (const std::uint32_t* bound = scope_.find(name)) {
      if (ty != no_index && *bound != no_index && !equivalent(ty, *bound))
        error("Reference `" + std::string(name) + "` has type " + type_text(ty) + " but what it names has type " +
              type_text(*bound));
      return;
    }
    error("Reference `" + std::string(name) +
          "` does not name an enclosing Lambda parameter or an earlier local of an enclosing Block");
  }

  void selection(std::uint32_t i, std::uint32_t ty) {
    const block_node& n = t_.node(i);
    child(n.a, "selection.source");
    const std::uint32_t st = t_.node(n.a).type;
    if (st == no_index) return;
    if (tn(st).kind != type_kind::struct_) {
      error("Selection from a value of type " + type_text(st) + "; the source must be a struct");
      return;
    }
    if (n.index < 0 || static_cast<std::uint32_t>(n.index) >= tn(st).kid_count) {
      error("Selection index " + std::to_string(n.index) + " is out of range for " + type_text(st) + " (" +
            std::to_string(tn(st).kid_count) + " elements)");
      return;
    }
    same(ty, t_.types.kid(st, static_cast<std::uint32_t>(n.index)), "the selected element's type");
  }

  void struct_(std::uint32_t i, std::uint32_t ty) {
    const block_node& n = t_.node(i);
    for (std::uint32_t k = 0; k != n.count; ++k) {
      const block_elem& e = t_.elem(i, k);
      child(e.value, "struct", k, t_.name(e));
    }
    if (ty == no_index) return;
    if (tn(ty).kind != type_kind::struct_ || tn(ty).kid_count != n.count) {
      error("the declared type " + type_text(ty) + " is not a struct type of " + std::to_string(n.count) +
            " elements");
      return;
    }
    for (std::uint32_t k = 0; k != n.count; ++k) {
      const block_elem& e = t_.elem(i, k);
      const std::uint32_t et = t_.types.kid(ty, k);
      if (t_.types.name(et) != t_.name(e)) {
        error("element " + std::to_string(k) + " is named `" + std::string(t_.name(e)) + "` but the declared type " +
              type_text(ty) + " names it `" + std::string(t_.types.name(et)) + "`");
        continue;
      }
      const std::uint32_t vt = t_.node(e.value).type;
      if (vt != no_index && !equivalent(et, vt))
        error("element " + std::to_string(k) + " has type " + type_text(vt) + " but the declared type " +
              type_text(ty) + " gives it " + type_text(et));
    }
  }

  void call(std::uint32_t i, std::uint32_t ty) {
    const block_node& n = t_.node(i);
    child(n.a, "call.function");
    if (n.b != no_index) child(n.b, "call.argument");
    const std::uint32_t ft = t_.node(n.a).type;
    if (ft == no_index) return;
    if (tn(ft).kind != type_kind::function) {
      error("Call of a value of type " + type_text(ft) + ", not a function");
      return;
    }
    const bool has_param = tn(ft).has_param;
    if (has_param && n.b == no_index)
      error("Call without an argument of a function of type " + type_text(ft) + ", which takes one");
    if (!has_param && n.b != no_index)
      error("Call with an argument of a function of type " + type_text(ft) + ", which takes none");
    if (has_param && n.b != no_index) {
      const std::uint32_t at = t_.node(n.b).type;
      const std::uint32_t pt = t_.types.kid(ft, 0);
      if (at != no_index && !assignable(t_.types, pt, t_.types, at))
        error("the argument of type " + type_text(at) + " is not assignable to the parameter type " +
              type_text(pt) + " of the function");
    }
    same(ty, t_.types.kid(ft, has_param ? 1 : 0), "the function's result type");
  }

  void lambda(std::uint32_t i, std::uint32_t ty) {
    const block_node& n = t_.node(i);
    const std::string_view param = t_.text(i);
    std::uint32_t pt = no_index;
    bool fn = ty != no_index && tn(ty).kind == type_kind::function;
    if (ty != no_index && !fn) error("the declared type " + type_text(ty) + " of a Lambda is not a function type");
    if (fn) {
      if (tn(ty).has_param && param.empty())
        error("the Lambda has no parameter name but its type " + type_text(ty) + " has a parameter");
      else if (!tn(ty).has_param && !param.empty())
        error("the Lambda names parameter `" + std::string(param) + "` but its type " + type_text(ty) +
              " has none");
      if (tn(ty).has_param) pt = t_.types.kid(ty, 0);
    }
    const std::size_t mark = scope_.size();
    if (!param.empty()) scope_.push(param, pt);
    child(n.a, "lambda.result");
    scope_.pop_to(mark);
    if (fn) same(t_.types.kid(ty, tn(ty).has_param ? 1 : 0), t_.node(n.a).type, "the result's type");
  }

  void block(std::uint32_t i, std::uint32_t ty) {
    const block_node& n = t_.node(i);
    const std::size_t mark = scope_.size();
    for (std::uint32_t k = 0; k != n.count; ++k) {
      const block_elem& e = t_.elem(i, k);
      child(e.value, "block.local", k, t_.name(e));
      scope_.push(t_.name(e), t_.node(e.value).type);
    }
    child(n.a, "block.result");
    scope_.pop_to(mark);
    same(ty, t_.node(n.a).type, "the result's type");
  }

  void intrinsic(std::uint32_t i, std::uint32_t ty) {
    const std::string_view uri = t_.text(i);
    for (const auto& s : intrinsic_signatures()) {
      if (s.uri != uri) continue;
      if (ty == no_index) return;
      type_desc concrete;
      concrete.root = copy_type(t_.types, ty, concrete);
      if (!is_concrete_instance(concrete, s.type))
        error("intrinsic `" + std::string(uri) + "` has type " + type_text(ty) +
              ", which is not an instance of its signature " + to_string(s.type));
      return;
    }
    error("unknown intrinsic `" + std::string(uri) + "`");
  }

  void placement(std::uint32_t i, std::uint32_t ty) {
    const std::string_view uri = t_.text(i);
    if (uri != "clients" && uri != "server")
      error("unknown placement URI `" + std::string(uri) + "`; federated_language knows `clients` and `server`");
    if (ty != no_index && tn(ty).kind != type_kind::placement)
      error("a Placement of type " + type_text(ty) + "; its type must be `placement`");
  }

  void literal(std::uint32_t i, std::uint32_t ty) {
    if (ty == no_index) return;
    const lit& l = tree_access::pool(t_).lits[t_.node(i).b];
    const type_node& n = tn(ty);
    bool ok = n.kind == type_kind::tensor && n.dt == l.dt && !n.unknown_rank && n.dim_count == l.dim_count;
    for (std::uint32_t k = 0; ok && k != l.dim_count; ++k)
      ok = t_.types.dims[n.dim_begin + k] == tree_access::pool(t_).dims[l.dim_begin + k];
    if (ok) return;
    std::string shape = std::string(dtype_name(l.dt));
    if (l.dim_count) {
      shape += '[';
      for (std::uint32_t k = 0; k != l.dim_count; ++k) {
        if (k) shape += ',';
        shape += std::to_string(tree_access::pool(t_).dims[l.dim_begin + k]);
      }
      shape += ']';
    }
    error("a Literal of declared type " + type_text(ty) + " holds an array of " + shape);
  }

  const computation_tree& t_;
  std::size_t max_;
  std::vector<check_error> errors_;
  std::vector<path_frame> path_;
  name_scope<std::uint32_t> scope_;  // each name's type (no_index: the binder has none usable)
};

}  // namespace ctff::detail
