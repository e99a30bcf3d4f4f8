// Aggregations from CLIENTS to SERVER, each of type ({T}@CLIENTS -> T@SERVER) (the parameter
// rebuilt not all_equal): federated_sum (numeric tensors of fully defined shape), federated_mean
// (floating-point or complex), federated_min / federated_max (integer or floating-point), and
// federated_mean(v, w): `federated_weighted_mean` of (<{T}@CLIENTS,{W}@CLIENTS> -> T@SERVER) with
// an integer or floating-point scalar weight.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {
namespace detail {

template <class T>
using aggregate_fn_t = function_t<clients_t<member_t<T>>, server_t<member_t<T>>>;

}  // namespace detail

template <class V>
constexpr auto federated_sum(V&& v, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_sum: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<server_t<tensor<dtype::int32>>>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_sum: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!sum_numeric_v<member_t<T>>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_sum: " CTFF_RULE_NUMERIC_STRUCTURE("the member type"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!fully_defined_v<member_t<T>>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_sum: " CTFF_RULE_FULLY_DEFINED("the member type"));
    return poisoned<server_t<member_t<T>>>();
  } else {
    return intrinsic_call<aggregate_fn_t<T>, row::federated_sum>(where, as_federated(static_cast<V&&>(v)));
  }
}

template <class V>
constexpr auto federated_mean(V&& v, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_mean: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<server_t<tensor<dtype::float32>>>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_mean: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!average_compatible_v<member_t<T>>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_mean: " CTFF_RULE_FLOATING_OR_COMPLEX("the member type"));
    return poisoned<server_t<member_t<T>>>();
  } else {
    return intrinsic_call<aggregate_fn_t<T>, row::federated_mean>(
        where, as_federated(static_cast<V&&>(v)));
  }
}

template <class V, class W>
constexpr auto federated_mean(V&& v, W&& w, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  using OW = fed_operand<W>;
  using U = typename OW::type;
  if constexpr (!O::ok || !at_clients_v<T> || !average_compatible_v<member_t<T>>) {
    return federated_mean(static_cast<V&&>(v), where);  // the value's rules: those of the mean above
  } else if constexpr (!OW::ok) {
    CTFF_DIAGNOSE(report<labeled<"weight", U>>::shown,
                  "ctff: federated_mean: " CTFF_RULE_FEDERATED("the weight"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!at_clients_v<U>) {
    CTFF_DIAGNOSE(report<labeled<"weight", U>>::shown,
                  "ctff: federated_mean: " CTFF_RULE_PLACED_AT("the weight", "CLIENTS"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!scalar_weight<member_t<U>>::value) {
    CTFF_DIAGNOSE(report<labeled<"weight", U>>::shown,
                  "ctff: federated_mean: the weight must be an integer or floating-point scalar");
    return poisoned<server_t<member_t<T>>>();
  } else {
    using M = member_t<T>;
    using F = function_t<struct_t<clients_t<M>, clients_t<member_t<U>>>, server_t<M>>;
    return intrinsic_call<F, row::federated_weighted_mean>(where, as_federated(static_cast<V&&>(v)),
                                                           as_federated(static_cast<W&&>(w)));
  }
}

// federated_min and federated_max: one definition (min_max.def) for both names.
#define CTFF_OP federated_min
#include "ctff/intrinsics/min_max.def"
#define CTFF_OP federated_max
#include "ctff/intrinsics/min_max.def"

}  // namespace ctff
