// The trace context: one graph being recorded, plus what keeps binding order equal to Python's.
//
// Order: C++ leaves the order of function-argument evaluation unspecified (g++'s generated code goes
// right to left). Each value remembers the span of bindings its own temporary subtree created;
// when one call consumes several temporaries whose spans form the tail of the bindings, the tail
// is put back into argument order. Named values (lvalues) never move.
//
// Floating contexts: a value made from constants alone (federated_value(10, SERVER) in a
// computation without parameters) has no trace to record into, because constant evaluation has no
// mutable globals. It records into a heap-allocated floating context that is merged into the
// first real context it meets (its nodes appended, the old context forwarding to the new place).
// Nested traces that need to know their enclosing traces (polymorphic computations, renamed
// `name_1` on a clash) are deferred in a floating context and run when it joins a real one.
#pragma once

#include <cstdint>
#include <source_location>
#include <string_view>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/trace/error.hpp"
#include "ctff/trace/fault.hpp"
#include "ctff/types/type_string.hpp"

namespace ctff::detail {

struct trace_ctx;

// An embedded computation that can only be traced once its enclosing trace is known: a
// polymorphic computation used in a floating context (whose parent chain, needed for `name_1`
// renaming, is unknown until the merge). It fills embeds[index] of the context it runs in.
struct deferred_embed {
  std::uint32_t index = 0;
  constexpr virtual void run(trace_ctx& into) const = 0;
  constexpr virtual ~deferred_embed() = default;
};

// A node's binding-order bookkeeping (trace/binding_order.hpp, restore_order), in a pool of the
// trace beside its nodes, so that the graph an output reads carries none of it. (No default
// member initializers: a trivial type grows its pool with one copy, see core/scratch.hpp.)
struct node_order {
  std::uint32_t live;        // value handles naming the node (a bound call: its Reference)
  std::uint32_t seq;         // a bound call: its binding number, in creation order; else no_node
  std::uint32_t user;        // a bound call: seq of the first bound call whose operands use it
  std::uint32_t held, died;  // trace events: the last new handle, the last handle gone
};
inline constexpr node_order new_node_order{0, no_node, no_node, 0, 0};

// Where a bound intrinsic call was written: recorded by run-time traces compiled by g++ only,
// whose generated code evaluates function arguments right to left (trace/written_order.hpp).
struct call_site {
  std::uint32_t call;  // the bound call's node
  std::source_location where;
};

struct trace_ctx : graph {
  scratch<node_order> order;  // one per node (add keeps them in step)
  trace_ctx* parent = nullptr;  // the enclosing trace: name clashes (`name_1`), kept failures
  // Where nested traces under this one log their names (floating only, while trace_floating in
  // trace/polymorphic.hpp traces into it); null otherwise.
  scratch<std::string_view>* name_log = nullptr;
  bool floating = false;
  bool named = false;                 // floating only: reached an operation through a variable
  int refs = 0;                       // floating only: values that point here
  trace_ctx* forward = nullptr;       // floating only: merged into this context
  std::uint32_t node_offset = 0, binding_offset = 0;
  // Handle events (track): counted, so that the traced function's result can tell its locals,
  // which die after it is made, from a helper's, which die before (alive_after, trace_into).
  std::uint32_t events = 0, alive_after = 0;
  scratch<deferred_embed*> deferred;  // floating only: owned, run when merged into a trace
  // Floating: where the value that made it was made; nested: where its computation was made.
  made_where made{};
  trace_fault fault{};  // compile time: the first failure (trace/fault.hpp)
#if !defined(__clang__)
  scratch<call_site> sites;  // run time only: where each bound intrinsic call was written
  // Run time only: trace/written_order.hpp's check, set by a run-time trace (runtime_outputs) and
  // found by its nested traces through `parent`. (A pointer, so that the compile-time traces'
  // trace_into does not instantiate it: +2 % of the FedAvg TU's instructions on g++ otherwise.)
  void (*check_order)(const trace_ctx&) = nullptr;
#endif

  constexpr trace_ctx() = default;
  trace_ctx(const trace_ctx&) = delete;
  trace_ctx& operator=(const trace_ctx&) = delete;
  constexpr ~trace_ctx() {
    for (auto* d : deferred) delete d;
  }

  // The only way a node enters a trace: with its bookkeeping (graph has no `add`).
  constexpr std::uint32_t add(const node& n) {
    order.push_back(new_node_order);
    nodes.push_back(n);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }
  template <class T>
  constexpr std::uint32_t add_typed(node n) {
    auto tb = type_bytes<T>();
    n.type = tb.data();
    n.type_size = static_cast<std::uint32_t>(tb.size());
    return add(n);
  }
};

// Where a value lives after any merges.
struct location {
  trace_ctx* ctx = nullptr;
  std::uint32_t id = 0;
  std::uint32_t first = 0, last = 0;  // span of bindings its temporary subtree created
};

CTFF_DEFER
constexpr location resolve(location l) {
  while (l.ctx && l.ctx->forward) {
    l.id += l.ctx->node_offset;
    l.first += l.ctx->binding_offset;
    l.last += l.ctx->binding_offset;
    l.ctx = l.ctx->forward;
  }
  return l;
}

// A run-time trace cannot throw from a destructor (value's); the first error waits here until the
// trace ends and is thrown then as trace_failure (runtime_outputs::trace,
// trace/runtime_outputs.hpp), unless `at_once` (nothing to trace on: thrown at once). During
// constant evaluation it is thrown at once; a failure a trace can keep goes to trace_fault_in
// (below) instead.
CTFF_DEFER
inline const char*& pending_trace_error() {
  thread_local const char* e = nullptr;
  return e;
}
// (A template: g++ rejects a non-template constexpr function that names a non-constexpr one.)
template <int = 0>
constexpr void trace_error(const char* what, bool at_once = false) {
  // (Written so that g++ sees a path that is a constant expression: otherwise its report explains
  // why the function never is one, repeating the whole evaluation chain.)
  if (std::is_constant_evaluated()) {
    if (what) throw what;
  } else {
    if (at_once) throw trace_failure(what);
    if (!pending_trace_error()) pending_trace_error() = what;
  }
}

// The run-time trace being recorded on this thread (the innermost), or null: a run-time
// computation made inside it is traced as its child (Python traces a computation where it is
// defined, under the traces then running).
CTFF_DEFER
inline trace_ctx*& active_trace() {
  thread_local trace_ctx* t = nullptr;
  return t;
}
// Makes c the active trace while it lives (run time only; nothing during constant evaluation).
template <int = 0>
struct active_trace_scope {
  trace_ctx* outer = nullptr;
  constexpr explicit active_trace_scope(trace_ctx* c) {
    if (!std::is_constant_evaluated()) {
      outer = active_trace();
      active_trace() = c;
    }
  }
  active_trace_scope(const active_trace_scope&) = delete;
  active_trace_scope& operator=(const active_trace_scope&) = delete;
  constexpr ~active_trace_scope() {
    if (!std::is_constant_evaluated()) active_trace() = outer;
  }
};

// (The line that made the value is an argument so that the compilers' account of a failed
// compile-time trace shows it. clang prints the values of the arguments of the calls it went
// through. g++ prints their expressions, but the value of a subscript out of bounds: there the
// evaluation fails on one, "array subscript value 'N'" where N is the line, in a call whose note
// shows the message.)
#if !defined(__clang__)
template <int = 0>
constexpr void trace_error_made_at(const char* what, std::uint32_t value_made_at_line) {
  if (std::is_constant_evaluated() && value_made_at_line != 0 && ""[value_made_at_line]) return;
  trace_error(what);
}
#endif
CTFF_DEFER
constexpr void unused_constant_value(std::uint32_t made_at_line) {
#if defined(__clang__)
  (void)made_at_line;
  trace_error(CTFF_UNUSED_CONSTANT_VALUE_MESSAGE);
#else
  trace_error_made_at(CTFF_UNUSED_CONSTANT_VALUE_MESSAGE, made_at_line);
#endif
}

// Where a failure found in c is kept during constant evaluation (trace/fault.hpp): the floating
// context or outermost trace that c is or runs in. Null at run time, where failures throw.
CTFF_DEFER
constexpr trace_ctx* fault_keeper(trace_ctx& c) {
  if (!std::is_constant_evaluated()) return nullptr;
  trace_ctx* k = &c;
  while (!k->floating && k->parent) k = k->parent;
  return k;
}

// A failure found by the trace: kept (reported once the outputs are asked for), else trace_error.
CTFF_DEFER
constexpr void trace_fault_in(trace_ctx& c, fault_kind kind, const made_where& made,
                              bool at_once = false) {
  if (trace_ctx* k = fault_keeper(c)) {
    if (is(k->fault.kind, fault_kind::none)) k->fault = trace_fault{kind, made};
    return;
  }
  trace_error(fault_message(kind), at_once);
}

CTFF_DEFER
constexpr void retain(trace_ctx* c) {
  if (c && c->floating) ++c->refs;
}
CTFF_DEFER
constexpr void release(trace_ctx* c) {
  while (c && c->floating && --c->refs == 0) {
    trace_ctx* next = c->forward;
    if (!next && !c->bindings.empty()) unused_constant_value(c->made.line);
    delete c;
    c = next;  // a forwarded context held one reference on its target
  }
}

// Counts the value handles naming a node (a Reference to a bound call counts on the call), so that
// restore_order can tell a binding that a variable still holds from one whose handles are gone.
CTFF_DEFER
constexpr void track(const location& l, int delta) {
  trace_ctx* c = l.ctx;
  if (!c) return;
  std::uint32_t id = l.id;
  for (; c->forward; c = c->forward) id += c->node_offset;
  const node& nd = c->nodes[id];
  node_order& n = c->order[is(nd.kind, node_kind::symbol_ref) ? nd.a : id];
  n.live += static_cast<std::uint32_t>(delta);  // modulo 2^32: -1 decrements
  ++c->events;
  if (delta > 0) n.held = c->events;
  if (n.live == 0) n.died = c->events;
}

CTFF_DEFER
constexpr trace_ctx* new_floating() {
  auto* c = new trace_ctx{};
  c->floating = true;
  return c;
}

// Traces the deferred embeds of a context that now belongs to a real trace.
CTFF_DEFER
constexpr void run_deferred(trace_ctx& c) {
  while (!c.deferred.empty()) {
    struct owner {
      deferred_embed* d;
      constexpr ~owner() { delete d; }
    } const o{c.deferred.back()};
    c.deferred.pop_back();
    o.d->run(c);
  }
}

// Appends everything `from` recorded to `to` and leaves `from` forwarding there.
CTFF_DEFER
constexpr void merge_into(trace_ctx& to, trace_ctx& from) {
  const auto no = static_cast<std::uint32_t>(to.nodes.size());
  const auto eo = static_cast<std::uint32_t>(to.elems.size());
  const auto lo = static_cast<std::uint32_t>(to.lits.size());
  const auto eb = static_cast<std::uint32_t>(to.embeds.size());
  const auto dof = static_cast<std::uint32_t>(to.dims.size());
  const auto vo = static_cast<std::uint32_t>(to.vals.size());
  const auto co = static_cast<std::uint32_t>(to.chars.size());
  const auto bo = static_cast<std::uint32_t>(to.byte_pool.size());
  const auto bo0 = static_cast<std::uint32_t>(to.bindings.size());
  if (from.named && !from.bindings.empty() && bo0 != 0)
    trace_fault_in(to, fault_kind::kept_constant_value, from.made);
  if (!is(from.fault.kind, fault_kind::none)) trace_fault_in(to, from.fault.kind, from.fault.made);
  for (node_order o : from.order) {
    if (o.seq != no_node) o.seq += bo0;
    if (o.user != no_node) o.user += bo0;
    o.held = o.died = 0;  // another context's events
    to.order.push_back(o);
  }
  for (node n : from.nodes) {
    switch (n.kind) {
      case node_kind::symbol_ref: case node_kind::lambda: case node_kind::block: n.a += no; break;
      case node_kind::selection: n.a += no; break;
      case node_kind::struct_: n.a += eo; break;
      case node_kind::call:
        n.a += no;
        if (n.b != no_node) n.b += no;
        break;
      case node_kind::literal: n.a += lo; break;
      case node_kind::embedded: n.a += eb; break;
      default: break;
    }
    to.nodes.push_back(n);
  }
  for (struct_elem e : from.elems) {
    e.value += no;
    to.elems.push_back(e);
  }
  for (lit l : from.lits) {
    l.dim_begin += dof;
    l.val_begin += vo;
    to.lits.push_back(l);
    if (is(l.dt, dtype::str))
      for (std::uint32_t k = 0; k < l.val_count; k += 2) from.vals[l.val_begin - vo + k] += co;
  }
  for (auto d : from.dims) to.dims.push_back(d);
  for (auto v : from.vals) to.vals.push_back(v);
  for (auto ch : from.chars) to.chars.push_back(ch);
  for (auto b : from.byte_pool) to.byte_pool.push_back(b);
  for (embed e : from.embeds) {
    if (e.owned) {
      e.bytes_off += bo;
      e.compact_off += co;
      e.formatted_off += co;
    }
    to.embeds.push_back(e);
  }
  if (to.floating) to.named = to.named || from.named;
#if !defined(__clang__)
  for (call_site s : from.sites) {
    s.call += no;
    to.sites.push_back(s);
  }
#endif
  from.binding_offset = static_cast<std::uint32_t>(to.bindings.size());
  for (auto b : from.bindings) to.bindings.push_back(b + no);
  from.node_offset = no;
  from.forward = &to;
  retain(&to);
  for (auto* d : from.deferred) {
    d->index += eb;
    to.deferred.push_back(d);
  }
  from.deferred.clear();
  if (!to.floating) run_deferred(to);
}

}  // namespace ctff::detail
