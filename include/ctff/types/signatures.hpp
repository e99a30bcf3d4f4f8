// The generic type signatures of federated_language's 27 intrinsics (intrinsic_defs.py), spelled
// with abstract types. read/checker.hpp checks every Intrinsic node it reads against them; on the
// tracing side every Intrinsic node is made by `intrinsic_node` (trace/build.hpp), which checks
// its concrete type against one of them (types/instance.hpp), as building_blocks.Intrinsic does.
#pragma once

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
