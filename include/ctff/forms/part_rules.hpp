// The rules each part of a form keeps on its own (forms/form_rules.hpp), in TFF's order
// (DistributeAggregateForm.__init__): first, of every part, part_check, part_lambda,
// part_parameter and unique_names (`lambda_rules`, TFF's _check_lambda_computation); then, part
// after part, parameter_pair, result_pair, server_only and clients_only (`shape_rules`), the
// broadcast and aggregation parts' own rules following (forms/intrinsic_part_rules.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

#include "ctff/forms/form_report.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/name_hash.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/tree_checker.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

// What is known of a part once its own rules are checked: its function type (no_index: the part
// failed a rule that makes its type unusable) and whether its parameter / result are pairs.
struct part_shape {
  std::uint32_t fn = no_index;
  bool param_pair = false, result_pair = false;
};

class part_rules {
 public:
  explicit part_rules(form_report& r) : r_(r) {}

  // Part k (form_part_names' order) as a Lambda of its own; its shape (fn: no_index, unusable).
  part_shape lambda_rules(std::size_t k, const computation_tree& t) {
    const std::string name(form_part_names[k]);
    r_.at_part(k);
    if (t.root == no_index || t.root >= t.nodes.size()) {
      r_.error(form_rule::part_lambda, name, "the part is empty");
      return {};
    }
    bool checked = true;
    for (const check_error& e : ctff::check(t, r_.max_errors())) {
      checked = false;
      r_.error(form_rule::part_check, e.path.empty() ? name : name + "." + e.path, e.problem);
    }
    if (!checked) return {};
    const block_node& root = t.node(t.root);
    if (root.kind != block_kind::lambda) {
      r_.error(form_rule::part_lambda, name, "the part is " + std::string(a_block(root.kind)) + ", not a Lambda");
      return {};
    }
    const std::uint32_t fn = root.type;  // a function type: the checker saw to it
    if (!t.types.node(fn).has_param) {
      r_.error(form_rule::part_parameter, name,
               "the Lambda of type " + part_type_text(t, fn) + " takes no parameter");
      return {};
    }
    bound_.clear();
    bindings(t, t.root);
    return {fn, is_pair(t, t.types.kid(fn, 0)), is_pair(t, t.types.kid(fn, 1))};
  }

  // Part k, of shape s (its fn known), as the form's part k.
  void shape_rules(std::size_t k, const computation_tree& t, const part_shape& s) {
    const std::string name(form_part_names[k]);
    const std::uint32_t fn = s.fn;
    r_.at_part(k);
    if (k == part_at::client_work || k == part_at::aggregation || k == part_at::result) {
      if (!s.param_pair)
        r_.error(form_rule::parameter_pair, name,
                 "the parameter of type " + part_type_text(t, t.types.kid(fn, 0)) +
                     " is not a struct of two elements");
    }
    if (k == part_at::prepare || k == part_at::result) {
      if (!s.result_pair)
        r_.error(form_rule::result_pair, name,
                 "the result of type " + part_type_text(t, t.types.kid(fn, 1)) + " is not a struct of two elements");
    }
    if (k == part_at::prepare || k == part_at::result) placed(t, placement_kind::server, form_rule::server_only);
    if (k == part_at::client_work) placed(t, placement_kind::clients, form_rule::clients_only);
  }

 private:
  static bool is_pair(const computation_tree& t, std::uint32_t ty) {
    const type_node& n = t.types.node(ty);
    return n.kind == type_kind::struct_ && n.kid_count == 2;
  }

  // unique_names: every Lambda parameter and Block local in preorder, each name once.
  void bindings(const computation_tree& t, std::uint32_t i) {
    const block_node& n = t.node(i);
    switch (n.kind) {
      case block_kind::lambda:
        if (n.text_len) bind(t.text(i));
        child(t, n.a, "lambda.result");
        return;
      case block_kind::block:
      case block_kind::struct_: {
        const bool block = n.kind == block_kind::block;  // (its locals bind their names)
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& e = t.elem(i, k);
          r_.frames.push_back(path_frame{block ? "block.local" : "struct", k, t.name(e)});
          if (block) bind(t.name(e));
          bindings(t, e.value);
          r_.frames.pop_back();
        }
        if (block) child(t, n.a, "block.result");
        return;
      }
      case block_kind::call:
        child(t, n.a, "call.function");
        if (n.b != no_index) child(t, n.b, "call.argument");
        return;
      case block_kind::selection:
        child(t, n.a, "selection.source");
        return;
      default: return;
    }
  }
  void child(const computation_tree& t, std::uint32_t i, const char* what) {
    r_.frames.push_back(path_frame{what, -1, {}});
    bindings(t, i);
    r_.frames.pop_back();
  }
  void bind(std::string_view name) {
    if (!bound_.insert(name).second)
      r_.error(form_rule::unique_names, r_.here(), "`" + std::string(name) + "` is bound a second time in the part");
  }

  // Every building block below i, innermost first (as TFF's visit_postorder), with its path in the
  // frames, until `visit` returns false.
  template <class F>
  bool walk(const computation_tree& t, std::uint32_t i, F& visit) {
    const block_node& n = t.node(i);
    auto into = [&](std::uint32_t c, const char* what, std::int64_t index = -1, std::string_view nm = {}) {
      r_.frames.push_back(path_frame{what, index, nm});
      const bool more = walk(t, c, visit);
      r_.frames.pop_back();
      return more;
    };
    switch (n.kind) {
      case block_kind::lambda:
        if (!into(n.a, "lambda.result")) return false;
        break;
      case block_kind::block:
      case block_kind::struct_: {
        const bool block = n.kind == block_kind::block;
        for (std::uint32_t k = 0; k != n.count; ++k)
          if (!into(t.elem(i, k).value, block ? "block.local" : "struct", k, t.name(t.elem(i, k)))) return false;
        if (block && !into(n.a, "block.result")) return false;
        break;
      }
      case block_kind::call:
        if (!into(n.a, "call.function")) return false;
        if (n.b != no_index && !into(n.b, "call.argument")) return false;
        break;
      case block_kind::selection:
        if (!into(n.a, "selection.source")) return false;
        break;
      default: break;
    }
    return visit(i);
  }

  // server_only / clients_only: the first building block (innermost first) whose own type is
  // federated and placed elsewhere.
  void placed(const computation_tree& t, placement_kind where, form_rule rule) {
    r_.frames.resize(1);
    auto visit = [&](std::uint32_t i) {
      const block_node& n = t.node(i);
      const type_node& ty = t.types.node(n.type);
      if (ty.kind != type_kind::federated || ty.where == where) return true;
      r_.error(rule, r_.here(),
               std::string(a_block(n.kind)) + " of type " + part_type_text(t, n.type) + " in a part that runs " +
                   (where == placement_kind::server ? "on the server (SERVER values only)"
                                                    : "on the clients (CLIENTS values only)"));
      return false;
    };
    walk(t, t.root, visit);
  }

  form_report& r_;
  std::unordered_set<std::string_view, name_hash> bound_;
};

}  // namespace ctff::detail
