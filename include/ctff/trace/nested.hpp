// Nested traces: a computation traced inside another trace (an embedded computation named like an
// enclosing one, a computation made inside a compile-time trace, each use of a polymorphic
// computation). The nested trace's context name is `name`, or `name_1`, `name_2`, ... when an
// enclosing trace already has that name (Python's FederatedComputationContext naming). Its
// Computation is written into the enclosing graph's pools, so compile-time and run-time traces
// give the same bytes. Uses in a floating context (values made from constants only) are traced
// when it joins its trace, or at once with a check when the function has captures.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/ast/print.hpp"
#include "ctff/ast/serialize.hpp"
#include "ctff/ast/structural.hpp"
#include "ctff/core/defer.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/trace/context.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/trace/trace_into.hpp"

namespace ctff::detail {

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
CTFF_DEFER
constexpr std::uint32_t context_suffix(const trace_ctx* parent, std::string_view name) {
  for (std::uint32_t k = 0;; ++k) {
    bool clash = false;
    for (const trace_ctx* p = parent; p && !clash; p = p->parent)
      clash = same_context_name(p->name, p->suffix, name, k);
    if (!clash) return k;
  }
}

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
      dependent<Body>(*p->name_log).push_back(Name.view());
      break;
    }
  const active_trace_scope<> active(&child);
  const std::uint32_t root = trace_into<Body, P>(body, Name.view(), child);
  const dependent_t<Body, serializer> s(child);
  dependent_t<Body, printer> p(child);
  embed e{};
  own_bytes(into, e, [&](byte_sink& b) { s.write(root, b); });
  own_text(
      into, [&](text_sink& t) { p.print(root, t); }, false, e.compact_off, e.compact_len);
  own_text(
      into, [&](text_sink& t) { p.print(root, t); }, true, e.formatted_off, e.formatted_len);
  const dependent_t<Body, structural_writer> drawing(child, root, true);
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
// (A class template, made with D dependent on the body's type and naming its names through D: a TU
// that traces no such use compiles none of it, core/defer.hpp.)
template <class D>
struct checked_embed final : deferred_embed {
  dependent_t<D, scratch<std::string_view>> names;  // of the traces nested under the floating one
  trace_ctx* assumed = nullptr;  // run time: the trace whose names were used
  made_where made{};  // where the computation was made, if known
  constexpr ~checked_embed() override {}  // (as deferred_trace's)
  static constexpr bool related(std::string_view a, std::string_view b) {
    if (a.size() < b.size()) return related(b, a);
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
// `made`: where the computation was made (a kept failure names that line), if known.
template <fixed_string Name, class Body, class P>
constexpr void trace_floating(trace_ctx& c, const Body& body, std::uint32_t index,
                              const made_where& made = {}) {
  auto* check = new checked_embed<dependent_t<Body, void>>;
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
                                 const made_where& made = {}) {
  if constexpr (std::is_empty_v<Fn>)
    c.deferred.push_back(new deferred_trace<Name, Body, P>(body, index));
  else
    trace_floating<Name, Body, P>(c, body, index, made);
}

}  // namespace ctff::detail
