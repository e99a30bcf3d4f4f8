// federated_aggregate(v, zero, accumulate, merge, report): `federated_aggregate` of
//   (<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)
// called with <v, zero, accumulate', merge', report>. U is accumulate's first parameter type;
// accumulate' and merge' are `(a -> accumulate(a))` / `(a -> merge(a))` with the unnamed parameter
// types <U,T> / <U,U> when the function's parameter struct has names, else the function itself.
// Polymorphic functions are traced with <zero's type, T>, <U',U'> (U' accumulate's result) and
// merge's result as their parameter types, as Python hints them.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {

template <class V, class Z, class Acc, class Merge, class Report>
constexpr auto federated_aggregate(V&& v, Z&& zero, Acc&& accumulate, Merge&& merge,
                                   Report&& report_fn,
                                   std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  using ZT = type_or_void_t<Z>;
  using Fallback = server_t<tensor<dtype::int32>>;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_aggregate: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<Fallback>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_aggregate: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<Fallback>();
  } else if constexpr (std::is_void_v<ZT>) {
    static_assert(
        cxx_types<Z>::shown,
        "ctff: federated_aggregate: the zero must be a traced value, a constant or a tuple "
        "of them");
    return poisoned<Fallback>();
  } else {
    using M = member_t<T>;
    auto&& acc = with_param_hint<struct_t<ZT, M>>(static_cast<Acc&&>(accumulate));
    using AccA = decltype(acc);
    using AccT = type_or_void_t<AccA>;
    if constexpr (!is_function_v<AccT>) {
      CTFF_DIAGNOSE(report<labeled<"accumulate", AccT>>::shown,
                    "ctff: federated_aggregate: "
                    CTFF_RULE_FUNCTIONS("accumulate, merge and report"));
      return poisoned<Fallback>();
    } else {
      using U1 = typename fn_info<AccT>::result;
      auto&& mrg = with_param_hint<struct_t<U1, U1>>(static_cast<Merge&&>(merge));
      using MergeA = decltype(mrg);
      using MergeT = type_or_void_t<MergeA>;
      if constexpr (!is_function_v<MergeT>) {
        CTFF_DIAGNOSE(report<labeled<"merge", MergeT>>::shown,
                      "ctff: federated_aggregate: "
                      CTFF_RULE_FUNCTIONS("accumulate, merge and report"));
        return poisoned<Fallback>();
      } else {
        auto&& rep =
            with_param_hint<typename fn_info<MergeT>::result>(static_cast<Report&&>(report_fn));
        using RepA = decltype(rep);
        using RepT = type_or_void_t<RepA>;
        if constexpr (!is_function_v<RepT>) {
          CTFF_DIAGNOSE(report<labeled<"report", RepT>>::shown,
                        "ctff: federated_aggregate: "
                        CTFF_RULE_FUNCTIONS("accumulate, merge and report"));
          return poisoned<Fallback>();
        } else {
          using AccP = typename fn_info<AccT>::param;
          using R = typename fn_info<RepT>::result;
          using Guess = server_t<std::conditional_t<has_placed_v<R>, tensor<dtype::int32>, R>>;
          if constexpr (struct_info<AccP>::size != 2) {
            CTFF_DIAGNOSE(report<labeled<"accumulate", AccT>, labeled<"value", T>>::shown,
                          "ctff: federated_aggregate: " CTFF_RULE_ACCUMULATE_TYPE);
            return poisoned<Guess>();
          } else {
            using U = typename struct_info<AccP>::template elem_t<0>;  // the zero's slot
            if constexpr (!is_assignable_v<U, ZT>) {
              CTFF_DIAGNOSE(report<labeled<"zero", ZT>, labeled<"accumulate", AccT>>::shown,
                            "ctff: federated_aggregate: the zero is not assignable to accumulate's "
                            "first parameter");
              return poisoned<Guess>();
            } else if constexpr (!is_assignable_v<function_t<struct_t<U1, M>, U1>, AccT>) {
              CTFF_DIAGNOSE(report<labeled<"accumulate", AccT>, labeled<"value", T>>::shown,
                            "ctff: federated_aggregate: " CTFF_RULE_ACCUMULATE_TYPE);
              return poisoned<Guess>();
            } else if constexpr (!is_assignable_v<function_t<struct_t<U1, U1>, U1>, MergeT>) {
              CTFF_DIAGNOSE(report<labeled<"merge", MergeT>, labeled<"accumulate", AccT>>::shown,
                            "ctff: federated_aggregate: merge must have type (<U,U> -> U), with U "
                            "the result type of accumulate");
              return poisoned<Guess>();
            } else if constexpr (!fn_info<RepT>::has_param ||
                                 !is_assignable_v<function_t<typename fn_info<MergeT>::result, R>,
                                                  RepT>) {
              CTFF_DIAGNOSE(report<labeled<"report", RepT>, labeled<"merge", MergeT>>::shown,
                            "ctff: federated_aggregate: report must take the result type of merge");
              return poisoned<Guess>();
            } else if constexpr (has_placed_v<R>) {
              CTFF_DIAGNOSE(
                  report<labeled<"report", RepT>>::shown,
                  "ctff: federated_aggregate: report's result must not contain federated or "
                  "function types");
              return poisoned<Guess>();
            } else {
              using AccU = unnamed_fn_t<struct_t<U, M>, AccA>;
              using MergeU = unnamed_fn_t<struct_t<U, U>, MergeA>;
              using F = function_t<struct_t<clients_t<M>, U, AccU, MergeU, RepT>, server_t<R>>;
              if constexpr (!is_concrete_instance_v<F, sig::federated_aggregate>) {
                CTFF_DIAGNOSE(report<labeled<"intrinsic", F>>::shown,
                              "ctff: federated_aggregate: accumulate's first parameter and the "
                              "results of accumulate and merge must all have one type U, as in "
                              "(<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)");
                return poisoned<Guess>();
              } else {
                return intrinsic_call<F, row::federated_aggregate>(
                    where, as_federated(static_cast<V&&>(v)),
                    static_cast<Z&&>(zero), unname_fn<struct_t<U, M>>(static_cast<AccA>(acc)),
                    unname_fn<struct_t<U, U>>(static_cast<MergeA>(mrg)), static_cast<RepA>(rep));
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace ctff
