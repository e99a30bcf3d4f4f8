// The rules of a form's broadcast and aggregation parts (forms/form_rules.hpp), each
// (x -> (let a=intrinsic(args of x), ... in <a, ...>)): intrinsic_block, intrinsic_call,
// broadcast_only, aggregation_only, intrinsic_argument (with ctff's extensions) and
// returns_locals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/forms/aggregate_function_rule.hpp"
#include "ctff/forms/form_report.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/tree_checker.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

class intrinsic_part_rules {
 public:
  explicit intrinsic_part_rules(form_report& r) : r_(r) {}

  // The broadcast part (is_broadcast) or the aggregation part t, a Lambda of a parameter.
  void check(const computation_tree& t, bool is_broadcast) {
    const block_node& lam = t.node(t.root);
    const std::string_view param = t.text(t.root);
    r_.at_part(is_broadcast ? part_at::broadcast : part_at::aggregation);
    r_.frames.push_back(path_frame{"lambda.result", -1, {}});
    const block_node& b = t.node(lam.a);
    if (b.kind != block_kind::block) {
      r_.error(form_rule::intrinsic_block, r_.here(),
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
      const intrinsic_facts& facts = intrinsic_facts_of(call ? t.text(v.a) : std::string_view{});
      select_call_ = is_broadcast && facts.kind == intrinsic_kind::broadcast && facts.per_client;
      r_.frames.push_back(path_frame{"block.local", k, t.name(e)});
      local(t, e.value, param, is_broadcast);
      r_.frames.pop_back();
      if (is_broadcast && call && facts.kind == intrinsic_kind::broadcast) earlier_broadcasts_.push_back(t.name(e));
    }
    earlier_broadcasts_.clear();
    select_call_ = false;
    r_.frames.push_back(path_frame{"block.result", -1, {}});
    const block_node& res = t.node(b.a);
    bool ok = res.kind == block_kind::struct_ && res.count == b.count;
    for (std::uint32_t k = 0; ok && k != res.count; ++k) {
      const std::uint32_t v = t.elem(b.a, k).value;
      ok = t.node(v).kind == block_kind::reference && t.text(v) == t.name(t.elem(lam.a, k));
    }
    if (!ok)
      r_.error(form_rule::returns_locals, r_.here(),
               "the Block's result must be a Struct of References to its " + std::to_string(b.count) +
                   " locals in order");
  }

 private:
  void local(const computation_tree& t, std::uint32_t v, std::string_view param, bool is_broadcast) {
    const block_node& c = t.node(v);
    if (c.kind != block_kind::call) {
      r_.error(form_rule::intrinsic_call, r_.here(), std::string(a_block(c.kind)) + ", not a Call of an Intrinsic");
      return;
    }
    const block_node& f = t.node(c.a);
    if (f.kind != block_kind::intrinsic) {
      r_.error(form_rule::intrinsic_call, r_.here(),
               "a Call of " + std::string(a_block(f.kind)) + ", not of an Intrinsic");
      return;
    }
    const std::string_view uri = t.text(c.a);
    if (is_broadcast && !is_intrinsic_of_kind(uri, intrinsic_kind::broadcast))
      r_.error(form_rule::broadcast_only, r_.here(), "`" + std::string(uri) + "` is not a broadcast intrinsic");
    if (!is_broadcast && !is_intrinsic_of_kind(uri, intrinsic_kind::aggregation))
      r_.error(form_rule::aggregation_only, r_.here(), "`" + std::string(uri) + "` is not an aggregation intrinsic");
    if (c.b == no_index) return;  // (the checker requires one for every such intrinsic)
    r_.frames.push_back(path_frame{"call.argument", -1, {}});
    argument(t, c.b, param, !is_broadcast && is_intrinsic<row::federated_aggregate>(uri));
    r_.frames.pop_back();
  }

  // A Literal, a chain of Selections from the Lambda's parameter, or a Struct of such; for
  // federated_aggregate in the aggregation (`aggregate`), also its functions (aggregate_function_rule).
  void argument(const computation_tree& t, std::uint32_t i, std::string_view param, bool aggregate) {
    const block_node& n = t.node(i);
    if (n.kind == block_kind::struct_) {
      for (std::uint32_t k = 0; k != n.count; ++k) {
        const block_elem& e = t.elem(i, k);
        r_.frames.push_back(path_frame{"struct", k, t.name(e)});
        argument(t, e.value, param, aggregate);
        r_.frames.pop_back();
      }
      return;
    }
    if (n.kind == block_kind::literal) return;
    if (aggregate && t.types.node(n.type).kind == type_kind::function) {
      if (auto e = aggregate_functions_.check(t, i, param, r_.frames))
        r_.error(form_rule::intrinsic_argument, std::move(e->first), std::move(e->second));
      return;
    }
    if (n.kind == block_kind::selection) {
      std::uint32_t s = n.a;
      while (t.node(s).kind == block_kind::selection) s = t.node(s).a;
      const block_node& src = t.node(s);
      if (src.kind == block_kind::reference && t.text(s) == param) return;
      r_.error(form_rule::intrinsic_argument, r_.here(),
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
    r_.error(form_rule::intrinsic_argument, r_.here(),
             std::string(a_block(n.kind)) + "; an intrinsic takes only Selections from the parameter `" +
                 std::string(param) + "` and Literals" +
                 (earlier_broadcasts_.empty() ? "" : " (or, here, an earlier broadcast's result)"));
  }

  form_report& r_;
  aggregate_function_rule aggregate_functions_;
  std::vector<std::string_view> earlier_broadcasts_;  // the broadcast part's locals so far
  bool select_call_ = false;                          // the local checked calls a select
};

}  // namespace ctff::detail
