// The generic type signatures of federated_language's 27 intrinsics (intrinsic_defs.py) and of
// TFF's backend intrinsic federated_secure_modular_sum (backends/mapreduce/intrinsics.py), spelled
// with abstract types. read/checker.hpp checks every Intrinsic node it reads against them; on the
// tracing side every Intrinsic node is made by `intrinsic_node` (trace/build.hpp), which checks
// its concrete type against one of them (types/instance.hpp), as building_blocks.Intrinsic does.
#pragma once

#include <cstdint>
#include <string_view>

#include "ctff/core/fixed_string.hpp"
#include "ctff/types/type.hpp"

namespace ctff::sig {

using T = abstract_t<"T">;
using U = abstract_t<"U">;
using R = abstract_t<"R">;
using V = abstract_t<"V">;
using M = abstract_t<"M">;
using B = abstract_t<"B">;
using Ks = abstract_t<"Ks">;
using int32 = tensor<dtype::int32>;

template <class X>
using at_c = federated_t<X, placement_kind::clients, false>;  // {X}@CLIENTS
template <class X>
using at_c_eq = federated_t<X, placement_kind::clients, true>;  // X@CLIENTS
template <class X>
using at_s = federated_t<X, placement_kind::server, true>;  // X@SERVER

using federated_aggregate = function_t<struct_t<at_c<T>, U, function_t<struct_t<U, T>, U>,
                                                function_t<struct_t<U, U>, U>, function_t<U, R>>,
                                       at_s<R>>;
using federated_apply = function_t<struct_t<function_t<T, U>, at_s<T>>, at_s<U>>;
using federated_broadcast = function_t<at_s<T>, at_c_eq<T>>;
using federated_eval_at_clients = function_t<function_t<void, T>, at_c<T>>;
using federated_eval_at_server = function_t<function_t<void, T>, at_s<T>>;
using federated_map = function_t<struct_t<function_t<T, U>, at_c<T>>, at_c<U>>;
using federated_map_all_equal = function_t<struct_t<function_t<T, U>, at_c_eq<T>>, at_c_eq<U>>;
using federated_mean = function_t<at_c<T>, at_s<T>>;
using federated_min = function_t<at_c<T>, at_s<T>>;
using federated_max = function_t<at_c<T>, at_s<T>>;
using federated_secure_sum = function_t<struct_t<at_c<V>, M>, at_s<V>>;
using federated_secure_sum_bitwidth = function_t<struct_t<at_c<V>, B>, at_s<V>>;
// TFF's own (tensorflow_federated's mapreduce backend), not federated_language's; M the modulus.
using federated_secure_modular_sum = function_t<struct_t<at_c<V>, M>, at_s<V>>;
using federated_select =
    function_t<struct_t<at_c<Ks>, at_s<int32>, at_s<T>, function_t<struct_t<T, int32>, U>>,
               at_c<sequence_t<U>>>;
using federated_secure_select = federated_select;
using federated_sum = function_t<at_c<T>, at_s<T>>;
using federated_value_at_clients = function_t<T, at_c_eq<T>>;
using federated_value_at_server = function_t<T, at_s<T>>;
using federated_weighted_mean = function_t<struct_t<at_c<T>, at_c<U>>, at_s<T>>;
using federated_zip_at_clients = function_t<T, at_c<U>>;
using federated_zip_at_server = function_t<T, at_s<U>>;
using generic_plus = function_t<struct_t<T, T>, T>;
using generic_divide = function_t<struct_t<T, T>, U>;
using generic_multiply = function_t<struct_t<T, T>, T>;
using generic_zero = T;
using sequence_map = function_t<struct_t<function_t<T, U>, sequence_t<T>>, sequence_t<U>>;
using sequence_reduce = function_t<struct_t<sequence_t<T>, U, function_t<struct_t<U, T>, U>>, U>;
using sequence_sum = function_t<sequence_t<T>, T>;

}  // namespace ctff::sig

namespace ctff::detail {

// What an intrinsic does, as TFF's IntrinsicDef says it (intrinsic_defs.py: its broadcast and
// aggregation kinds, DEFAULT or SECURE), one fact per room that asks: the forms split on the kinds,
// the executor dispatches on them, the remote executor ships the per-client ones.
enum class intrinsic_kind : std::uint8_t {
  none,         // (not an intrinsic of the table)
  broadcast,    // server to clients: federated_broadcast, the selects
  aggregation,  // clients to server
  map,          // a function of each member or element: map, map_all_equal, apply, sequence_map
  eval,         // a function of nothing, run at a placement
  value,        // a value placed
  zip,          // federated values as one
  generic,      // generic_plus, _multiply, _divide
  constant,     // generic_zero: a value, not a function
  sequence,     // sequence_reduce, sequence_sum
};
// The fold an aggregation runs (run/aggregation_rule.hpp); none: not one of those
// (federated_secure_modular_sum has its own, run/modular_sum.hpp). secure_sum: a sum whose
// operands' bounds are checked first, wherever the clients are.
enum class aggregation_kind : std::uint8_t { none, sum, mean, secure_sum, min, max, weighted_mean, aggregate };

// An intrinsic's facts. placed: its result is federated, at `where`; per_client: its function is
// called once per client (where: clients).
struct intrinsic_facts {
  intrinsic_kind kind = intrinsic_kind::none;
  bool placed = false;
  placement_kind where = placement_kind::clients;
  bool per_client = false;
  bool secure = false;
  aggregation_kind aggregation = aggregation_kind::none;
};

namespace fact {
constexpr intrinsic_facts unplaced(intrinsic_kind k) { return {k}; }
constexpr intrinsic_facts placed(intrinsic_kind k, placement_kind p) { return {k, true, p}; }
constexpr intrinsic_facts per_client(intrinsic_kind k) { return {k, true, placement_kind::clients, true}; }
constexpr intrinsic_facts aggregation(aggregation_kind a) {
  return {intrinsic_kind::aggregation, true, placement_kind::server, false, false, a};
}
constexpr intrinsic_facts secure(intrinsic_facts f) {
  f.secure = true;
  return f;
}
}  // namespace fact

// One row per intrinsic: its URI, its generic signature and its facts. Every Intrinsic node is
// made from its row (trace/build.hpp: intrinsic_node); the checker's table is `intrinsic_table`;
// the rooms that run or split computations ask the rows (types/intrinsic_facts.hpp). Adding an
// intrinsic: docs/design.md, "Adding an intrinsic".
template <fixed_string Uri, class Signature, intrinsic_facts Facts>
struct intrinsic_row {
  static constexpr std::string_view uri = Uri.view();
  using signature = Signature;
  static constexpr intrinsic_facts facts = Facts;
};
template <class... Rows>
struct intrinsic_rows {};

namespace row {
using namespace fact;
using federated_aggregate = intrinsic_row<"federated_aggregate", sig::federated_aggregate, aggregation(aggregation_kind::aggregate)>;
using federated_apply = intrinsic_row<"federated_apply", sig::federated_apply, placed(intrinsic_kind::map, placement_kind::server)>;
using federated_broadcast = intrinsic_row<"federated_broadcast", sig::federated_broadcast, placed(intrinsic_kind::broadcast, placement_kind::clients)>;
using federated_eval_at_clients = intrinsic_row<"federated_eval_at_clients", sig::federated_eval_at_clients, per_client(intrinsic_kind::eval)>;
using federated_eval_at_server = intrinsic_row<"federated_eval_at_server", sig::federated_eval_at_server, placed(intrinsic_kind::eval, placement_kind::server)>;
using federated_map = intrinsic_row<"federated_map", sig::federated_map, per_client(intrinsic_kind::map)>;
using federated_map_all_equal = intrinsic_row<"federated_map_all_equal", sig::federated_map_all_equal, placed(intrinsic_kind::map, placement_kind::clients)>;
using federated_mean = intrinsic_row<"federated_mean", sig::federated_mean, aggregation(aggregation_kind::mean)>;
using federated_min = intrinsic_row<"federated_min", sig::federated_min, aggregation(aggregation_kind::min)>;
using federated_max = intrinsic_row<"federated_max", sig::federated_max, aggregation(aggregation_kind::max)>;
using federated_secure_sum = intrinsic_row<"federated_secure_sum", sig::federated_secure_sum, secure(aggregation(aggregation_kind::secure_sum))>;
using federated_secure_sum_bitwidth = intrinsic_row<"federated_secure_sum_bitwidth", sig::federated_secure_sum_bitwidth, secure(aggregation(aggregation_kind::secure_sum))>;
using federated_secure_modular_sum = intrinsic_row<"federated_secure_modular_sum", sig::federated_secure_modular_sum, secure(aggregation(aggregation_kind::none))>;
using federated_select = intrinsic_row<"federated_select", sig::federated_select, per_client(intrinsic_kind::broadcast)>;
using federated_secure_select = intrinsic_row<"federated_secure_select", sig::federated_secure_select, secure(per_client(intrinsic_kind::broadcast))>;
using federated_sum = intrinsic_row<"federated_sum", sig::federated_sum, aggregation(aggregation_kind::sum)>;
using federated_value_at_clients = intrinsic_row<"federated_value_at_clients", sig::federated_value_at_clients, placed(intrinsic_kind::value, placement_kind::clients)>;
using federated_value_at_server = intrinsic_row<"federated_value_at_server", sig::federated_value_at_server, placed(intrinsic_kind::value, placement_kind::server)>;
using federated_weighted_mean = intrinsic_row<"federated_weighted_mean", sig::federated_weighted_mean, aggregation(aggregation_kind::weighted_mean)>;
using federated_zip_at_clients = intrinsic_row<"federated_zip_at_clients", sig::federated_zip_at_clients, placed(intrinsic_kind::zip, placement_kind::clients)>;
using federated_zip_at_server = intrinsic_row<"federated_zip_at_server", sig::federated_zip_at_server, placed(intrinsic_kind::zip, placement_kind::server)>;
using generic_plus = intrinsic_row<"generic_plus", sig::generic_plus, unplaced(intrinsic_kind::generic)>;
using generic_divide = intrinsic_row<"generic_divide", sig::generic_divide, unplaced(intrinsic_kind::generic)>;
using generic_multiply = intrinsic_row<"generic_multiply", sig::generic_multiply, unplaced(intrinsic_kind::generic)>;
using generic_zero = intrinsic_row<"generic_zero", sig::generic_zero, unplaced(intrinsic_kind::constant)>;
using sequence_map = intrinsic_row<"sequence_map", sig::sequence_map, unplaced(intrinsic_kind::map)>;
using sequence_reduce = intrinsic_row<"sequence_reduce", sig::sequence_reduce, unplaced(intrinsic_kind::sequence)>;
using sequence_sum = intrinsic_row<"sequence_sum", sig::sequence_sum, unplaced(intrinsic_kind::sequence)>;
}  // namespace row

using intrinsic_table = intrinsic_rows<
    row::federated_aggregate,
    row::federated_apply,
    row::federated_broadcast,
    row::federated_eval_at_clients,
    row::federated_eval_at_server,
    row::federated_map,
    row::federated_map_all_equal,
    row::federated_mean,
    row::federated_min,
    row::federated_max,
    row::federated_secure_sum,
    row::federated_secure_sum_bitwidth,
    row::federated_secure_modular_sum,
    row::federated_select,
    row::federated_secure_select,
    row::federated_sum,
    row::federated_value_at_clients,
    row::federated_value_at_server,
    row::federated_weighted_mean,
    row::federated_zip_at_clients,
    row::federated_zip_at_server,
    row::generic_plus,
    row::generic_divide,
    row::generic_multiply,
    row::generic_zero,
    row::sequence_map,
    row::sequence_reduce,
    row::sequence_sum>;

}  // namespace ctff::detail
