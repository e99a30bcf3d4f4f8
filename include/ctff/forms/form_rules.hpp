// The rules a DistributeAggregateForm keeps (TFF's DistributeAggregateForm.__init__ in
// backends/mapreduce/forms.py), each with the name a form_error reports (`form_error::rule()`):
// the one table of them, which docs/forms.md repeats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "ctff/types/intrinsic_facts.hpp"

namespace ctff {

enum class form_rule : std::uint8_t {
  part_check, part_lambda, part_parameter, unique_names, parameter_pair, result_pair, server_only,
  clients_only, intrinsic_block, intrinsic_call, broadcast_only, aggregation_only,
  intrinsic_argument, returns_locals, broadcast_input, broadcast_output, aggregation_input,
  aggregation_output, intermediate_state, server_state, client_data, server_output, round_type
};

struct form_rule_entry {
  form_rule rule;
  std::string_view name;   // as form_error::rule() spells it
  std::string_view parts;  // which parts it concerns
  std::string_view what;   // what it asks
};

// In form_rule's order (a test checks it, and that docs/forms.md lists the same names).
inline constexpr form_rule_entry form_rules[] = {
    {form_rule::part_check, "part_check", "every part",
     "the part passes ctff's checker (read/checker.hpp): types, references, intrinsic signatures"},
    {form_rule::part_lambda, "part_lambda", "every part", "the part is a Lambda"},
    {form_rule::part_parameter, "part_parameter", "every part", "the Lambda takes a parameter"},
    {form_rule::unique_names, "unique_names", "every part",
     "no name is bound twice in the part (Lambda parameters and Block locals)"},
    {form_rule::parameter_pair, "parameter_pair", "client_work, client_to_server_aggregation, server_result",
     "the parameter is a struct of two elements"},
    {form_rule::result_pair, "result_pair", "server_prepare, server_result",
     "the result is a struct of two elements"},
    {form_rule::server_only, "server_only", "server_prepare, server_result",
     "every federated value in the part is placed at SERVER"},
    {form_rule::clients_only, "clients_only", "client_work",
     "every federated value in the part is placed at CLIENTS"},
    {form_rule::intrinsic_block, "intrinsic_block", "server_to_client_broadcast, client_to_server_aggregation",
     "the Lambda's result is a Block"},
    {form_rule::intrinsic_call, "intrinsic_call", "server_to_client_broadcast, client_to_server_aggregation",
     "each local of that Block is a Call of an Intrinsic"},
    {form_rule::broadcast_only, "broadcast_only", "server_to_client_broadcast",
     "the intrinsics are broadcasts: federated_broadcast, federated_select, federated_secure_select"},
    {form_rule::aggregation_only, "aggregation_only", "client_to_server_aggregation",
     "the intrinsics are aggregations: federated_aggregate, federated_sum, federated_mean, "
     "federated_weighted_mean, federated_min, federated_max, federated_secure_sum, "
     "federated_secure_sum_bitwidth, federated_secure_modular_sum"},
    {form_rule::intrinsic_argument, "intrinsic_argument", "server_to_client_broadcast, client_to_server_aggregation",
     "an intrinsic's argument, structs flattened, holds only Literals and Selections from the Lambda's parameter; "
     "ctff's extension: in client_to_server_aggregation, an argument of federated_aggregate whose type is a "
     "function (accumulate, merge, report) may be any building block in which no type is federated and whose "
     "only free references are the sources of Selection chains from the parameter that end in a type holding "
     "no federated type; "
     "in server_to_client_broadcast also (ctff's extension, select rounds) References to earlier locals "
     "that call broadcast intrinsics (keys broadcast in the same part) and a select's function"},
    {form_rule::returns_locals, "returns_locals", "server_to_client_broadcast, client_to_server_aggregation",
     "the Block's result is a Struct of References to its locals, each once, in order"},
    {form_rule::broadcast_input, "broadcast_input", "server_prepare, server_to_client_broadcast",
     "server_prepare's result[0] (B_I) is assignable to server_to_client_broadcast's parameter"},
    {form_rule::broadcast_output, "broadcast_output", "server_to_client_broadcast, client_work",
     "server_to_client_broadcast's result (B_O) is assignable to client_work's parameter[1]"},
    {form_rule::aggregation_input, "aggregation_input", "client_work, client_to_server_aggregation",
     "client_work's result (A_I) is assignable to client_to_server_aggregation's parameter[1]"},
    {form_rule::aggregation_output, "aggregation_output", "client_to_server_aggregation, server_result",
     "client_to_server_aggregation's result (A_O) is assignable to server_result's parameter[1]"},
    {form_rule::intermediate_state, "intermediate_state",
     "server_prepare, client_to_server_aggregation, server_result",
     "server_prepare's result[1] (T) is assignable to parameter[0] of client_to_server_aggregation "
     "and of server_result"},
    {form_rule::server_state, "server_state", "server_prepare, server_result (and the round)",
     "the state S: server_prepare's parameter is assignable to server_result's result[0]; with the "
     "round, the round's parameter[0] is assignable to both and to the round's result[0]"},
    {form_rule::client_data, "client_data", "client_work and the round",
     "the round's parameter[1] ({D}@CLIENTS) is assignable to client_work's parameter[0]"},
    {form_rule::server_output, "server_output", "server_result and the round",
     "the round's result[1] (X) is assignable to server_result's result[1]"},
    {form_rule::round_type, "round_type", "the round",
     "the round is a function of a struct of two elements to a struct of two elements"},
};

namespace detail {
// The intrinsics each intrinsic part may call (broadcast_only, aggregation_only), which are also
// what the splitter splits on: the rows of that kind (federated_secure_modular_sum, an aggregation,
// is TFF's own, its mapreduce backend's, beside federated_language's).
inline bool is_intrinsic_of_kind(std::string_view uri, intrinsic_kind k) {
  return intrinsic_facts_of(uri).kind == k;
}
// The same as the splitter looks them up.
inline std::set<std::string> uris_of_kind(intrinsic_kind k) {
  std::set<std::string> s;
  for (std::size_t r = 0; r != intrinsic_count; ++r)
    if (intrinsic_entries[r].facts.kind == k) s.emplace(intrinsic_entries[r].uri);
  return s;
}
inline const std::set<std::string>& broadcast_uris() {
  static const std::set<std::string> s = uris_of_kind(intrinsic_kind::broadcast);
  return s;
}
inline const std::set<std::string>& aggregation_uris() {
  static const std::set<std::string> s = uris_of_kind(intrinsic_kind::aggregation);
  return s;
}
}  // namespace detail

inline constexpr std::size_t form_rule_count = sizeof(form_rules) / sizeof(form_rules[0]);

constexpr std::string_view rule_name(form_rule r) { return form_rules[static_cast<std::size_t>(r)].name; }

}  // namespace ctff
