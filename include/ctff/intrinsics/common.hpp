// What every intrinsic shares: Call(Intrinsic(uri, concrete type), arg) bound to a Block local,
// with a multi-part argument packed as an unnamed Struct; the concrete type checked against the
// intrinsic's generic signature; type helpers for federated types.
//
// Type rules are checked at the operator the user called, each by an `if constexpr` branch that
// fails one static_assert with a "ctff: <operator>: <rule>" message and the TFF types involved
// (types/report.hpp), then returns a stand-in value (detail::poisoned) so nothing else is
// instantiated or evaluated with bad types.
#pragma once

#include <source_location>
#include <string_view>
#include <type_traits>

#include "ctff/core/diagnostic.hpp"
#include "ctff/types/signatures.hpp"
#include "ctff/trace/binding_order.hpp"
#include "ctff/trace/build.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/types/inspect.hpp"
#include "ctff/types/instance.hpp"
#include "ctff/types/predicates.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/report.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

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

// The TFF type of an argument, or void when it has none (not a value, constant or computation).
template <class X, bool = convertible<X>>
struct type_or_void {
  using type = void;
};
template <class X>
struct type_or_void<X, true> {
  using type = value_type_t<X>;
};
template <class X>
using type_or_void_t = typename type_or_void<X>::type;

// Whether X is a function value (a computation, a function-typed value, ...).
template <class X>
inline constexpr bool is_function_arg_v = is_function_v<type_or_void_t<X>>;

// The argument type of the intrinsic call: one argument's type, or the unnamed struct of several.
template <class... X>
struct intrinsic_arg {
  using type = struct_t<value_type_t<X>...>;
};
template <class X>
struct intrinsic_arg<X> {
  using type = value_type_t<X>;
};

// Calls the intrinsic of row G (types/signatures.hpp) at concrete type F with the given arguments
// (one: as is; several: an unnamed Struct) and binds the call. The result type R is F's result.
// F is checked against G's signature by intrinsic_node, as the last line of defence: the
// operators check every rule first, with their own messages.
// `where`: the user's line, remembered by a value made from constants only (trace/fault.hpp);
// `site`: where the user wrote the call (bound_call).
template <class F, class G, class... X>
constexpr auto intrinsic_call_at(const made_where& where, const std::source_location& site,
                                 X&&... x) {
  using R = typename fn_info<F>::result;
  if constexpr (!is_assignable_v<typename fn_info<F>::param, typename intrinsic_arg<X...>::type>)
    static_assert(has_poison_v<F>,  // a failed check's stand-in: reported where it was made
                  "ctff internal error: an intrinsic's argument does not fit its parameter type");
  auto g = gather(nullptr, static_cast<X&&>(x)...);
  trace_ctx& c = *g.ctx;
  if (c.floating && !c.made.known()) c.made = where;
  const std::uint32_t fn = intrinsic_node<F, G>(c);
  const std::uint32_t ids[] = {convert_t<X>::make(c, x)...};
  std::uint32_t arg = ids[0];
  if constexpr (sizeof...(X) > 1) {
    using A = struct_t<value_type_t<X>...>;
    auto tb = type_bytes<A>();
    arg = struct_node(c, ids, sizeof...(X), tb.data(), tb.size());
  }
  return bound_call<R>(c, fn, arg, g.span_first, site);
}
template <class F, class G, class... X>
constexpr auto intrinsic_call(const std::source_location& site, X&&... x) {
  return intrinsic_call_at<F, G>(made_where{}, site, static_cast<X&&>(x)...);
}

// A bare Intrinsic node of type F as an argument (e.g. sequence_sum mapped over a federated
// sequence).
template <class F, class G>
struct bare_intrinsic {};
template <class F, class G>
struct convert<bare_intrinsic<F, G>> {
  static constexpr bool ok = true;
  using type = F;
  static constexpr void collect(const bare_intrinsic<F, G>&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const bare_intrinsic<F, G>&) {
    return intrinsic_node<F, G>(c);
  }
};

// Python's _unname_fn_parameter: a function whose parameter struct has names is passed as the
// lambda `(a -> fn(a))` with the unnamed parameter type P (the Call inline); otherwise as it is.
template <class P, class Fn>
struct unnamed_wrapper {
  Fn fn;  // a reference type
};
template <class P, class Fn>
struct convert<unnamed_wrapper<P, Fn>> {
  static constexpr bool ok = true;
  using R = typename fn_info<value_type_t<Fn>>::result;
  using type = function_t<P, R>;
  static constexpr void collect(const unnamed_wrapper<P, Fn>& w, bool temp,
                                scratch<operand>& ops) {
    convert_t<Fn>::collect(w.fn, temp && !std::is_lvalue_reference_v<Fn>, ops);
  }
  static constexpr std::uint32_t make(trace_ctx& c, const unnamed_wrapper<P, Fn>& w) {
    const std::uint32_t fn = convert_t<Fn>::make(c, w.fn);
    const std::uint32_t call = inline_call_node<R>(c, fn, named_ref_node<P>(c, "a"));
    return lambda_node<type>(c, "a", call);
  }
};

template <class Fn>
inline constexpr bool has_named_param_v =
    struct_info<typename fn_info<value_type_t<Fn>>::param>::any_named;

// The node of fn as unname_fn passes it (for operators that build their nodes themselves).
template <class P, class Fn>
constexpr std::uint32_t unnamed_fn_node(trace_ctx& c, const Fn& fn) {
  if constexpr (has_named_param_v<Fn>) {
    return convert<unnamed_wrapper<P, const Fn&>>::make(c, unnamed_wrapper<P, const Fn&>{fn});
  } else {
    return convert_t<Fn>::make(c, fn);
  }
}

template <class P, class Fn>
constexpr auto unname_fn(Fn&& fn) {
  if constexpr (has_named_param_v<Fn>) {
    return unnamed_wrapper<P, Fn&&>{static_cast<Fn&&>(fn)};
  } else {
    return static_cast<Fn&&>(fn);
  }
}

// The type a function argument has once passed through unname_fn.
template <class P, class Fn>
using unnamed_fn_t =
    std::conditional_t<has_named_param_v<Fn>,
                       function_t<P, typename fn_info<value_type_t<Fn>>::result>, value_type_t<Fn>>;

}  // namespace ctff::detail
