// federated_select(keys, max_key, server_val, select_fn) and federated_secure_select(...):
// `federated_select` / `federated_secure_select` of
//   (<{Ks}@CLIENTS,int32@SERVER,S@SERVER,(<S,int32> -> U)> -> {U*}@CLIENTS)
// called with <keys, max_key, server_val, select_fn'>; select_fn' is `(a -> select_fn(a))` with the
// unnamed parameter <S,int32> when select_fn's parameter struct has names. The keys are a rank-1
// int32 tensor of known size at CLIENTS; a polymorphic select_fn is traced with <S,int32>.
#pragma once

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {
namespace detail {

template <class T>
struct select_keys : std::false_type {};
template <std::int64_t N>
struct select_keys<tensor<dtype::int32, N>> : std::bool_constant<(N >= 0)> {};

template <bool Secure, class K, class X, class SV, class Fn>
constexpr auto select_impl(K&& keys, X&& max_key, SV&& server_val, Fn&& select_fn) {
  using KT = type_or_void_t<K>;
  using XT = type_or_void_t<X>;
  using O = fed_operand<SV>;
  using ST = typename O::type;
  using Fallback = clients_t<sequence_t<tensor<dtype::int32>>>;
  using i32 = tensor<dtype::int32>;
  if constexpr (!at_clients_v<KT>) {
    if constexpr (Secure) {
      CTFF_DIAGNOSE(report<labeled<"keys", KT>>::shown,
                    "ctff: federated_secure_select: " CTFF_RULE_PLACED_AT("the keys", "CLIENTS"));
    } else {
      CTFF_DIAGNOSE(report<labeled<"keys", KT>>::shown,
                    "ctff: federated_select: " CTFF_RULE_PLACED_AT("the keys", "CLIENTS"));
    }
    return poisoned<Fallback>();
  } else if constexpr (!select_keys<member_t<KT>>::value) {
    if constexpr (Secure) {
      CTFF_DIAGNOSE(report<labeled<"keys", KT>>::shown,
                    "ctff: federated_secure_select: " CTFF_RULE_SELECT_KEYS);
    } else {
      CTFF_DIAGNOSE(report<labeled<"keys", KT>>::shown,
                    "ctff: federated_select: " CTFF_RULE_SELECT_KEYS);
    }
    return poisoned<Fallback>();
  } else if constexpr (std::is_void_v<XT> || !is_assignable_v<server_t<i32>, XT>) {
    if constexpr (Secure) {
      CTFF_DIAGNOSE(report<labeled<"max_key", XT>>::shown,
                    "ctff: federated_secure_select: " CTFF_RULE_SELECT_MAX_KEY);
    } else {
      CTFF_DIAGNOSE(report<labeled<"max_key", XT>>::shown,
                    "ctff: federated_select: " CTFF_RULE_SELECT_MAX_KEY);
    }
    return poisoned<Fallback>();
  } else if constexpr (!O::ok) {
    if constexpr (Secure) {
      CTFF_DIAGNOSE(report<labeled<"server_val", ST>>::shown,
                    "ctff: federated_secure_select: " CTFF_RULE_FEDERATED("server_val"));
    } else {
      CTFF_DIAGNOSE(report<labeled<"server_val", ST>>::shown,
                    "ctff: federated_select: " CTFF_RULE_FEDERATED("server_val"));
    }
    return poisoned<Fallback>();
  } else if constexpr (!at_server_v<ST> || !fed_info<ST>::all_equal) {
    if constexpr (Secure) {
      CTFF_DIAGNOSE(report<labeled<"server_val", ST>>::shown,
                    "ctff: federated_secure_select: " CTFF_RULE_SELECT_SERVER_VAL);
    } else {
      CTFF_DIAGNOSE(report<labeled<"server_val", ST>>::shown,
                    "ctff: federated_select: " CTFF_RULE_SELECT_SERVER_VAL);
    }
    return poisoned<Fallback>();
  } else {
    using S = member_t<ST>;
    using P = struct_t<S, i32>;
    auto&& f = with_param_hint<P>(static_cast<Fn&&>(select_fn));
    using FA = decltype(f);
    using FT = type_or_void_t<FA>;
    if constexpr (!is_function_v<FT> || !fn_info<FT>::has_param ||
                  !is_assignable_v<typename fn_info<FT>::param, P>) {
      if constexpr (Secure) {
        CTFF_DIAGNOSE(report<labeled<"select_fn", FT>, labeled<"server_val", ST>>::shown,
                      "ctff: federated_secure_select: " CTFF_RULE_SELECT_FN_PARAMETER);
      } else {
        CTFF_DIAGNOSE(report<labeled<"select_fn", FT>, labeled<"server_val", ST>>::shown,
                      "ctff: federated_select: " CTFF_RULE_SELECT_FN_PARAMETER);
      }
      return poisoned<Fallback>();
    } else {
      using R = typename fn_info<FT>::result;
      using FU = unnamed_fn_t<P, FA>;
      using F = function_t<struct_t<clients_t<member_t<KT>>, XT, ST, FU>, clients_t<sequence_t<R>>>;
      if constexpr (!sequenceable_v<R>) {
        if constexpr (Secure) {
          CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                        "ctff: federated_secure_select: " CTFF_RULE_SELECT_FN_RESULT);
        } else {
          CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                        "ctff: federated_select: " CTFF_RULE_SELECT_FN_RESULT);
        }
        return poisoned<Fallback>();
      } else if constexpr (!is_concrete_instance_v<F, sig::federated_select>) {
        if constexpr (Secure) {
          CTFF_DIAGNOSE(report<labeled<"intrinsic", F>>::shown,
                        "ctff: federated_secure_select: " CTFF_RULE_SELECT_SIGNATURE);
        } else {
          CTFF_DIAGNOSE(report<labeled<"intrinsic", F>>::shown,
                        "ctff: federated_select: " CTFF_RULE_SELECT_SIGNATURE);
        }
        return poisoned<Fallback>();
      } else {
        using I = std::conditional_t<Secure, row::federated_secure_select, row::federated_select>;
        return intrinsic_call<F, I>(static_cast<K&&>(keys),
            static_cast<X&&>(max_key), as_federated(static_cast<SV&&>(server_val)),
            unname_fn<P>(static_cast<FA>(f)));
      }
    }
  }
}

}  // namespace detail

template <class K, class X, class S, class Fn>
constexpr auto federated_select(K&& keys, X&& max_key, S&& server_val, Fn&& select_fn) {
  return detail::select_impl<false>(static_cast<K&&>(keys), static_cast<X&&>(max_key),
                                    static_cast<S&&>(server_val), static_cast<Fn&&>(select_fn));
}

template <class K, class X, class S, class Fn>
constexpr auto federated_secure_select(K&& keys, X&& max_key, S&& server_val, Fn&& select_fn) {
  return detail::select_impl<true>(static_cast<K&&>(keys), static_cast<X&&>(max_key),
                                   static_cast<S&&>(server_val), static_cast<Fn&&>(select_fn));
}

}  // namespace ctff
