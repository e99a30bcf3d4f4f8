// The checks TFF's DistributeAggregateForm constructor (forms.py) makes of the five parts its
// conversion produced, applied by the splitter (forms/to_distribute_aggregate_form.hpp) to its
// own parts, and the intrinsic sets the conversion splits on.
#pragma once

#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "ctff/forms/block_traversal.hpp"
#include "ctff/forms/building_block.hpp"
#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"

namespace ctff::detail {

// The intrinsic tables of form_rules.hpp as the splitter looks them up.
inline const std::set<std::string>& broadcast_uris() {
  static const std::set<std::string> s(std::begin(broadcast_intrinsics), std::end(broadcast_intrinsics));
  return s;
}
inline const std::set<std::string>& aggregation_uris() {
  static const std::set<std::string> s(std::begin(aggregation_intrinsics), std::end(aggregation_intrinsics));
  return s;
}

// The five parts as building blocks.
struct daf_blocks {
  bb server_prepare, server_to_client_broadcast, client_work, client_to_server_aggregation,
      server_result;
};

// TFF's DistributeAggregateForm constructor checks what the conversion made (forms.py); a round
// whose parts fail them is refused there, so ctff refuses it too. The rules are named as the
// form validator's rule table names them: `part_lambda`,
// `part_check` (here: a part uses what it does not bind, e.g. a result that is not at the
// server), `parameter_pair`, `result_pair`, `server_only`, `clients_only`, `intrinsic_block`,
// `intrinsic_call`, `broadcast_only`, `aggregation_only`, `intrinsic_argument`, `returns_locals`,
// `broadcast_input`, `broadcast_output`, `aggregation_input`, `aggregation_output`,
// `intermediate_state`, `server_state`, `client_data`, `server_output`. The extension: a function
// argument of federated_aggregate passes `intrinsic_argument`.
inline void check_form_like_tff(form_context& c, std::uint32_t round_type, const daf_blocks& f) {
  const std::pair<const char*, const bb*> parts[] = {
      {"server_prepare", &f.server_prepare},
      {"server_to_client_broadcast", &f.server_to_client_broadcast},
      {"client_work", &f.client_work},
      {"client_to_server_aggregation", &f.client_to_server_aggregation},
      {"server_result", &f.server_result}};
  for (const auto& [label, part] : parts) {
    if ((*part)->kind != block_kind::lambda)
      throw form_error("part_lambda", label, "the part is not a lambda");
    const auto free = free_names(c, *part);
    if (!free.empty())
      throw form_error("part_check", label,
                       "the part refers to `" + *free.begin() +
                           "`, which it does not bind (a value the round returns is not at the server, "
                           "or the server's part needs the clients' data)");
  }
  auto param = [&](const bb& p) { return c.param_of(p->type); };
  auto result = [&](const bb& p) { return c.result_of(p->type); };
  auto pair_type = [&](std::uint32_t t) { return t != no_index && c.is_struct(t) && c.size_of(t) == 2; };
  auto single_placement = [&](const bb& p, placement_kind where, const char* label) {
    visit_preorder(c, p, [&](const bb& x) {
      if (c.is_federated(x->type) && c.tn(x->type).where != where)
        throw form_error(where == placement_kind::server ? "server_only" : "clients_only", label,
                         std::string("the part holds a value of type ") + c.type_string(x->type) +
                             " but runs only at the " +
                             (where == placement_kind::server ? "server" : "clients"));
    });
  };
  auto intrinsic_part = [&](const bb& p, const std::set<std::string>& uris, const char* rule,
                            const char* label, bool is_broadcast) {
    const bb& body = p->a;
    if (body->kind != block_kind::block)
      throw form_error("intrinsic_block", label, "the part's result is not a block of intrinsic calls");
    std::vector<std::string> names;
    for (const auto& l : body->elems) {
      if (l.value->kind != block_kind::call || l.value->a->kind != block_kind::intrinsic)
        throw form_error("intrinsic_call", label, "the local `" + l.name + "` is not a call of an intrinsic");
      if (!uris.count(l.value->a->text))
        throw form_error(rule, label, "the local `" + l.name + "` calls " + l.value->a->text +
                                          ", which is not one of the part's intrinsics");
      std::vector<bb> flat;
      std::function<void(const bb&)> flatten = [&](const bb& x) {
        if (x->kind == block_kind::struct_) {
          for (const auto& e : x->elems) flatten(e.value);
        } else {
          flat.push_back(x);
        }
      };
      if (l.value->b) flatten(l.value->b);
      for (const auto& a : flat) {
        // The extension: federated_aggregate's functions are part of the aggregation.
        if (l.value->a->text == "federated_aggregate" && c.is_function(a->type)) continue;
        // The extension: a broadcast-kind call may take an earlier one's result (select keys), and
        // a select's function is part of the select.
        if (is_broadcast && a->kind == block_kind::reference &&
            std::find(names.begin(), names.end(), a->text) != names.end())
          continue;
        if (is_broadcast && l.value->a->text != "federated_broadcast" && c.is_function(a->type)) continue;
        if (a->kind != block_kind::literal && a->kind != block_kind::selection)
          throw form_error("intrinsic_argument", label,
                           "an argument of " + l.value->a->text + " is neither a selection nor a literal");
        if (a->kind == block_kind::selection && a->a->kind == block_kind::reference && a->a->text != p->text)
          throw form_error("intrinsic_argument", label,
                           "an argument of " + l.value->a->text + " selects from `" + a->a->text +
                               "`, not from the part's parameter");
      }
      names.push_back(l.name);
    }
    if (body->a->kind != block_kind::struct_)
      throw form_error("returns_locals", label, "the part's result is not a struct");
    bool same = body->a->elems.size() == names.size();
    for (std::size_t k = 0; same && k != names.size(); ++k)
      same = body->a->elems[k].value->kind == block_kind::reference && body->a->elems[k].value->text == names[k];
    if (!same) throw form_error("returns_locals", label, "the part does not return its intrinsic calls' results in order");
  };
  if (!pair_type(result(f.server_prepare)))
    throw form_error("result_pair", "server_prepare", "the part does not return a struct of two");
  single_placement(f.server_prepare, placement_kind::server, "server_prepare");
  intrinsic_part(f.server_to_client_broadcast, broadcast_uris(), "broadcast_only", "server_to_client_broadcast",
                 true);
  if (!pair_type(param(f.client_work)))
    throw form_error("parameter_pair", "client_work", "the part does not take a struct of two");
  single_placement(f.client_work, placement_kind::clients, "client_work");
  if (!pair_type(param(f.client_to_server_aggregation)))
    throw form_error("parameter_pair", "client_to_server_aggregation", "the part does not take a struct of two");
  intrinsic_part(f.client_to_server_aggregation, aggregation_uris(), "aggregation_only",
                 "client_to_server_aggregation", false);
  if (!pair_type(param(f.server_result)))
    throw form_error("parameter_pair", "server_result", "the part does not take a struct of two");
  if (!pair_type(result(f.server_result)))
    throw form_error("result_pair", "server_result", "the part does not return a struct of two");
  single_placement(f.server_result, placement_kind::server, "server_result");
  auto accepts = [&](std::uint32_t to, std::uint32_t from) {
    if (to == no_index) return from == no_index;
    return from != no_index && c.assignable(to, from);
  };
  auto mismatch = [&](const char* rule, const char* label, const std::string& what) {
    throw form_error(rule, label, what);
  };
  const std::uint32_t prep = result(f.server_prepare);
  if (!accepts(param(f.server_to_client_broadcast), c.kid(prep, 0)))
    mismatch("broadcast_input", "server_to_client_broadcast", "its parameter does not accept server_prepare's first result");
  if (!accepts(c.kid(param(f.client_work), 1), result(f.server_to_client_broadcast)))
    mismatch("broadcast_output", "client_work", "its parameter does not accept server_to_client_broadcast's result");
  if (!accepts(c.kid(param(f.client_to_server_aggregation), 1), result(f.client_work)))
    mismatch("aggregation_input", "client_to_server_aggregation", "its parameter does not accept client_work's result");
  if (!accepts(c.kid(param(f.server_result), 1), result(f.client_to_server_aggregation)))
    mismatch("aggregation_output", "server_result", "its parameter does not accept client_to_server_aggregation's result");
  if (!accepts(c.kid(param(f.client_to_server_aggregation), 0), c.kid(prep, 1)) ||
      !accepts(c.kid(param(f.server_result), 0), c.kid(prep, 1)))
    mismatch("intermediate_state", "client_to_server_aggregation", "the intermediate state server_prepare returns is not what the parts after it take");
  const std::uint32_t rp = c.param_of(round_type), rr = c.result_of(round_type);
  const std::uint32_t state = c.kid(rp, 0);
  if (!accepts(param(f.server_prepare), state) || !accepts(c.kid(result(f.server_result), 0), state) ||
      !accepts(c.kid(rr, 0), state))
    throw form_error("server_state", "",
                     "the state the round takes (" + c.type_string(state) + ") and the state it returns (" +
                         c.type_string(c.kid(rr, 0)) + ") must be of one type");
  if (!accepts(c.kid(param(f.client_work), 0), c.kid(rp, 1)))
    throw form_error("client_data", "client_work", "the part does not take the round's client data");
  if (!accepts(c.kid(result(f.server_result), 1), c.kid(rr, 1)))
    throw form_error("server_output", "server_result", "the part does not return the round's result type");
}

}  // namespace ctff::detail
