// A federated round split into TFF's DistributeAggregateForm, as TFF's
// form_utils.get_distribute_aggregate_form_for_computation does it, pass for pass:
//   1. the round must be a Lambda of two parameters returning two results (`round_type`,
//      `round_parameters`, `round_results`, `round_lambda`);
//   2. its body in call-dominant form, its bound names unique (forms/call_dominant.hpp);
//   3. no broadcast may depend on an aggregation's result (`broadcast_after_aggregation`);
//   4. the unplaced and server-placed arguments of aggregations (a secure sum's bound, an
//      aggregate's zero) feed an injected `federated_broadcast` of `<>` computed from them, so
//      that they are computed before the broadcast and reach the aggregation through the
//      intermediate state; an unplaced argument that holds federated values cannot
//      (`aggregation_argument_placement`);
//   5. split at the broadcasts (federated_broadcast, federated_select, federated_secure_select):
//      server_prepare, server_to_client_broadcast (their one-element parameters unnested), and
//      the rest (forms/split_by_intrinsics.hpp), the injected broadcast's result dropped;
//   6. the rest split at the aggregations: client_work (its first result kept),
//      client_to_server_aggregation, and server_result as a function of <T, A_O>;
//   7. the five parts validated as a form of the round (forms/validate.hpp), as TFF's
//      DistributeAggregateForm constructor checks what its conversion made.
// Parity: the five parts' bytes are TFF's up to the names of the bindings
// (ctff::rename_variables_in_preorder makes them comparable).
//
// Beyond TFF (an extension): TFF 0.88 fails on every `federated_aggregate`, because step 4 wraps
// its accumulate, merge and report functions in federated_value (a federated function type does
// not exist). ctff leaves functional arguments where they are (they are part of the aggregation
// itself); the free references they use, if any, are fed to the injected broadcast as the
// unplaced arguments are. TFF's message was: "Expected a `federated_language.FederatedType` to
// not contain `federated_language.FederatedType`s or `federated_language.FunctionType`s".
//
// Beyond TFF (an extension): federated_select and federated_secure_select rounds whose keys reach
// the clients from the server. TFF refuses them all (its split cannot align a select that depends
// on a broadcast: NonAlignableAlongIntrinsicError). In ctff, a broadcast-kind call that takes
// another's result directly as an argument joins the same broadcast part
// (split_by_intrinsics' join_direct): server_to_client_broadcast then holds
// `k=federated_broadcast(B_I[0]), s=federated_select(<k,B_I[1],B_I[2],fn>)`, and B_I the keys,
// max_key and server value server_prepare computes. Keys made by `federated_value_at_clients(v)`
// (an unplaced v) and given straight to a select are the broadcast of `federated_value_at_server(v)`
// (the same all-equal value at the clients), so they are rewritten as such before the split (TFF
// computes them in server_prepare and refuses the round: `server_only`). Keys computed from the
// client data stay refused (`unavailable_inputs`): no part runs at the clients before the broadcast.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/building_block.hpp"
#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"
#include "ctff/forms/split_by_intrinsics.hpp"
#include "ctff/forms/validate.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff {
namespace detail {

// The five parts as building blocks.
struct daf_blocks {
  bb server_prepare, server_to_client_broadcast, client_work, client_to_server_aggregation,
      server_result;
};

// The nodes whose value depends on a node matching `pred` (an intrinsic's node itself included),
// references following the Block locals they name (tree_analysis._extract_nodes_consuming).
class dependents {
 public:
  dependents(form_context& c, std::function<bool(const bb&)> pred) : c_(c), pred_(std::move(pred)) {}
  std::set<const bb_node*> run(const bb& n) {
    visit(n);
    return std::move(set_);
  }

 private:
  bool in(const bb& x) const { return x && set_.count(x.get()) != 0; }
  void visit(const bb& n) {
    depth_guard g(c_.depth);
    bool dep = false;
    switch (n->kind) {
      case block_kind::reference:
        for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
          if (it->first == n->text) {
            dep = it->second && set_.count(it->second);
            break;
          }
        break;
      case block_kind::selection:
        visit(n->a);
        dep = in(n->a);
        break;
      case block_kind::call:
        visit(n->a);
        if (n->b) visit(n->b);
        dep = in(n->a) || in(n->b);
        break;
      case block_kind::lambda:
        scope_.emplace_back(n->text, nullptr);
        visit(n->a);
        scope_.pop_back();
        dep = in(n->a);
        break;
      case block_kind::struct_:
        for (const auto& e : n->elems) visit(e.value);
        for (const auto& e : n->elems) dep = dep || in(e.value);
        break;
      case block_kind::block: {
        const std::size_t d = scope_.size();
        for (const auto& e : n->elems) {
          visit(e.value);
          scope_.emplace_back(e.name, e.value.get());
        }
        visit(n->a);
        scope_.resize(d);
        for (const auto& e : n->elems) dep = dep || in(e.value);
        dep = dep || in(n->a);
        break;
      }
      default:
        break;
    }
    if (pred_(n) || dep) set_.insert(n.get());
  }

  form_context& c_;
  std::function<bool(const bb&)> pred_;
  std::set<const bb_node*> set_;
  std::vector<std::pair<std::string, const bb_node*>> scope_;
};

inline void check_broadcast_not_dependent_on_aggregate(form_context& c, const bb& n) {
  auto is_intrinsic_in = [](const std::set<std::string>& s) {
    return [&s](const bb& x) { return x->kind == block_kind::intrinsic && s.count(x->text) != 0; };
  };
  const auto on_aggregate = dependents(c, is_intrinsic_in(aggregation_uris())).run(n);
  const auto on_broadcast = dependents(c, is_intrinsic_in(broadcast_uris())).run(n);
  visit_preorder(c, n, [&](const bb& x) {
    if (x->kind != block_kind::call || !on_aggregate.count(x.get()) || !x->b) return;
    if (on_aggregate.count(x->b.get()) && on_broadcast.count(x->a.get()))
      throw form_error("broadcast_after_aggregation", "",
                       "a broadcast depends on the result of an aggregation (a round can broadcast "
                       "only before it aggregates)");
  });
}

inline bb federated_value_at_server(form_context& c, const bb& v) {
  const std::uint32_t r = c.federated_type(v->type, placement_kind::server, true);
  return c.call(c.intrinsic(std::string(row::federated_value_at_server::uri), c.function_type(v->type, r)), v);
}

// building_block_factory.create_federated_zip for a struct of server-placed values.
inline bb federated_zip(form_context& c, const bb& value) {
  std::set<int> where;
  std::function<void(std::uint32_t)> record = [&](std::uint32_t t) {
    if (c.is_federated(t)) {
      where.insert(static_cast<int>(c.tn(t).where));
    } else if (c.is_struct(t)) {
      for (std::uint32_t k = 0; k != c.size_of(t); ++k) record(c.kid(t, k));
    } else {
      throw form_error("aggregation_argument_placement", "",
                       "a zip of a value of type " + c.type_string(t));
    }
  };
  record(value->type);
  if (where.size() != 1)
    throw form_error("aggregation_argument_placement", "", "a zip of values at different placements");
  const auto p = static_cast<placement_kind>(*where.begin());
  std::function<std::uint32_t(std::uint32_t)> normalize = [&](std::uint32_t t) -> std::uint32_t {
    if (c.is_federated(t) && c.tn(t).where == placement_kind::clients && c.tn(t).all_equal)
      return c.federated_type(c.kid(t, 0), placement_kind::clients, false);
    if (!c.is_struct(t)) return t;
    auto e = c.items(t);
    bool changed = false;
    for (auto& [nm, k] : e) {
      auto k2 = normalize(k);
      changed = changed || k2 != k;
      k = k2;
    }
    return changed ? c.struct_type(e) : t;
  };
  const std::uint32_t in = normalize(value->type);
  const std::uint32_t out = c.federated_type(c.strip_placement(value->type), p);
  const std::string_view uri =
      p == placement_kind::clients ? row::federated_zip_at_clients::uri : row::federated_zip_at_server::uri;
  return c.call(c.intrinsic(std::string(uri), c.function_type(in, out)), value);
}

inline bb federated_apply(form_context& c, const bb& fn, const bb& arg) {
  const std::uint32_t r = c.federated_type(c.result_of(fn->type), placement_kind::server);
  const std::uint32_t p = c.unnamed_struct_type({fn->type, arg->type});
  return c.call(c.intrinsic(std::string(row::federated_apply::uri), c.function_type(p, r)), c.unnamed_struct({fn, arg}));
}

inline bb federated_broadcast(form_context& c, const bb& v) {
  const std::uint32_t r = c.federated_type(c.kid(v->type, 0), placement_kind::clients, true);
  return c.call(c.intrinsic(std::string(row::federated_broadcast::uri), c.function_type(v->type, r)), v);
}

// The arguments of aggregations that must be computed before the broadcast, server-placed.
inline std::vector<bb> server_side_aggregation_args(form_context& c, const bb& n) {
  std::vector<bb> out;
  visit_preorder(c, n, [&](const bb& x) {
    if (!is_call_of(x, aggregation_uris()) || !x->b) return;
    std::vector<bb> args;
    if (x->b->kind == block_kind::struct_) {
      for (const auto& e : x->b->elems) args.push_back(e.value);
    } else {
      args.push_back(x->b);
    }
    for (const auto& a : args) {
      if (c.is_federated(a->type)) {
        if (c.tn(a->type).where == placement_kind::server) out.push_back(a);
        continue;
      }
      bool placed = false;
      visit_preorder(c, a, [&](const bb& y) { placed = placed || c.is_federated(y->type); });
      if (placed)
        throw form_error("aggregation_argument_placement", "",
                         "an argument of " + x->a->text + " of type " + c.type_string(a->type) +
                             " holds federated values");
      if (c.is_function(a->type)) {
        // The extension: a function argument (federated_aggregate's accumulate, merge, report)
        // stays with the aggregation; what it uses from outside is computed before.
        std::vector<bb> refs;
        const auto free = free_names(c, a);
        std::set<std::string> seen;
        visit_preorder(c, a, [&](const bb& y) {
          if (y->kind == block_kind::reference && free.count(y->text) && seen.insert(y->text).second)
            refs.push_back(y);
        });
        for (const auto& r : refs) {
          if (c.is_function(r->type))
            throw form_error("federated_aggregate_unsupported", "",
                             "a function argument of " + x->a->text + " uses the function `" +
                                 r->text + "` from outside");
          out.push_back(federated_value_at_server(c, r));
        }
        continue;
      }
      out.push_back(federated_value_at_server(c, a));
    }
  });
  return out;
}

// The extension (see the top): each Block local `k=federated_value_at_clients(v)` that a
// broadcast-kind call takes as an argument becomes `k0=federated_value_at_server(v),
// k=federated_broadcast(k0)`; other rounds are returned as they are (the same node).
inline bb clients_values_as_broadcasts(form_context& c, const bb& comp) {
  if (comp->kind != block_kind::lambda || !comp->a || comp->a->kind != block_kind::block) return comp;
  const bb& body = comp->a;
  std::set<std::string> values_at_clients, fed_to_broadcasts;
  for (const auto& l : body->elems) {
    if (is_call_of(l.value, {std::string(row::federated_value_at_clients::uri)}) && l.value->b) values_at_clients.insert(l.name);
    if (!is_call_of(l.value, broadcast_uris()) || !l.value->b) continue;
    std::vector<bb> elems;
    flatten_argument(l.value->b, elems);
    for (const auto& e : elems)
      if (e->kind == block_kind::reference && values_at_clients.count(e->text)) fed_to_broadcasts.insert(e->text);
  }
  if (fed_to_broadcasts.empty()) return comp;
  std::vector<bb_elem> locals;
  for (const auto& l : body->elems) {
    if (!fed_to_broadcasts.count(l.name)) {
      locals.push_back(l);
      continue;
    }
    bb at_server = federated_value_at_server(c, l.value->b);
    const std::string name = c.fresh_name();
    locals.push_back({name, at_server});
    locals.push_back({l.name, federated_broadcast(c, c.reference(name, at_server->type))});
  }
  return c.lambda(comp->text, comp->param_type, c.block(locals, body->a));
}

inline std::vector<bb_elem> items_of_struct(const bb& s, const char* what) {
  if (s->kind != block_kind::struct_)
    throw form_error("round_results", "", std::string(what) + " is not written as a struct");
  return s->elems;
}

// The five parts, not yet checked as a form (split_tree does).
inline daf_blocks split_round(form_context& c, const bb& round) {
  const std::uint32_t t = round->type;
  if (!c.is_function(t)) throw form_error("round_type", "", "the round is not a function");
  const std::uint32_t p = c.param_of(t);
  if (p == no_index || !c.is_struct(p) || c.size_of(p) != 2)
    throw form_error("round_parameters", "",
                     "the round must take two arguments (<S@SERVER, {D}@CLIENTS>), not " +
                         (p == no_index ? std::string("none") : c.type_string(p)));
  const std::uint32_t r = c.result_of(t);
  if (!c.is_struct(r) || c.size_of(r) != 2)
    throw form_error("round_results", "",
                     "the round must return two values (<S@SERVER, X@SERVER>), not " + c.type_string(r));
  if (round->kind != block_kind::lambda)
    throw form_error("round_lambda", "", std::string("the round is a ") +
                                             std::string(block_kind_name(round->kind)) +
                                             ", not a lambda");
  bb comp = to_call_dominant(c, round);
  if (comp->kind != block_kind::lambda)
    throw form_error("round_lambda", "", "the round's call-dominant form is not a lambda");
  c.stage("01-call_dominant", comp);
  comp = uniquify_names(c, comp);
  c.stage("02-uniquified", comp);
  check_broadcast_not_dependent_on_aggregate(c, comp);
  comp = clients_values_as_broadcasts(c, comp);  // (the extension: select keys)

  const std::vector<bb> needed = server_side_aggregation_args(c, comp);
  const bool injected = !needed.empty();
  if (injected) {
    if (comp->a->kind != block_kind::block)
      throw form_error("round_lambda", "", "the round's body is not a block");
    bb zipped = federated_zip(c, c.unnamed_struct(needed));
    const std::uint32_t member = c.kid(zipped->type, 0);
    bb bcast = federated_broadcast(
        c, federated_apply(c, c.lambda("ignored_param", member, c.struct_({})), zipped));
    std::vector<bb_elem> locals = comp->a->elems;
    locals.push_back({"injected_broadcast_ref", bcast});
    auto results = items_of_struct(comp->a->a, "the round's result");
    results.push_back({std::string(), c.reference("injected_broadcast_ref", bcast->type)});
    comp = c.lambda(comp->text, comp->param_type, c.block(locals, c.struct_(results)));
    c.stage("03-injected_broadcast", comp);
  }

  split_parts first;
  try {
    first = split_by_intrinsics(c, comp, broadcast_uris(), {{0}}, {}, {{1}}, true);
  } catch (const form_error& e) {
    if (e.rule() != "unavailable_inputs") throw;
    throw form_error("unavailable_inputs", "",
                     "a broadcast's or select's argument needs the clients' data, but no part of the form "
                     "runs at the clients before the broadcast: server_prepare and "
                     "server_to_client_broadcast see only the server state (select keys must be "
                     "broadcast from the server or be a constant)");
  }
  c.stage("04-split1_before", first.before);
  c.stage("05-split1_intrinsic", first.intrinsic);
  c.stage("06-split1_after", first.after);
  daf_blocks out;
  out.server_prepare = unnest_lambda_parameter(c, first.before);
  c.stage("07-unnested_server_prepare", out.server_prepare);
  out.server_to_client_broadcast = unnest_lambda_parameter(c, first.intrinsic);
  c.stage("08-unnested_server_to_client_broadcast", out.server_to_client_broadcast);
  bb after = first.after;
  if (injected) {
    auto results = items_of_struct(after->a->a, "the part after the broadcast's result");
    if (results.empty()) throw form_error("internal", "", "the injected broadcast's result is missing");
    results.pop_back();
    after = c.lambda(after->text, after->param_type, c.block(after->a->elems, c.struct_(results)));
    c.stage("09-split2_input_without_injected_result", after);
  }
  auto second = split_by_intrinsics(c, after, aggregation_uris(), {{0}, {1}}, {{2}}, {{2}});
  c.stage("10-split2_before", second.before);
  c.stage("11-split2_intrinsic", second.intrinsic);
  c.stage("12-split2_after", second.after);
  out.client_work = select_output_from_lambda(c, second.before, 0);
  c.stage("13-client_work_selected_output", out.client_work);
  out.client_to_server_aggregation = second.intrinsic;
  out.server_result = as_function_of_some_subparameters(c, second.after, {{0}, {1}});
  c.stage("14-server_result_of_some_subparameters", out.server_result);
  return out;
}

}  // namespace detail

namespace detail {
// The tree checked and split, in a context made from its types (form_context c(round.types)); the
// parts must then be a form of the round, as TFF's DistributeAggregateForm constructor checks
// what its conversion made (forms.py): the form validator's first error is thrown.
// The round as building blocks, once ctff's checker passes it (else `valid_computation`).
inline bb checked_round(form_context& c, const computation_tree& round) {
  if (round.root == no_index || round.root >= round.nodes.size())
    throw form_error("valid_computation", "", "an empty computation");
  if (const auto e = check(round, 1); !e.empty()) throw form_error("valid_computation", e.front().path, e.front().problem);
  return from_tree(c, round);
}

inline distribute_aggregate_form split_tree(form_context& c, const computation_tree& round) {
  const daf_blocks parts = split_round(c, checked_round(c, round));
  distribute_aggregate_form f;
  f.server_prepare = to_tree(c, parts.server_prepare);
  f.server_to_client_broadcast = to_tree(c, parts.server_to_client_broadcast);
  f.client_work = to_tree(c, parts.client_work);
  f.client_to_server_aggregation = to_tree(c, parts.client_to_server_aggregation);
  f.server_result = to_tree(c, parts.server_result);
  validate(f, round.type_of(round.root));
  return f;
}
}  // namespace detail

// The round split into its five parts (see the top of this header); throws ctff::form_error
// naming the rule when it cannot be split, when the parts are no form of it (the validator's
// rules, forms/validate.hpp), or when the tree is not a valid typed computation
// (`valid_computation`, with the checker's first error).
inline distribute_aggregate_form to_distribute_aggregate_form(const computation_tree& round) {
  detail::form_context c(round.types);
  return detail::split_tree(c, round);
}

}  // namespace ctff
