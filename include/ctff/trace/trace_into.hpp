// The traced function: its parameter (ctff::arg and the packing: trace/arg.hpp), how it is called
// (the parameter whole, or one argument per struct element) and trace_into, which records the
// whole computation into a trace context, at compile time or at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/enum_is.hpp"
#include "ctff/trace/arg.hpp"
#include "ctff/trace/binding_order.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/struct_ops.hpp"
#include "ctff/types/aliases.hpp"

namespace ctff {
namespace detail {

// The traced function takes the parameter whole, or one argument per struct element.
template <class Fn, class P, std::size_t... I>
constexpr auto call_unpacked(const Fn& fn, const value<P>& p, std::index_sequence<I...>) {
  return fn(select<I>(p)...);
}

template <class Fn, class P>
constexpr auto call_body(const Fn& fn, value<P> p) {
  if constexpr (std::is_invocable_v<const Fn&, value<P>>) {
    return fn(std::move(p));
  } else if constexpr (struct_info<P>::is_struct) {
    return call_unpacked(fn, p, std::make_index_sequence<struct_info<P>::size>{});
  } else {
    static_assert(std::is_invocable_v<const Fn&, value<P>>,
                  "ctff: computation: the traced function must take the parameter whole, or one "
                  "argument per element of a struct parameter");
  }
}

// Whether call_body can call fn (checked by computation() before anything instantiates call_body).
template <class Fn, class P, std::size_t... I>
constexpr bool invocable_unpacked(std::index_sequence<I...>) {
  return std::is_invocable_v<const Fn&, decltype(select<I>(std::declval<const value<P>&>()))...>;
}
template <class Fn, class P>
constexpr bool body_invocable() {
  if constexpr (std::is_void_v<P>)
    return std::is_invocable_v<const Fn&>;
  else if constexpr (std::is_invocable_v<const Fn&, value<P>>)
    return true;
  else if constexpr (struct_info<P>::is_struct)
    return invocable_unpacked<Fn, P>(std::make_index_sequence<struct_info<P>::size>{});
  else
    return false;
}

template <class Fn, class P>
struct body_result {
  using type = decltype(call_body(std::declval<const Fn&>(), std::declval<value<P>>()));
};
template <class Fn>
struct body_result<Fn, void> {
  using type = decltype(std::declval<const Fn&>()());
};

// The trace event at which the traced function's result was complete: the last new handle on the
// values it holds (in ctx; 0 if none).
template <class R>
constexpr std::uint32_t made_at(trace_ctx& ctx, const R& result) {
  scratch<operand> ops;
  convert_t<R>::collect(result, false, ops);
  std::uint32_t at = 0;
  for (const auto& o : ops) {
    const location l = resolve(o.loc);
    if (l.ctx != &ctx) continue;
    const node& n = ctx.nodes[l.id];
    const bool ref = detail::is(n.kind, node_kind::symbol_ref);
    const std::uint32_t held = ctx.order[ref ? n.a : l.id].held;
    if (held > at) at = held;
  }
  return at;
}

// The traced function's result, called on the parameter (a named function, not a lambda: the
// compilers' account of a failed trace names it in one line).
template <class Fn, class P>
constexpr auto run_body(const Fn& fn, trace_ctx& ctx) {
  if constexpr (std::is_void_v<P>) {
    return fn();
  } else {
    const std::uint32_t param = ctx.add_typed<P>({.kind = node_kind::param_ref});
    return call_body(fn, make_value<P>(ctx, param, no_node));
  }
}

// Records the whole computation into ctx and returns the root Lambda node.
template <class Fn, class P>
constexpr std::uint32_t trace_into(const Fn& fn, std::string_view name, trace_ctx& ctx) {
  using Res = typename body_result<Fn, P>::type;
  static_assert(!std::is_void_v<Res>, "ctff: computation: the traced function returned nothing");
  static_assert(convertible<Res>,
                "ctff: computation: the traced function must return a traced value, a constant, "
                "or a tuple of them");
  using R = value_type_t<Res>;
  ctx.name = name;
  std::uint32_t r;
  {
    auto result = run_body<Fn, P>(fn, ctx);
    // A bare value may be a variable returned by name (`return v;`): gathered as one, so that a
    // floating context it belongs to counts as reached through a variable. Tuple elements are
    // copies (named) or moved temporaries, which collect tells apart.
    // The body's locals died after its result was made, a helper's before: ordering the result's
    // elements, those count as alive (restore_order's variables).
    ctx.alive_after = made_at(ctx, result);
    if constexpr (is_value_v<Res>) {
      gather(&ctx, result);
    } else {
      gather(&ctx, std::move(result));
    }
    ctx.alive_after = 0;
#if !defined(__clang__)
    // The bindings are final: calls g++ made right to left that could not be put back fail here
    // (trace/written_order.hpp; run time only, through the pointer the run-time trace set).
    if (!std::is_constant_evaluated())
      for (const trace_ctx* p = &ctx; p; p = p->parent)
        if (p->check_order) {
          p->check_order(ctx);
          break;
        }
#endif
    r = convert_t<Res>::make(ctx, result);
  }
  std::uint32_t body = r;
  if (!ctx.bindings.empty()) {
    body = ctx.add_typed<R>({.kind = node_kind::block, .a = r});
  }
  return ctx.add_typed<function_t<P, R>>(
      {.kind = node_kind::lambda, .a = body, .b = std::is_void_v<P> ? 0u : 1u});
}

}  // namespace detail
}  // namespace ctff
