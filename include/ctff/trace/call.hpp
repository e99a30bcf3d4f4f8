// Calling a function-typed value or a computation inside a trace: Call(f, arg) bound to a Block
// local. One argument is passed as it is; several are packed into a Struct named as the callee's
// parameter; none gives Call(f).
#pragma once

#include <string_view>

#include "ctff/trace/convert.hpp"
#include "ctff/trace/struct_ops.hpp"
#include "ctff/types/relations.hpp"

namespace ctff::detail {

template <class F> struct fn_info;
template <class P, class R> struct fn_info<function_t<P, R>> {
  using param = P;
  using result = R;
};

// Several arguments packed as a Struct named like the callee's parameter struct.
template <class P, class... X>
struct call_pack;
template <class... E, class... X>
struct call_pack<struct_t<E...>, X...> {
  template <class Elem, class V> struct named { using type = V; };
  template <fixed_string N, class T, class V> struct named<field<N, T>, V> { using type = field<N, V>; };
  using type = struct_t<typename named<E, value_type_t<X>>::type...>;
};

template <class P, class A>
constexpr void check_call_arg() {
  static_assert(is_assignable_v<P, A>,
                "ctff: call: the argument is not assignable to the function's parameter type");
}

// Calls `callee` (a function-typed value or a computation) with arguments x...
template <class Callee, class... X>
constexpr auto call_function(Callee&& callee, X&&... x) {
  using F = value_type_t<Callee>;
  static_assert(is_function_v<F>, "ctff: call: the callee is not a function");
  using P = typename fn_info<F>::param;
  using R = typename fn_info<F>::result;
  auto g = gather(nullptr, static_cast<Callee&&>(callee), static_cast<X&&>(x)...);
  trace_ctx& c = *g.ctx;
  const std::uint32_t fn = convert_t<Callee>::make(c, callee);
  if constexpr (sizeof...(X) == 0) {
    static_assert(std::is_void_v<P>, "ctff: call: this function needs an argument");
    return bound_call<R>(c, fn, no_node, g.span_first);
  } else if constexpr (sizeof...(X) == 1) {
    static_assert(!std::is_void_v<P>, "ctff: call: this function takes no argument");
    check_call_arg<P, value_type_t<X>...>();
    const std::uint32_t ids[] = {convert_t<X>::make(c, x)...};
    return bound_call<R>(c, fn, ids[0], g.span_first);
  } else {
    static_assert(struct_info<P>::is_struct && struct_info<P>::size == sizeof...(X),
                  "ctff: call: several arguments need a struct parameter of that many elements");
    using A = typename call_pack<P, X...>::type;
    check_call_arg<P, A>();
    const std::uint32_t ids[] = {0u, convert_t<X>::make(c, x)...};
    auto tb = type_bytes<A>();
    auto arg = struct_node(c, ids + 1, struct_info<P>::names, sizeof...(X), tb.data(), tb.size());
    return bound_call<R>(c, fn, arg, g.span_first);
  }
}

}  // namespace ctff::detail

namespace ctff {
template <tff_type T>
template <class... A>
constexpr auto value<T>::operator()(A&&... a) const {
  static_assert(detail::is_function_v<T>, "ctff: call: the value is not a function");
  return detail::call_function(*this, static_cast<A&&>(a)...);
}
}  // namespace ctff
