// ctff::polymorphic<"name">(fn): a computation without declared parameter types (Python's
// `@federated_computation` on a function with parameters but no types). It is traced anew, inside
// the enclosing trace, for each concrete use:
//   * where a function value of known parameter type is expected (federated_map, federated_apply,
//     aggregation operators, ...), the operator hands over the parameter type (`instantiate<P>()`):
//     the parameter type is exactly P and fn takes it whole (or one argument per element of a
//     struct P when it cannot take it whole);
//   * called directly, `poly(x, y)`: the parameter type is the unnamed struct of the argument
//     types, always a struct even for one argument (`<int32>`), and fn gets one argument per
//     element; the call is bound to a Block local like any computation call.
// The nested trace's context name is `name`, or `name_1`, `name_2`, ... when an enclosing trace
// already has that name (Python's FederatedComputationContext naming). Its Computation is written
// into the enclosing graph's pools, so compile-time and run-time traces give the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/defer.hpp"
#include "ctff/ast/print.hpp"
#include "ctff/ast/serialize.hpp"
#include "ctff/ast/structural.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/trace/computation.hpp"
#include "ctff/trace/embed.hpp"

namespace ctff {
namespace detail {

CTFF_DEFER
constexpr void spell_context_name(text_sink& s, std::string_view name, std::uint32_t suffix) {
  s.put(name);
  if (suffix) {
    s.put('_');
    s.put_uint(suffix);
  }
}

// Whether `a[_ka]` and `b[_kb]` are the same string (`x_1` with suffix 0 equals `x` with suffix 1).
CTFF_DEFER
constexpr bool same_context_name(std::string_view a, std::uint32_t ka, std::string_view b,
                                 std::uint32_t kb) {
  if (ka == kb) return a == b;
  text_sink ca{}, cb{};
  spell_context_name(ca, a, ka);
  spell_context_name(cb, b, kb);
  if (ca.n != cb.n) return false;
  scratch<char> x, y;
  x.assign(ca.n, '\0');
  y.assign(cb.n, '\0');
  text_sink wa{x.data()}, wb{y.data()};
  spell_context_name(wa, a, ka);
  spell_context_name(wb, b, kb);
  return std::string_view(x.data(), x.size()) == std::string_view(y.data(), y.size());
}

// The suffix a new trace named `name` gets under `parent`: the smallest k such that `name[_k]`
// is the full name of no enclosing trace.
CTFF_DEFERRED
constexpr std::uint32_t context_suffix(const trace_ctx* parent, std::string_view name) {
  for (std::uint32_t k = 0;; ++k) {
    bool clash = false;
    for (const trace_ctx* p = parent; p && !clash; p = p->parent)
      clash = same_context_name(p->name, p->suffix, name, k);
    if (!clash) return k;
  }
}

// The function the nested trace runs: fn with the parameter whole (Python's unpack=None: whole
// when fn can take it, else unpacked), or always unpacked (a direct call, unpack=True).
template <class Fn, class P, bool Unpack>
struct poly_body {
  Fn fn;
  constexpr auto operator()(value<P> p) const {
    if constexpr (Unpack) {
      return call_unpacked(fn, p, std::make_index_sequence<struct_info<P>::size>{});
    } else {
      return call_body(fn, std::move(p));
    }
  }
};

// Traces `body` with parameter type P as a child of `into` and stores the result in
// into.embeds[index]. `made`: where the computation was made, if known (for a kept failure).
template <fixed_string Name, class Body, class P>
constexpr void trace_nested(trace_ctx& into, const Body& body, std::uint32_t index,
                            const made_where& made) {
  trace_ctx child;
  child.parent = &into;
  child.made = made;
  child.suffix = context_suffix(&into, Name.view());
  for (const trace_ctx* p = &into; p; p = p->parent)
    if (p->name_log) {
      p->name_log->push_back(Name.view());
      break;
    }
  const active_trace_scope<> active(&child);
  const std::uint32_t root = trace_into<Body, P>(body, Name.view(), child);
  const serializer s(child);
  printer p(child);
  embed e{};
  own_bytes(into, e, [&](byte_sink& b) { s.write(root, b); });
  own_text(
      into, [&](text_sink& t) { p.print(root, t); }, false, e.compact_off, e.compact_len);
  own_text(
      into, [&](text_sink& t) { p.print(root, t); }, true, e.formatted_off, e.formatted_len);
  const structural_writer drawing(child, root, true);
  own_structural(into, e, drawing.size(), [&](char* out) { drawing.write(out); });
  into.embeds[index] = e;
}

// A use in a floating context: traced when the context joins its real trace (only then is the
// chain of enclosing names known).
template <fixed_string Name, class Body, class P>
struct deferred_trace final : deferred_embed {
  Body body;
  constexpr deferred_trace(const Body& b, std::uint32_t i) : body(b) { index = i; }
  // User-provided: g++ 12 would otherwise define the implicit destructor only after the constant
  // evaluation that deletes through the base ("used before its definition").
  constexpr ~deferred_trace() override {}
  constexpr void run(trace_ctx& into) const override {
    trace_nested<Name, Body, P>(into, body, index, {});
  }
};

// A function with captures used in a floating context, traced at once (trace_floating): checks,
// when the context joins its trace, that no name of that trace's chain could have renamed what
// was traced (`name_1`), conservatively: no traced name equal to an enclosing one, or one of them
// the other followed by '_'. At run time the names were those of the trace then running: nothing
// to check when the context joins that one.
struct checked_embed final : deferred_embed {
  scratch<std::string_view> names;  // of the traces nested under the floating context
  trace_ctx* assumed = nullptr;  // run time: the trace whose names were used
  made_where made{};  // where the computation was made, if known
  constexpr ~checked_embed() override {}  // (as deferred_trace's)
  static constexpr bool related(std::string_view a, std::string_view b) {
    if (a.size() < b.size()) std::swap(a, b);
    return same_text(a.substr(0, b.size()), b) && (a.size() == b.size() || a[b.size()] == '_');
  }
  constexpr void run(trace_ctx& into) const override {
    for (const trace_ctx* p = assumed == &into ? nullptr : &into; p; p = p->parent)
      for (std::string_view n : names)
        if (related(p->name, n)) {
          trace_fault_in(into, fault_kind::floating_renamed, made, true);  // kept: the trace goes on
          return;
        }
    // Joined a trace that is itself traced early (nested floating uses): its names are checked
    // again when that one joins.
    for (const trace_ctx* p = &into; p; p = p->parent)
      if (p->name_log) {
        for (std::string_view n : names) p->name_log->push_back(n);
        break;
      }
  }
};

// Traces `body` for a use in the floating context c, at once rather than when c joins its trace:
// the body's captures may refer to locals of the traced function, gone by then. Under the trace
// running now at run time (active_trace(), the one c will join), under none at compile time.
template <fixed_string Name, class Body, class P>
constexpr void trace_floating(trace_ctx& c, const Body& body, std::uint32_t index,
                              const made_where& made) {
  auto* check = new checked_embed;
  check->made = made;
  c.deferred.push_back(check);
  if (!std::is_constant_evaluated()) check->assumed = active_trace();
  auto* const outer_log = c.name_log;
  trace_ctx* const outer_parent = c.parent;
  c.name_log = &check->names;
  c.parent = check->assumed;
  trace_nested<Name, Body, P>(c, body, index, made);
  c.parent = outer_parent;
  c.name_log = outer_log;
}

// A use in a floating context: a function without captures is traced when the context joins its
// trace (then its names are known), any other at once (trace_floating).
template <fixed_string Name, class Fn, class Body, class P>
constexpr void trace_in_floating(trace_ctx& c, const Body& body, std::uint32_t index,
                                 const made_where& made) {
  if constexpr (std::is_empty_v<Fn>)
    c.deferred.push_back(new deferred_trace<Name, Body, P>(body, index));
  else
    trace_floating<Name, Body, P>(c, body, index, made);
}

// One concrete use of a polymorphic computation: a function value of type (P -> R).
template <fixed_string Name, class Fn, class P, bool Unpack>
class poly_instance {
 public:
  using body_type = poly_body<Fn, P, Unpack>;
  using param_type = P;
  using result_type = value_type_t<typename body_result<body_type, P>::type>;
  using type = function_t<P, result_type>;

  constexpr explicit poly_instance(const Fn& fn) : body_{fn} {}

  static constexpr std::string_view name() { return Name.view(); }
  constexpr const body_type& body() const { return body_; }

  template <class... X>
  constexpr auto operator()(X&&... x) const {
    return call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  body_type body_;
};

template <fixed_string N, class Fn, class P, bool U>
struct convert<poly_instance<N, Fn, P, U>> {
  static constexpr bool ok = true;
  using C = poly_instance<N, Fn, P, U>;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C& x) {
    const auto index = static_cast<std::uint32_t>(c.embeds.size());
    c.embeds.push_back(embed{});
    if (c.floating) {
      trace_in_floating<N, Fn, typename C::body_type, P>(c, x.body(), index);
    } else {
      trace_nested<N, typename C::body_type, P>(c, x.body(), index, {});
    }
    return embedded_node(c, index);
  }
};

}  // namespace detail

// A computation traced per use; see the top of this file.
template <fixed_string Name, class Fn>
class polymorphic_t {
 public:
  using fn_type = Fn;

  constexpr explicit polymorphic_t(Fn fn) : fn_(std::move(fn)) {}

  static constexpr std::string_view name() { return Name.view(); }

  // The instance for parameter type P (a TFF or C++ type), as an operator that knows the
  // parameter type asks for it (see detail::with_param_hint).
  template <class P>
  constexpr auto instantiate() const {
    return detail::poly_instance<Name, Fn, tff_t<P>, false>(fn_);
  }

  // Inside a trace: traced for the parameter type <types of x...> and called with <x...>.
  template <class... X>
  requires(detail::convertible<X>&&...) constexpr auto operator()(X&&... x) const {
    using P = struct_t<detail::value_type_t<X>...>;
    if constexpr (sizeof...(X) == 0) {
      static_assert(sizeof...(X) > 0,
                    "ctff: polymorphic: call it with at least one argument (a function without "
                    "parameters is a ctff::computation<\"name\">)");
      return detail::poisoned<tensor<dtype::int32>>();
    } else if constexpr (std::is_void_v<
                      typename detail::body_result<detail::poly_body<Fn, P, true>, P>::type>) {
      static_assert(
          !std::is_void_v<typename detail::body_result<detail::poly_body<Fn, P, true>, P>::type>,
          "ctff: polymorphic: the traced function returned nothing");
      return detail::poisoned<tensor<dtype::int32>>();
    } else {
      return detail::call_function(detail::poly_instance<Name, Fn, P, true>(fn_),
                                   std::tuple<X&&...>(static_cast<X&&>(x)...));
    }
  }

 private:
  Fn fn_;
};

template <fixed_string Name, class Fn>
constexpr auto polymorphic(Fn fn) {
  if constexpr (!detail::is_valid_computation_name(Name.view()))
    CTFF_DIAGNOSE(detail::name_report<"name", Name>::shown,
                  "ctff: polymorphic: the name must be a Python identifier and not a keyword "
                  "(Python names a computation after its function)");
  return polymorphic_t<Name, Fn>(std::move(fn));
}

}  // namespace ctff
