// Calling a function-typed value or a computation inside a trace: Call(f, arg) bound to a Block
// local. One argument is passed as it is; several are packed into a Struct named as the callee's
// parameter; none gives Call(f).
#pragma once

#include <string_view>

#include "ctff/core/diagnostic.hpp"
#include "ctff/trace/binding_order.hpp"
#include "ctff/trace/build.hpp"
#include "ctff/trace/convert.hpp"
#include "ctff/trace/struct_ops.hpp"
#include "ctff/trace/zip_types.hpp"
#include "ctff/types/inspect.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/report.hpp"

namespace ctff::detail {

// Several arguments packed as a Struct named like the callee's parameter struct.
template <class P, class... X>
struct call_pack;
template <class... E, class... X>
struct call_pack<struct_t<E...>, X...> {
  template <class Elem, class V> struct named { using type = V; };
  template <fixed_string N, class T, class V> struct named<field<N, T>, V> { using type = field<N, V>; };
  using type = struct_t<typename named<E, value_type_t<X>>::type...>;
};

// The argument type a call with arguments X... passes to a function of parameter type P: one
// argument as it is, several as a struct (named like P), none: void.
template <class P, class... X>
struct call_arg {
  using type = typename call_pack<P, X...>::type;
};
template <class P, class X>
struct call_arg<P, X> {
  using type = value_type_t<X>;
};
template <class P>
struct call_arg<P> {
  using type = void;
};

// Python's zip_if_needed: an argument (or the struct of several arguments) that is a struct of
// federated values and is not assignable to a federated parameter P, but whose zip is, is passed
// zipped, inline: federated_zip_at_*(<...>).
template <class P, class A, bool = zippable_v<A>>
inline constexpr bool zip_fits_v = false;
template <class P, class A>
inline constexpr bool zip_fits_v<P, A, true> = fed_info<P>::is_fed && !is_assignable_v<P, A> &&
                                               is_assignable_v<P, typename zip_of<A>::result>;

template <class P, class... X>
struct call_zip {  // several arguments: their unnamed struct
  static constexpr bool ok = zip_fits_v<P, struct_t<value_type_t<X>...>>;
};
template <class P, class X>
struct call_zip<P, X> {
  static constexpr bool ok = zip_fits_v<P, value_type_t<X>>;
};
template <class P>
struct call_zip<P> {
  static constexpr bool ok = false;
};

// Calls `callee` (a function-typed value or a computation) with arguments x...
// Whether the arguments fit the parameter (no arguments: checked by the caller). A function, not
// a condition of call_function's `if constexpr`: that would name is_assignable_v<void, ...>.
template <class P, class... X>
constexpr bool call_assignable() {
  if constexpr (sizeof...(X) == 0)
    return true;
  else
    return is_assignable_v<P, typename call_arg<P, X...>::type>;
}

template <class Callee, class... X>
constexpr auto call_function(Callee&& callee, X&&... x) {
  using F = value_type_t<Callee>;
  if constexpr (!is_function_v<F>) {
    CTFF_DIAGNOSE(report<labeled<"callee", F>>::shown, "ctff: call: the callee is not a function");
    return poisoned<tensor<dtype::int32>>();
  } else if constexpr (!(convertible<X> && ...)) {
    static_assert(cxx_types<X...>::shown,
                  "ctff: call: every argument must be a traced value, a constant, a computation or "
                  "a tuple of them");
    return poisoned<typename fn_info<F>::result>();
  } else {
    using P = typename fn_info<F>::param;
    using R = typename fn_info<F>::result;
    if constexpr (sizeof...(X) == 0 && !std::is_void_v<P>) {
      CTFF_DIAGNOSE(report<labeled<"function", F>>::shown,
                    "ctff: call: this function needs an argument");
      return poisoned<R>();
    } else if constexpr (sizeof...(X) != 0 && std::is_void_v<P>) {
      CTFF_DIAGNOSE(report<labeled<"function", F>>::shown,
                    "ctff: call: this function takes no argument");
      return poisoned<R>();
    } else if constexpr (call_zip<P, X...>::ok) {
      if constexpr (sizeof...(X) == 1) {
        return call_function(static_cast<Callee&&>(callee), auto_zip<X&&...>{static_cast<X&&>(x)...});
      } else {
        return call_function(static_cast<Callee&&>(callee),
                             auto_zip<std::tuple<X&&...>>{std::tuple<X&&...>(static_cast<X&&>(x)...)});
      }
    } else if constexpr (sizeof...(X) > 1 &&
                         !(struct_info<P>::is_struct && struct_info<P>::size == sizeof...(X))) {
      CTFF_DIAGNOSE(report<labeled<"function", F>>::shown,
                    "ctff: call: several arguments need a struct parameter of that many elements");
      return poisoned<R>();
    } else if constexpr (!call_assignable<P, X...>()) {
      using A = typename call_arg<P, X...>::type;
      CTFF_DIAGNOSE(report<labeled<"parameter", P>, labeled<"argument", A>>::shown,
                    "ctff: call: the argument is not assignable to the function's parameter type");
      return poisoned<R>();
    } else {
      auto g = gather(nullptr, static_cast<Callee&&>(callee), static_cast<X&&>(x)...);
      trace_ctx& c = *g.ctx;
      const std::uint32_t fn = convert_t<Callee>::make(c, callee);
      if constexpr (sizeof...(X) == 0) {
        return bound_call<R>(c, fn, no_node, g.span_first);
      } else if constexpr (sizeof...(X) == 1) {
        const std::uint32_t ids[] = {convert_t<X>::make(c, x)...};
        return bound_call<R>(c, fn, ids[0], g.span_first);
      } else {
        using A = typename call_pack<P, X...>::type;
        const std::uint32_t ids[] = {0u, convert_t<X>::make(c, x)...};
        auto tb = type_bytes<A>();
        auto arg =
            struct_node(c, ids + 1, struct_info<P>::names, sizeof...(X), tb.data(), tb.size());
        return bound_call<R>(c, fn, arg, g.span_first);
      }
    }
  }
}

}  // namespace ctff::detail

namespace ctff {
template <tff_type T>
template <class... A>
constexpr auto value<T>::operator()(A&&... a) const {
  return detail::call_function(*this, static_cast<A&&>(a)...);
}
}  // namespace ctff
