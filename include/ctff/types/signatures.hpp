// The generic type signatures of federated_language's 27 intrinsics (intrinsic_defs.py) and of
// TFF's backend intrinsic federated_secure_modular_sum (backends/mapreduce/intrinsics.py), spelled
// with abstract types. read/checker.hpp checks every Intrinsic node it reads against them; on the
// tracing side every Intrinsic node is made by `intrinsic_node` (trace/build.hpp), which checks
// its concrete type against one of them (types/instance.hpp), as building_blocks.Intrinsic does.
#pragma once

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

// One row per intrinsic: its URI and its generic signature. Every Intrinsic node is made from its
// row (trace/build.hpp: intrinsic_node); the checker's table is `intrinsic_table`.
template <fixed_string Uri, class Signature>
struct intrinsic_row {
  static constexpr std::string_view uri = Uri.view();
  using signature = Signature;
};
template <class... Rows>
struct intrinsic_rows {};

namespace row {
using federated_aggregate = intrinsic_row<"federated_aggregate", sig::federated_aggregate>;
using federated_apply = intrinsic_row<"federated_apply", sig::federated_apply>;
using federated_broadcast = intrinsic_row<"federated_broadcast", sig::federated_broadcast>;
using federated_eval_at_clients =
    intrinsic_row<"federated_eval_at_clients", sig::federated_eval_at_clients>;
using federated_eval_at_server =
    intrinsic_row<"federated_eval_at_server", sig::federated_eval_at_server>;
using federated_map = intrinsic_row<"federated_map", sig::federated_map>;
using federated_map_all_equal =
    intrinsic_row<"federated_map_all_equal", sig::federated_map_all_equal>;
using federated_mean = intrinsic_row<"federated_mean", sig::federated_mean>;
using federated_min = intrinsic_row<"federated_min", sig::federated_min>;
using federated_max = intrinsic_row<"federated_max", sig::federated_max>;
using federated_secure_sum = intrinsic_row<"federated_secure_sum", sig::federated_secure_sum>;
using federated_secure_sum_bitwidth =
    intrinsic_row<"federated_secure_sum_bitwidth", sig::federated_secure_sum_bitwidth>;
using federated_secure_modular_sum =
    intrinsic_row<"federated_secure_modular_sum", sig::federated_secure_modular_sum>;
using federated_select = intrinsic_row<"federated_select", sig::federated_select>;
using federated_secure_select =
    intrinsic_row<"federated_secure_select", sig::federated_secure_select>;
using federated_sum = intrinsic_row<"federated_sum", sig::federated_sum>;
using federated_value_at_clients =
    intrinsic_row<"federated_value_at_clients", sig::federated_value_at_clients>;
using federated_value_at_server =
    intrinsic_row<"federated_value_at_server", sig::federated_value_at_server>;
using federated_weighted_mean =
    intrinsic_row<"federated_weighted_mean", sig::federated_weighted_mean>;
using federated_zip_at_clients =
    intrinsic_row<"federated_zip_at_clients", sig::federated_zip_at_clients>;
using federated_zip_at_server =
    intrinsic_row<"federated_zip_at_server", sig::federated_zip_at_server>;
using generic_plus = intrinsic_row<"generic_plus", sig::generic_plus>;
using generic_divide = intrinsic_row<"generic_divide", sig::generic_divide>;
using generic_multiply = intrinsic_row<"generic_multiply", sig::generic_multiply>;
using generic_zero = intrinsic_row<"generic_zero", sig::generic_zero>;
using sequence_map = intrinsic_row<"sequence_map", sig::sequence_map>;
using sequence_reduce = intrinsic_row<"sequence_reduce", sig::sequence_reduce>;
using sequence_sum = intrinsic_row<"sequence_sum", sig::sequence_sum>;
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
