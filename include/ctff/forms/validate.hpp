// Checking that five computations are a DistributeAggregateForm: each part passes ctff's checker,
// then the rules of forms/form_rules.hpp (TFF's, forms.py) on each part and between the parts.
// Every error names its rule, the part and the building block, as the checker spells paths
// (`client_to_server_aggregation.lambda.result.block.local[0](_v3).call.argument`); an error about
// how two parts fit is located at the part that receives (`server_to_client_broadcast`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ctff/forms/aggregate_function_rule.hpp"
#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/name_hash.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/tree_checker.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/instance.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/signatures.hpp"

namespace ctff {
namespace detail {

template <std::size_t N>
bool listed(const std::string_view (&list)[N], std::string_view s) {
  for (std::string_view x : list)
    if (x == s) return true;
  return false;
}

class form_validator {
 public:
  form_validator(const distribute_aggregate_form& f, const type_desc* round, std::size_t max_errors)
      : parts_{&f.server_prepare, &f.server_to_client_broadcast, &f.client_work, &f.client_to_server_aggregation,
               &f.server_result},
        round_(round),
        max_(max_errors) {}

  std::vector<form_error> run() {
    for (std::size_t k = 0; k != parts_.size(); ++k) part(k);
    links();
    return std::move(errors_);
  }

 private:
  enum : std::size_t { prepare, broadcast, client_work, aggregation, result };

  // What is known of a part once its own rules are checked: its function type (no_index: the part
  // failed a rule that makes its type unusable) and whether its parameter / result are pairs.
  struct shape {
    std::uint32_t fn = no_index;
    bool param_pair = false, result_pair = false;
  };

  bool full() const { return errors_.size() >= max_; }
  void error(form_rule r, std::string path, std::string problem) {
    if (!full()) errors_.emplace_back(std::string(rule_name(r)), std::move(path), std::move(problem));
  }
  std::string here() const { return path_string(frames_); }

  const computation_tree& tree(std::size_t k) const { return *parts_[k]; }
  std::string type_text(const computation_tree& t, std::uint32_t ty) const {
    return ty == no_index ? std::string("(no type)") : detail::type_text(t.types, ty);
  }

  // ---- one part ----------------------------------------------------------------------------
  void part(std::size_t k) {
    const computation_tree& t = tree(k);
    const std::string name(form_part_names[k]);
    frames_.assign(1, path_frame{form_part_names[k].data(), -1, {}});
    if (t.root == no_index || t.root >= t.nodes.size()) {
      error(form_rule::part_lambda, name, "the part is empty");
      return;
    }
    bool checked = true;
    for (const check_error& e : check(t, max_)) {
      checked = false;
      error(form_rule::part_check, e.path.empty() ? name : name + "." + e.path, e.problem);
    }
    if (!checked) return;
    const block_node& root = t.node(t.root);
    if (root.kind != block_kind::lambda) {
      error(form_rule::part_lambda, name,
            "the part is " + std::string(a_block(root.kind)) + ", not a Lambda");
      return;
    }
    const std::uint32_t fn = root.type;  // a function type: the checker saw to it
    if (!t.types.node(fn).has_param) {
      error(form_rule::part_parameter, name, "the Lambda of type " + type_text(t, fn) + " takes no parameter");
      return;
    }
    shape& s = shapes_[k];
    s.fn = fn;
    s.param_pair = is_pair(t, t.types.kid(fn, 0));
    s.result_pair = is_pair(t, t.types.kid(fn, 1));

    bound_.clear();
    bindings(t, t.root);

    if (k == client_work || k == aggregation || k == result) {
      if (!s.param_pair)
        error(form_rule::parameter_pair, name,
              "the parameter of type " + type_text(t, t.types.kid(fn, 0)) + " is not a struct of two elements");
    }
    if (k == prepare || k == result) {
      if (!s.result_pair)
        error(form_rule::result_pair, name,
              "the result of type " + type_text(t, t.types.kid(fn, 1)) + " is not a struct of two elements");
    }
    if (k == prepare || k == result) placed(t, placement_kind::server, form_rule::server_only);
    if (k == client_work) placed(t, placement_kind::clients, form_rule::clients_only);
    if (k == broadcast) intrinsic_block(t, true);
    if (k == aggregation) intrinsic_block(t, false);
  }

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
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& e = t.elem(i, k);
          frames_.push_back(path_frame{"block.local", k, t.name(e)});
          bind(t.name(e));
          bindings(t, e.value);
          frames_.pop_back();
        }
        child(t, n.a, "block.result");
        return;
      case block_kind::call:
        child(t, n.a, "call.function");
        if (n.b != no_index) child(t, n.b, "call.argument");
        return;
      case block_kind::selection:
        child(t, n.a, "selection.source");
        return;
      case block_kind::struct_:
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& e = t.elem(i, k);
          frames_.push_back(path_frame{"struct", k, t.name(e)});
          bindings(t, e.value);
          frames_.pop_back();
        }
        return;
      default: return;
    }
  }
  void child(const computation_tree& t, std::uint32_t i, const char* what) {
    frames_.push_back(path_frame{what, -1, {}});
    bindings(t, i);
    frames_.pop_back();
  }
  void bind(std::string_view name) {
    if (!bound_.insert(name).second)
      error(form_rule::unique_names, here(), "`" + std::string(name) + "` is bound a second time in the part");
  }

  // Every building block below i, innermost first (as TFF's visit_postorder), with its path in
  // frames_, until `visit` returns false.
  template <class F>
  bool walk(const computation_tree& t, std::uint32_t i, F& visit) {
    const block_node& n = t.node(i);
    auto into = [&](std::uint32_t c, const char* what, std::int64_t index = -1, std::string_view nm = {}) {
      frames_.push_back(path_frame{what, index, nm});
      const bool more = walk(t, c, visit);
      frames_.pop_back();
      return more;
    };
    switch (n.kind) {
      case block_kind::lambda:
        if (!into(n.a, "lambda.result")) return false;
        break;
      case block_kind::block:
        for (std::uint32_t k = 0; k != n.count; ++k)
          if (!into(t.elem(i, k).value, "block.local", k, t.name(t.elem(i, k)))) return false;
        if (!into(n.a, "block.result")) return false;
        break;
      case block_kind::call:
        if (!into(n.a, "call.function")) return false;
        if (n.b != no_index && !into(n.b, "call.argument")) return false;
        break;
      case block_kind::selection:
        if (!into(n.a, "selection.source")) return false;
        break;
      case block_kind::struct_:
        for (std::uint32_t k = 0; k != n.count; ++k)
          if (!into(t.elem(i, k).value, "struct", k, t.name(t.elem(i, k)))) return false;
        break;
      default: break;
    }
    return visit(i);
  }

  // server_only / clients_only: the first building block (innermost first) whose own type is
  // federated and placed elsewhere.
  void placed(const computation_tree& t, placement_kind where, form_rule r) {
    frames_.resize(1);
    auto visit = [&](std::uint32_t i) {
      const block_node& n = t.node(i);
      const type_node& ty = t.types.node(n.type);
      if (ty.kind != type_kind::federated || ty.where == where) return true;
      error(r, here(),
            std::string(a_block(n.kind)) + " of type " + type_text(t, n.type) + " in a part that runs " +
                (where == placement_kind::server ? "on the server (SERVER values only)"
                                                 : "on the clients (CLIENTS values only)"));
      return false;
    };
    walk(t, t.root, visit);
  }

  // The broadcast and aggregation parts: (x -> (let a=intrinsic(args of x), ... in <a, ...>)).
  void intrinsic_block(const computation_tree& t, bool is_broadcast) {
    const block_node& lam = t.node(t.root);
    const std::string_view param = t.text(t.root);
    frames_.assign(1, frames_.front());
    frames_.push_back(path_frame{"lambda.result", -1, {}});
    const block_node& b = t.node(lam.a);
    if (b.kind != block_kind::block) {
      error(form_rule::intrinsic_block, here(),
            "the result is " + std::string(a_block(b.kind)) + "; the part's Lambda must hold a Block of " +
                (is_broadcast ? "broadcast" : "aggregation") + " calls");
      return;
    }
    // (ctff's extension of intrinsic_argument in the broadcast part: a select's function is part of
    // the select, and a broadcast-kind call may take an earlier one's result, e.g. federated_select's
    // keys broadcast just before.)
    earlier_broadcasts_.clear();
    for (std::uint32_t k = 0; k != b.count; ++k) {
      const block_elem& e = t.elem(lam.a, k);
      const block_node& v = t.node(e.value);
      const bool call = v.kind == block_kind::call && t.node(v.a).kind == block_kind::intrinsic;
      select_call_ = is_broadcast && call &&
                     (t.text(v.a) == "federated_select" || t.text(v.a) == "federated_secure_select");
      frames_.push_back(path_frame{"block.local", k, t.name(e)});
      local(t, e.value, param, is_broadcast);
      frames_.pop_back();
      if (is_broadcast && call && listed(broadcast_intrinsics, t.text(v.a))) earlier_broadcasts_.push_back(t.name(e));
    }
    earlier_broadcasts_.clear();
    select_call_ = false;
    frames_.push_back(path_frame{"block.result", -1, {}});
    const block_node& r = t.node(b.a);
    bool ok = r.kind == block_kind::struct_ && r.count == b.count;
    for (std::uint32_t k = 0; ok && k != r.count; ++k) {
      const std::uint32_t v = t.elem(b.a, k).value;
      ok = t.node(v).kind == block_kind::reference && t.text(v) == t.name(t.elem(lam.a, k));
    }
    if (!ok)
      error(form_rule::returns_locals, here(),
            "the Block's result must be a Struct of References to its " + std::to_string(b.count) +
                " locals in order");
  }

  void local(const computation_tree& t, std::uint32_t v, std::string_view param, bool is_broadcast) {
    const block_node& c = t.node(v);
    if (c.kind != block_kind::call) {
      error(form_rule::intrinsic_call, here(), std::string(a_block(c.kind)) + ", not a Call of an Intrinsic");
      return;
    }
    const block_node& f = t.node(c.a);
    if (f.kind != block_kind::intrinsic) {
      error(form_rule::intrinsic_call, here(), "a Call of " + std::string(a_block(f.kind)) + ", not of an Intrinsic");
      return;
    }
    const std::string_view uri = t.text(c.a);
    if (is_broadcast && !listed(broadcast_intrinsics, uri))
      error(form_rule::broadcast_only, here(), "`" + std::string(uri) + "` is not a broadcast intrinsic");
    if (!is_broadcast && !listed(aggregation_intrinsics, uri))
      error(form_rule::aggregation_only, here(), "`" + std::string(uri) + "` is not an aggregation intrinsic");
    if (c.b == no_index) return;  // (the checker requires one for every such intrinsic)
    frames_.push_back(path_frame{"call.argument", -1, {}});
    argument(t, c.b, param, !is_broadcast && uri == "federated_aggregate");
    frames_.pop_back();
  }

  // A Literal, a chain of Selections from the Lambda's parameter, or a Struct of such; for
  // federated_aggregate in the aggregation (`aggregate`), also its functions (aggregate_function_rule).
  void argument(const computation_tree& t, std::uint32_t i, std::string_view param, bool aggregate) {
    const block_node& n = t.node(i);
    if (n.kind == block_kind::struct_) {
      for (std::uint32_t k = 0; k != n.count; ++k) {
        const block_elem& e = t.elem(i, k);
        frames_.push_back(path_frame{"struct", k, t.name(e)});
        argument(t, e.value, param, aggregate);
        frames_.pop_back();
      }
      return;
    }
    if (n.kind == block_kind::literal) return;
    if (aggregate && t.types.node(n.type).kind == type_kind::function) {
      if (auto e = aggregate_functions_.check(t, i, param, frames_))
        error(form_rule::intrinsic_argument, std::move(e->first), std::move(e->second));
      return;
    }
    if (n.kind == block_kind::selection) {
      std::uint32_t s = n.a;
      while (t.node(s).kind == block_kind::selection) s = t.node(s).a;
      const block_node& src = t.node(s);
      if (src.kind == block_kind::reference && t.text(s) == param) return;
      error(form_rule::intrinsic_argument, here(),
            "a Selection from " +
                (src.kind == block_kind::reference ? "`" + std::string(t.text(s)) + "`"
                                                    : std::string(a_block(src.kind))) +
                "; only selections from the parameter `" + std::string(param) + "` (or Literals) may be passed");
      return;
    }
    // (server_to_client_broadcast: an earlier broadcast's result, a select's function)
    if (n.kind == block_kind::reference)
      for (std::string_view name : earlier_broadcasts_)
        if (t.text(i) == name) return;
    if (select_call_ && t.types.node(n.type).kind == type_kind::function) return;
    error(form_rule::intrinsic_argument, here(),
          std::string(a_block(n.kind)) + "; an intrinsic takes only Selections from the parameter `" +
              std::string(param) + "` and Literals" +
              (earlier_broadcasts_.empty() ? "" : " (or, here, an earlier broadcast's result)"));
  }

  // ---- between the parts --------------------------------------------------------------------
  // The type of part k's parameter (side 0) or result (side 1), element `elem` of it (-1: all).
  struct end {
    const type_desc* d = nullptr;
    std::uint32_t ty = no_index;
    explicit operator bool() const { return d != nullptr; }
  };
  end part_end(std::size_t k, int side, int elem = -1) const {
    const shape& s = shapes_[k];
    if (s.fn == no_index) return {};
    const type_desc& d = tree(k).types;
    std::uint32_t ty = d.kid(s.fn, static_cast<std::uint32_t>(side));
    if (elem >= 0) {
      if (!(side == 0 ? s.param_pair : s.result_pair)) return {};
      ty = d.kid(ty, static_cast<std::uint32_t>(elem));
    }
    return {&d, ty};
  }
  // `to` must accept what `from` gives.
  void link(form_rule r, const std::string& at, end to, std::string_view to_what, end from, std::string_view from_what) {
    if (!to || !from) return;
    if (assignable(*to.d, to.ty, *from.d, from.ty)) return;
    error(r, at,
          std::string(to_what) + " of type " + detail::type_text(*to.d, to.ty) + " does not accept " +
              std::string(from_what) + " of type " + detail::type_text(*from.d, from.ty));
  }

  void links() {
    const std::string names[5] = {std::string(form_part_names[0]), std::string(form_part_names[1]),
                                  std::string(form_part_names[2]), std::string(form_part_names[3]),
                                  std::string(form_part_names[4])};
    link(form_rule::broadcast_input, names[broadcast], part_end(broadcast, 0), "server_to_client_broadcast's parameter",
         part_end(prepare, 1, 0), "server_prepare's result[0]");
    link(form_rule::broadcast_output, names[client_work], part_end(client_work, 0, 1), "client_work's parameter[1]",
         part_end(broadcast, 1), "server_to_client_broadcast's result");
    link(form_rule::aggregation_input, names[aggregation], part_end(aggregation, 0, 1),
         "client_to_server_aggregation's parameter[1]", part_end(client_work, 1), "client_work's result");
    link(form_rule::aggregation_output, names[result], part_end(result, 0, 1), "server_result's parameter[1]",
         part_end(aggregation, 1), "client_to_server_aggregation's result");
    link(form_rule::intermediate_state, names[aggregation], part_end(aggregation, 0, 0),
         "client_to_server_aggregation's parameter[0]", part_end(prepare, 1, 1), "server_prepare's result[1]");
    link(form_rule::intermediate_state, names[result], part_end(result, 0, 0), "server_result's parameter[0]",
         part_end(prepare, 1, 1), "server_prepare's result[1]");
    if (!round_) {
      link(form_rule::server_state, names[result], part_end(result, 1, 0), "server_result's result[0]",
           part_end(prepare, 0), "server_prepare's parameter");
      return;
    }
    const type_desc& d = *round_;
    const type_node& fn = d.node(d.root);
    if (fn.kind != type_kind::function || !fn.has_param || d.node(d.kid(d.root, 0)).kind != type_kind::struct_ ||
        d.node(d.kid(d.root, 0)).kid_count != 2 || d.node(d.kid(d.root, 1)).kind != type_kind::struct_ ||
        d.node(d.kid(d.root, 1)).kid_count != 2) {
      error(form_rule::round_type, "",
            "the round's type " + detail::type_text(d, d.root) +
                " is not a function of a struct of two elements to a struct of two elements");
      return;
    }
    const end state{&d, d.kid(d.kid(d.root, 0), 0)}, data{&d, d.kid(d.kid(d.root, 0), 1)},
        next_state{&d, d.kid(d.kid(d.root, 1), 0)}, output{&d, d.kid(d.kid(d.root, 1), 1)};
    link(form_rule::server_state, names[prepare], part_end(prepare, 0), "server_prepare's parameter", state,
         "the round's parameter[0]");
    link(form_rule::server_state, names[result], part_end(result, 1, 0), "server_result's result[0]", state,
         "the round's parameter[0]");
    link(form_rule::server_state, "", next_state, "the round's result[0]", state, "the round's parameter[0]");
    link(form_rule::client_data, names[client_work], part_end(client_work, 0, 0), "client_work's parameter[0]", data,
         "the round's parameter[1]");
    link(form_rule::server_output, names[result], part_end(result, 1, 1), "server_result's result[1]", output,
         "the round's result[1]");
  }

  std::array<const computation_tree*, 5> parts_;
  const type_desc* round_;
  std::size_t max_;
  std::array<shape, 5> shapes_{};
  std::vector<form_error> errors_;
  std::vector<path_frame> frames_;
  std::unordered_set<std::string_view, name_hash> bound_;
  aggregate_function_rule aggregate_functions_;
  std::vector<std::string_view> earlier_broadcasts_;  // the broadcast part's locals so far
  bool select_call_ = false;                          // the local checked calls a select
};

}  // namespace detail

// Every rule the form breaks (at most max_errors); empty when it is a DistributeAggregateForm.
inline std::vector<form_error> form_errors(const distribute_aggregate_form& f, std::size_t max_errors = 100) {
  return detail::form_validator(f, nullptr, max_errors).run();
}
// The same, and the form must fit the round it was split from (its type, `tree.type_of(tree.root)`):
// the rules server_state, client_data, server_output and round_type as TFF checks them.
inline std::vector<form_error> form_errors(const distribute_aggregate_form& f, const type_desc& round_type,
                                           std::size_t max_errors = 100) {
  return detail::form_validator(f, &round_type, max_errors).run();
}

// Throws the first form_error unless the parts are a DistributeAggregateForm.
inline void validate(const distribute_aggregate_form& f) {
  auto e = form_errors(f, 1);
  if (!e.empty()) throw e.front();
}
inline void validate(const distribute_aggregate_form& f, const type_desc& round_type) {
  auto e = form_errors(f, round_type, 1);
  if (!e.empty()) throw e.front();
}

}  // namespace ctff
