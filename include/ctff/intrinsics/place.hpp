// Placing values: federated_value(x, P) is `federated_value_at_clients` / `_at_server` of type
// (X -> X@P), the result equal everywhere; federated_eval(fn, P) is `federated_eval_at_clients` of
// (( -> R) -> {R}@CLIENTS) or `federated_eval_at_server` of (( -> R) -> R@SERVER).
#pragma once

#include <source_location>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/common.hpp"

namespace ctff {


// `where` (left to its default) is the user's line: a value made from constants only remembers it
// for the diagnostic of trace/fault.hpp.
template <class X, placement_kind P>
constexpr auto federated_value(X&& x, placement_tag<P>,
                               std::source_location where = std::source_location::current()) {
  using namespace detail;
  using T = type_or_void_t<X>;
  if constexpr (std::is_void_v<T>) {
    static_assert(
        cxx_types<X>::shown,
        "ctff: federated_value: the value must be a traced value, a constant or a tuple of "
        "them");
    return poisoned<federated_t<tensor<dtype::int32>, P, true>>();
  } else if constexpr (has_placed_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_value: the value must not contain federated or function types");
    return poisoned<federated_t<tensor<dtype::int32>, P, true>>();
  } else if constexpr (detail::is(P, placement_kind::clients)) {
    return intrinsic_call_at<function_t<T, clients_eq_t<T>>, row::federated_value_at_clients>(
        made_where(where), where, static_cast<X&&>(x));
  } else {
    return intrinsic_call_at<function_t<T, server_t<T>>, row::federated_value_at_server>(
        made_where(where), where, static_cast<X&&>(x));
  }
}

template <class Fn, placement_kind P>
constexpr auto federated_eval(Fn&& fn, placement_tag<P>,
                              std::source_location where = std::source_location::current()) {
  using namespace detail;
  using FT = type_or_void_t<Fn>;
  constexpr bool clients = detail::is(P, placement_kind::clients);
  if constexpr (!is_function_v<FT>) {
    CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                  "ctff: federated_eval: " CTFF_RULE_FUNCTION("the function"));
    return poisoned<federated_t<tensor<dtype::int32>, P, !clients>>();
  } else {
    using R = typename fn_info<FT>::result;
    using Guess =
        federated_t<std::conditional_t<has_placed_v<R>, tensor<dtype::int32>, R>, P, !clients>;
    if constexpr (fn_info<FT>::has_param) {
      CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                    "ctff: federated_eval: the function must take no parameter");
      return poisoned<Guess>();
    } else if constexpr (has_placed_v<R>) {
      CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                    "ctff: federated_eval: the function's result must not contain federated or "
                    "function types");
      return poisoned<Guess>();
    } else if constexpr (clients) {
      return intrinsic_call_at<function_t<FT, clients_t<R>>, row::federated_eval_at_clients>(
          made_where(where), where, static_cast<Fn&&>(fn));
    } else {
      return intrinsic_call_at<function_t<FT, server_t<R>>, row::federated_eval_at_server>(
          made_where(where), where, static_cast<Fn&&>(fn));
    }
  }
}

}  // namespace ctff
