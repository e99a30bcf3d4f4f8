// Federated intrinsics: broadcast, map/apply, sum, mean, value, zip.
#pragma once

#include <tuple>

#include "ctff/intrinsics/common.hpp"
#include "ctff/types/relations.hpp"

namespace ctff {
namespace detail {

// Placement stripped from every federated leaf (the member type of a zip's result).
template <class T> struct strip_fed { using type = T; };
template <class T, placement_kind P, bool A> struct strip_fed<federated_t<T, P, A>> { using type = T; };
template <class... E> struct strip_fed<struct_t<E...>> {
  template <class X> struct one { using type = typename strip_fed<X>::type; };
  template <fixed_string N, class X> struct one<field<N, X>> {
    using type = field<N, typename strip_fed<X>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};
// CLIENTS all_equal leaves normalised to not all_equal (a zip's parameter type).
template <class T> struct norm_zip { using type = T; };
template <class T, bool A> struct norm_zip<federated_t<T, placement_kind::clients, A>> {
  using type = clients_t<T>;
};
template <class... E> struct norm_zip<struct_t<E...>> {
  template <class X> struct one { using type = typename norm_zip<X>::type; };
  template <fixed_string N, class X> struct one<field<N, X>> {
    using type = field<N, typename norm_zip<X>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};

}  // namespace detail

template <class V>
  requires detail::convertible<V>
constexpr auto federated_broadcast(V&& v) {
  using T = detail::value_type_t<V>;
  static_assert(detail::at_server_v<T>, "ctff: federated_broadcast: the value must be placed at SERVER");
  using M = detail::member_t<T>;
  using F = function_t<T, detail::clients_eq_t<M>>;
  return detail::intrinsic_call<F>("federated_broadcast", static_cast<V&&>(v));
}

namespace detail {
template <class Fn, class V>
constexpr auto map_impl(Fn&& fn, V&& v);
}  // namespace detail

// federated_map at CLIENTS, federated_apply at SERVER.
template <class Fn, class V>
  requires detail::convertible<V>
constexpr auto federated_map(Fn&& fn, V&& v) {
  using T = detail::value_type_t<V>;
  static_assert(detail::fed_info<T>::is_fed, "ctff: federated_map: the value must be federated");
  if constexpr (!detail::convertible<Fn>) {
    return federated_map(detail::with_param_hint<detail::member_t<T>>(static_cast<Fn&&>(fn)),
                         static_cast<V&&>(v));
  } else {
    return detail::map_impl(static_cast<Fn&&>(fn), static_cast<V&&>(v));
  }
}

namespace detail {
template <class Fn, class V>
constexpr auto map_impl(Fn&& fn, V&& v) {
  using T = detail::value_type_t<V>;
  using FT = detail::value_type_t<Fn>;
  static_assert(detail::is_function_v<FT>, "ctff: federated_map: the mapping function is not a function");
  using M = detail::member_t<T>;
  using P = typename detail::fn_info<FT>::param;
  using R = typename detail::fn_info<FT>::result;
  static_assert(!std::is_void_v<P>, "ctff: federated_map: the mapping function takes no parameter");
  static_assert(is_assignable_v<P, M>,
                "ctff: federated_map: the mapping function's parameter is not assignable from the "
                "member type of the value");
  if constexpr (detail::at_clients_v<T>) {
    using F = function_t<struct_t<FT, detail::clients_t<M>>, detail::clients_t<R>>;
    return detail::intrinsic_call<F>("federated_map", static_cast<Fn&&>(fn), static_cast<V&&>(v));
  } else {
    using F = function_t<struct_t<FT, T>, detail::server_t<R>>;
    return detail::intrinsic_call<F>("federated_apply", static_cast<Fn&&>(fn), static_cast<V&&>(v));
  }
}
}  // namespace detail

namespace detail {
template <class V>
constexpr auto clients_aggregate(std::string_view uri, V&& v) {
  using T = value_type_t<V>;
  using M = member_t<T>;
  using F = function_t<clients_t<M>, server_t<M>>;
  return intrinsic_call<F>(uri, static_cast<V&&>(v));
}
}  // namespace detail

template <class V>
  requires detail::convertible<V>
constexpr auto federated_sum(V&& v) {
  static_assert(detail::at_clients_v<detail::value_type_t<V>>,
                "ctff: federated_sum: the value must be placed at CLIENTS");
  return detail::clients_aggregate("federated_sum", static_cast<V&&>(v));
}

template <class V>
  requires detail::convertible<V>
constexpr auto federated_mean(V&& v) {
  static_assert(detail::at_clients_v<detail::value_type_t<V>>,
                "ctff: federated_mean: the value must be placed at CLIENTS");
  return detail::clients_aggregate("federated_mean", static_cast<V&&>(v));
}

template <class V, class W>
  requires detail::convertible<V> && detail::convertible<W>
constexpr auto federated_mean(V&& v, W&& w) {
  using T = detail::value_type_t<V>;
  using U = detail::value_type_t<W>;
  static_assert(detail::at_clients_v<T>, "ctff: federated_mean: the value must be placed at CLIENTS");
  static_assert(detail::at_clients_v<U>, "ctff: federated_mean: the weight must be placed at CLIENTS");
  using M = detail::member_t<T>;
  using F = function_t<struct_t<detail::clients_t<M>, detail::clients_t<detail::member_t<U>>>,
                       detail::server_t<M>>;
  return detail::intrinsic_call<F>("federated_weighted_mean", static_cast<V&&>(v), static_cast<W&&>(w));
}

template <class X, placement_kind P>
  requires detail::convertible<X>
constexpr auto federated_value(X&& x, placement_tag<P>) {
  using T = detail::value_type_t<X>;
  static_assert(!detail::contains_placed<T>::value,
                "ctff: federated_value: the value must not contain federated types");
  using F = function_t<T, federated_t<T, P, true>>;
  return detail::intrinsic_call<F>(P == placement_kind::clients ? "federated_value_at_clients"
                                                                : "federated_value_at_server",
                                   static_cast<X&&>(x));
}

// federated_zip(s) of a struct of federated values, or federated_zip(a, b, ...).
template <class S>
  requires detail::convertible<S>
constexpr auto federated_zip(S&& s) {
  using T = detail::value_type_t<S>;
  static_assert(detail::struct_info<T>::is_struct, "ctff: federated_zip: the value must be a struct");
  using M = typename detail::strip_fed<T>::type;
  using First = typename detail::struct_info<T>::template elem_t<0>;
  static_assert(detail::fed_info<First>::is_fed, "ctff: federated_zip: the elements must be federated");
  if constexpr (detail::fed_info<First>::where == placement_kind::clients) {
    using F = function_t<typename detail::norm_zip<T>::type, detail::clients_t<M>>;
    return detail::intrinsic_call<F>("federated_zip_at_clients", static_cast<S&&>(s));
  } else {
    using F = function_t<T, detail::server_t<M>>;
    return detail::intrinsic_call<F>("federated_zip_at_server", static_cast<S&&>(s));
  }
}

template <class A, class B, class... C>
  requires detail::convertible<A> && detail::convertible<B>
constexpr auto federated_zip(A&& a, B&& b, C&&... c) {
  return federated_zip(std::tuple<A&&, B&&, C&&...>(static_cast<A&&>(a), static_cast<B&&>(b),
                                                    static_cast<C&&>(c)...));
}

}  // namespace ctff
