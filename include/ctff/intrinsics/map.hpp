// federated_map(fn, v): `federated_map` of (<(T -> U),{T}@CLIENTS> -> {U}@CLIENTS) for a value
// at CLIENTS (its parameter rebuilt not all_equal, whatever v's all_equal), `federated_apply` of
// (<(T -> U),T@SERVER> -> U@SERVER) for a value at SERVER.
// federated_map_all_equal(fn, v): `federated_map_all_equal` of (<(T -> U),T@CLIENTS> -> U@CLIENTS),
// for an all-equal value at CLIENTS only.
// A polymorphic fn is traced with v's member type as its parameter type.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {

template <class Fn, class V>
constexpr auto federated_map(Fn&& fn, V&& v, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_map: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<clients_t<tensor<dtype::int32>>>();
  } else {
    using M = member_t<T>;
    constexpr bool clients = at_clients_v<T>;
    auto&& f = with_param_hint<M>(static_cast<Fn&&>(fn));
    using FA = decltype(f);
    using FT = type_or_void_t<FA>;
    if constexpr (!is_function_v<FT>) {
      CTFF_DIAGNOSE(report<labeled<"function", FT>, labeled<"value", T>>::shown,
                    "ctff: federated_map: " CTFF_RULE_FUNCTION("the mapping function"));
      return poisoned<federated_t<tensor<dtype::int32>, fed_info<T>::where, !clients>>();
    } else {
      using P = typename fn_info<FT>::param;
      using R = typename fn_info<FT>::result;
      using Guess = federated_t<std::conditional_t<has_placed_v<R>, tensor<dtype::int32>, R>,
                                fed_info<T>::where, !clients>;
      if constexpr (!fn_info<FT>::has_param) {
        CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                      "ctff: federated_map: " CTFF_RULE_TAKES_PARAMETER("the mapping function"));
        return poisoned<Guess>();
      } else if constexpr (!is_assignable_v<P, M>) {
        CTFF_DIAGNOSE(report<labeled<"parameter", P>, labeled<"member", M>>::shown,
                      "ctff: federated_map: " CTFF_RULE_MAPPING_PARAMETER);
        return poisoned<Guess>();
      } else if constexpr (!clients && !fed_info<T>::all_equal) {
        CTFF_DIAGNOSE(
            report<labeled<"value", T>>::shown,
            "ctff: federated_map: a value placed at SERVER must be equal at all locations "
            "(all_equal)");
        return poisoned<Guess>();
      } else if constexpr (has_placed_v<R>) {
        CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                      "ctff: federated_map: " CTFF_RULE_MAPPING_RESULT);
        return poisoned<Guess>();
      } else if constexpr (clients) {
        using F = function_t<struct_t<FT, clients_t<M>>, clients_t<R>>;
        return intrinsic_call<F, row::federated_map>(where, static_cast<FA>(f),
                                                     as_federated(static_cast<V&&>(v)));
      } else {
        using F = function_t<struct_t<FT, T>, server_t<R>>;
        return intrinsic_call<F, row::federated_apply>(where, static_cast<FA>(f),
                                                       as_federated(static_cast<V&&>(v)));
      }
    }
  }
}

template <class Fn, class V>
constexpr auto federated_map_all_equal(Fn&& fn, V&& v,
                                       std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_map_all_equal: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<clients_eq_t<tensor<dtype::int32>>>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_map_all_equal: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<clients_eq_t<tensor<dtype::int32>>>();
  } else {
    using M = member_t<T>;
    auto&& f = with_param_hint<M>(static_cast<Fn&&>(fn));
    using FA = decltype(f);
    using FT = type_or_void_t<FA>;
    if constexpr (!is_function_v<FT>) {
      CTFF_DIAGNOSE(report<labeled<"function", FT>, labeled<"value", T>>::shown,
                    "ctff: federated_map_all_equal: " CTFF_RULE_FUNCTION("the mapping function"));
      return poisoned<clients_eq_t<tensor<dtype::int32>>>();
    } else {
      using P = typename fn_info<FT>::param;
      using R = typename fn_info<FT>::result;
      using Guess = clients_eq_t<std::conditional_t<has_placed_v<R>, tensor<dtype::int32>, R>>;
      if constexpr (!fn_info<FT>::has_param) {
        CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                      "ctff: federated_map_all_equal: "
                      CTFF_RULE_TAKES_PARAMETER("the mapping function"));
        return poisoned<Guess>();
      } else if constexpr (!is_assignable_v<P, M>) {
        CTFF_DIAGNOSE(report<labeled<"parameter", P>, labeled<"member", M>>::shown,
                      "ctff: federated_map_all_equal: " CTFF_RULE_MAPPING_PARAMETER);
        return poisoned<Guess>();
      } else if constexpr (!fed_info<T>::all_equal) {
        CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                      "ctff: federated_map_all_equal: " CTFF_RULE_ALL_EQUAL("the value"));
        return poisoned<Guess>();
      } else if constexpr (has_placed_v<R>) {
        CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                      "ctff: federated_map_all_equal: " CTFF_RULE_MAPPING_RESULT);
        return poisoned<Guess>();
      } else {
        using F = function_t<struct_t<FT, clients_eq_t<M>>, clients_eq_t<R>>;
        return intrinsic_call<F, row::federated_map_all_equal>(
            where, static_cast<FA>(f), as_federated(static_cast<V&&>(v)));
      }
    }
  }
}

}  // namespace ctff
