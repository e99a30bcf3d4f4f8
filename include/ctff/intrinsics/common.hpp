// What every intrinsic shares: Call(Intrinsic(uri, concrete type), arg) bound to a Block local,
// with a multi-part argument packed as an unnamed Struct; type helpers for federated types.
#pragma once

#include <string_view>

#include "ctff/trace/call.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

template <class T> struct fed_info { static constexpr bool is_fed = false; };
template <class T, placement_kind P, bool A> struct fed_info<federated_t<T, P, A>> {
  static constexpr bool is_fed = true;
  using member = T;
  static constexpr placement_kind where = P;
  static constexpr bool all_equal = A;
};

template <class V> using member_t = typename fed_info<V>::member;

template <class V>
inline constexpr bool at_clients_v = fed_info<V>::is_fed && fed_info<V>::where == placement_kind::clients;
template <class V>
inline constexpr bool at_server_v = fed_info<V>::is_fed && fed_info<V>::where == placement_kind::server;

template <class T> using clients_t = federated_t<T, placement_kind::clients, false>;
template <class T> using clients_eq_t = federated_t<T, placement_kind::clients, true>;
template <class T> using server_t = federated_t<T, placement_kind::server, true>;

// A function argument whose parameter type is known only from its use (a polymorphic
// computation) is made concrete with the type it will be called with; anything else passes as is.
template <class Hint, class X>
constexpr decltype(auto) with_param_hint(X&& x) {
  if constexpr (requires { x.template instantiate<Hint>(); }) {
    return x.template instantiate<Hint>();
  } else {
    return static_cast<X&&>(x);
  }
}

// Calls intrinsic `uri` of concrete type F with the given arguments (one: as is; several: an
// unnamed Struct) and binds the call. The result type R is F's result.
template <class F, class... X>
constexpr auto intrinsic_call(std::string_view uri, X&&... x) {
  using R = typename fn_info<F>::result;
  auto g = gather(nullptr, static_cast<X&&>(x)...);
  trace_ctx& c = *g.ctx;
  const std::uint32_t fn = intrinsic_node<F>(c, uri);
  const std::uint32_t ids[] = {convert_t<X>::make(c, x)...};
  std::uint32_t arg = ids[0];
  if constexpr (sizeof...(X) > 1) {
    using A = struct_t<value_type_t<X>...>;
    auto tb = type_bytes<A>();
    arg = struct_node(c, ids, nullptr, sizeof...(X), tb.data(), tb.size());
  }
  return bound_call<R>(c, fn, arg, g.span_first);
}

}  // namespace ctff::detail
