// Which trace an operation's operands belong to, and the order of its bindings: Python binds in
// the order its left-to-right evaluation creates calls; C++ may evaluate arguments in another
// order, and values made from constants only join a trace only when they meet it. `gather`
// collects an operation's operands (trace/convert.hpp), finds their trace (`unify`) and puts the
// bindings back into Python's order (`restore_order`).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/trace/convert.hpp"

namespace ctff::detail {

// How many traces enclose c.
CTFF_DEFER
constexpr std::uint32_t trace_depth(const trace_ctx* c) {
  std::uint32_t d = 0;
  for (; c->parent; c = c->parent) ++d;
  return d;
}

// The trace all operands belong to: `target` if given (the trace recording), else the innermost
// real trace among them (floating contexts are merged into it), else the first floating one
// reached through a variable, else the first floating one, else a new floating context. A
// floating context used through a variable is marked `named`: its bindings were made at some
// earlier, unknown point (see merge_into). An operand of another real trace (a capture of an
// enclosing trace's value) is a failure, kept at compile time: it is dropped, and made a stand-in
// node (convert<value<T>>::make).
// `made`: set to where the first temporary operand made from constants only was made, if known
// (the user's line for restore_order's diagnostic).
CTFF_DEFER
constexpr trace_ctx* unify(scratch<operand>& ops, trace_ctx* target = nullptr,
                           made_where* made = nullptr) {
  const bool given = target != nullptr;
  for (auto& o : ops) {
    o.loc = resolve(o.loc);
    auto* c = o.loc.ctx;
    o.floating = c->floating;
    if (c->floating && !o.temp) c->named = true;
    if (made && c->floating && o.temp && !made->known()) *made = c->made;
    if (!c->floating && !given && (!target || trace_depth(c) > trace_depth(target))) target = c;
  }
  if (target && !target->floating) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i != ops.size(); ++i) {
      trace_ctx* c = ops[i].loc.ctx;
      if (!c->floating && c != target)
        trace_fault_in(*target, fault_kind::foreign_value, target->made, true);
      else
        ops[kept++] = ops[i];
    }
    while (ops.size() != kept) ops.pop_back();
  }
  if (!target)
    for (auto& o : ops)
      if (!o.temp && !o.loc.ctx->bindings.empty()) {
        target = o.loc.ctx;
        break;
      }
  if (!target && !ops.empty()) target = ops.front().loc.ctx;
  if (!target) target = new_floating();
  for (auto& o : ops) {
    o.loc = resolve(o.loc);
    if (o.loc.ctx != target) merge_into(*target, *o.loc.ctx);
  }
  for (auto& o : ops) o.loc = resolve(o.loc);
  return target;
}

// Argument order. Python binds in the order its (left-to-right) evaluation creates calls; C++
// may evaluate function arguments in another order (g++'s generated code: right to left), and a
// floating context's bindings join a trace only when they meet it. The evaluation of one argument
// is never interleaved with another's, so the bindings each temporary operand created form a
// window of consecutive bindings; when the windows are out of argument order they are rewritten
// in argument order.
//
// A value's window first covers the bindings of its own operation and of the temporaries it
// consumed. A helper that keeps results in local variables leaves bindings before that window
// whose handles are gone by now: such a binding is taken into the window when a call inside the
// window was its first user and no live struct or selection still holds it.
// Whether a handle names node n, or named it until after the traced function's result was made
// (alive_after: a local of the traced function's body, which dies before its result is read).
CTFF_DEFER
constexpr bool alive(const trace_ctx& c, const node_order& n) {
  return n.live != 0 || (c.alive_after != 0 && n.died > c.alive_after);
}

CTFF_DEFER
constexpr bool held_inline(const trace_ctx& c, std::uint32_t from, std::uint32_t to) {
  const node* const nodes = c.nodes.data();  // (pointers: a call per element costs most)
  const node_order* const order = c.order.data();
  for (std::uint32_t k = from + 1; k < to; ++k) {
    const node_kind kind = nodes[k].kind;
    if (alive(c, order[k]) && order[k].seq == no_node &&
        is(kind, node_kind::struct_, node_kind::selection, node_kind::call))
      return true;
  }
  return false;
}

// Whether `hit` holds for a node of the inline tree under `id` (bound calls end it; a Reference is
// a leaf).
template <class Hit>
constexpr bool any_inline(const trace_ctx& c, std::uint32_t id, const Hit& hit) {
  if (id == no_node) return false;
  if (hit(id)) return true;
  const node& n = c.nodes[id];
  switch (n.kind) {
    case node_kind::selection: case node_kind::lambda: return any_inline(c, n.a, hit);
    case node_kind::call:
      return c.order[id].seq == no_node && (any_inline(c, n.a, hit) || any_inline(c, n.b, hit));
    case node_kind::struct_:
      for (std::uint32_t k = 0; k != n.b; ++k)
        if (any_inline(c, c.elems[n.a + k].value, hit)) return true;
      return false;
    default: return false;
  }
}

// Whether the inline tree under `id` refers to the bound call `target`.
CTFF_DEFER
constexpr bool refers_to(const trace_ctx& c, std::uint32_t id, std::uint32_t target) {
  // (`&c = c`: clang 22's bytecode interpreter cannot read a reference parameter captured by `&`.)
  return any_inline(c, id, [&c = c, target](std::uint32_t k) {
    return is(c.nodes[k].kind, node_kind::symbol_ref) && c.nodes[k].a == target;
  });
}

// Whether a call bound in [first, last) takes the bound call `target` as an operand.
CTFF_DEFER
constexpr bool window_uses(const trace_ctx& c, std::uint32_t first, std::uint32_t last,
                           std::uint32_t target) {
  for (std::uint32_t k = first; k < last; ++k) {
    const node& n = c.nodes[c.bindings[k]];
    if (is(n.kind, node_kind::call) && (refers_to(c, n.a, target) || refers_to(c, n.b, target)))
      return true;
  }
  return false;
}

// Whether a window of `ops` other than `self` uses `target`: the arguments are evaluated
// independently, so `target` was made before all of them (a variable, even once its handle is
// gone: a body's locals die before its result is converted).
CTFF_DEFER
constexpr bool used_by_other(const trace_ctx& c, const scratch<operand*>& ops,
                             const operand* self, std::uint32_t target) {
  for (const operand* p : ops)
    if (p != self && window_uses(c, p->loc.first, p->loc.last, target)) return true;
  return false;
}

// Unused results (no handle, no user) are taken only with a helper local below them: one
// argument's bindings are consecutive, so whatever lies between two of its bindings is its own
// (`auto s = sum(v); max(v); return broadcast(s);`). An unused result with nothing of the window
// below it stays outside: a helper's leading unused result and an earlier statement's leave the
// same trace (same bindings, same handle events), and Python binds them in different places.
CTFF_DEFER
constexpr std::uint32_t extend_window(const trace_ctx& c, std::uint32_t first, std::uint32_t last,
                                      std::uint32_t floor,
                                      const scratch<operand*>* ops = nullptr,
                                      const operand* self = nullptr) {
  for (std::uint32_t k = first; k > floor; --k) {  // [k, first): unused results, not yet taken
    const std::uint32_t call = c.bindings[k - 1];
    const node_order& n = c.order[call];
    if (alive(c, n)) break;
    // (A user inside [k, first) is an unused result's: taken with it or not at all.)
    if (n.user != no_node && (n.user < k || n.user >= last)) break;
    if (ops && used_by_other(c, *ops, self, call)) break;
    const std::uint32_t next = c.bindings[k];
    if (next < call || held_inline(c, call, next)) break;
    if (n.user != no_node && n.user >= first) first = k - 1;
  }
  return first;
}

// A temporary that bound nothing itself (a struct a helper returned) can hold the calls its
// helper bound and named: bindings just before it that no handle names, no call used, that it
// refers to and that no other live struct, selection or inline call holds (a variable's, also
// one inside the temporary: `make_struct(kept, x)`). They are its window, with the unused results
// between them and it (extend_window's rule). (An element selected from such a temporary takes
// the window at the selection.)
// (Found by the differential test: `f(federated_max(a), helper(b))`, where the helper returns
// `make_struct(b, s)` of its local `s`, kept g++'s run-time order.)
CTFF_DEFER
constexpr std::uint32_t extend_held(const trace_ctx& c, const operand& o, std::uint32_t floor) {
  const std::uint32_t id = o.loc.id;
  const node& self = c.nodes[id];
  std::uint32_t first = o.loc.first;
  for (std::uint32_t k = first; k > floor; --k) {  // [k, first): unused results, not yet taken
    const std::uint32_t call = c.bindings[k - 1];
    const node_order& n = c.order[call];
    // (The operand itself, when it is the call's Reference, is a handle on the call.)
    const std::uint32_t own = is(self.kind, node_kind::symbol_ref) && self.a == call ? 1 : 0;
    const bool named = n.live > own || (n.live == 0 && alive(c, n));
    if (named || call > id) break;
    const bool held = n.user == no_node && refers_to(c, id, call);
    if (!held && n.user != no_node && (n.user < k || n.user >= first)) break;
    const node* const nodes = c.nodes.data();
    const node_order* const order = c.order.data();
    for (auto m = static_cast<std::uint32_t>(c.nodes.size()); --m > call;) {
      const node_kind kind = nodes[m].kind;
      if (alive(c, order[m]) && order[m].seq == no_node &&
          is(kind, node_kind::struct_, node_kind::selection, node_kind::call) &&
          m != id && refers_to(c, m, call))
        return first;
    }
    if (held) first = k - 1;
  }
  return first;
}

// Whether this evaluation goes through function arguments left to right.
constexpr bool evaluates_left_to_right() {
#if defined(__clang__)
  return true;
#else
  return std::is_constant_evaluated();
#endif
}

// Puts the windows of temporary operands back into argument order; returns where the window of
// the value consuming them starts (no_node: it has none of its own operands).
CTFF_DEFER
constexpr std::uint32_t restore_order(trace_ctx& c, scratch<operand>& ops,
                                      const made_where& made = {}) {
  const auto end = static_cast<std::uint32_t>(c.bindings.size());
  for (auto& o : ops) {
    if (!o.temp || o.loc.first != o.loc.last || o.loc.first == 0) continue;
    std::uint32_t floor = 0;  // not into another temporary's window
    for (const auto& p : ops)
      if (&p != &o && p.temp && p.loc.first < p.loc.last && p.loc.last <= o.loc.first &&
          p.loc.last > floor)
        floor = p.loc.last;
    o.loc.first = extend_held(c, o, floor);
  }
  operand* only = nullptr;
  std::size_t temps = 0;
  for (auto& o : ops)
    if (o.temp && o.loc.first < o.loc.last) {
      ++temps;
      only = &o;
    }
  if (temps == 0) return no_node;
  if (temps == 1) return extend_window(c, only->loc.first, only->loc.last, 0);  // the usual case
  scratch<operand*> t;  // temporaries with bindings, in argument order
  t.reserve(temps);
  for (auto& o : ops)
    if (o.temp && o.loc.first < o.loc.last) t.push_back(&o);
  for (auto* o : t) {
    std::uint32_t floor = 0;
    for (auto* p : t)
      if (p != o && p->loc.last <= o->loc.first && p->loc.last > floor) floor = p->loc.last;
    o->loc.first = extend_window(c, o->loc.first, o->loc.last, floor, &t, o);
  }
  scratch<operand*> by_pos = t;  // in evaluation order
  for (std::size_t i = 1; i < by_pos.size(); ++i)
    for (std::size_t j = i; j > 0 && by_pos[j - 1]->loc.first > by_pos[j]->loc.first; --j) {
      auto* tmp = by_pos[j];
      by_pos[j] = by_pos[j - 1];
      by_pos[j - 1] = tmp;
    }
  const std::uint32_t lo = by_pos.front()->loc.first;
  bool in_order = true;
  for (std::size_t i = 0; i != t.size(); ++i) in_order = in_order && t[i] == by_pos[i];
  if (in_order) return lo;
  // Evaluated left to right (constant evaluation, clang's generated code), one call's arguments
  // are never out of order: windows out of order there are variables moved into the call
  // (`make_struct(std::move(x), std::move(y))`), which Python binds where they were made. Only
  // floating values are put back. (g++'s generated code cannot tell those variables from its
  // own right-to-left order, which it puts back: docs/design.md.)
  if (evaluates_left_to_right()) {
    bool any_floating = false;
    for (auto* o : t) any_floating = any_floating || o->floating;
    if (!any_floating) return lo;
  }
  // Out of order: every binding since lo must belong to exactly one window, and the binding before
  // lo must visibly belong to an earlier statement (a variable holds it, or an earlier call used
  // it); otherwise the evaluation order cannot be undone.
  std::uint32_t at = lo;
  for (auto* o : by_pos) {
    if (o->loc.first != at) at = no_node;
    if (at == no_node) break;
    at = o->loc.last;
  }
  bool known = at == end;
  if (known && lo != 0) {
    const std::uint32_t call = c.bindings[lo - 1];
    const node_order& before = c.order[call];
    // Named, used before, or held inline by a live struct or selection (a variable's): it
    // belongs to an earlier statement.
    known = alive(c, before) || (before.user != no_node && before.user < lo) ||
            held_inline(c, call, c.bindings[lo]) || used_by_other(c, t, by_pos.front(), call);
  }
  if (!known) {
    trace_fault_in(c, fault_kind::out_of_order, made);
    return no_node;
  }
  scratch<std::uint32_t> tail;
  tail.reserve(end - lo);
  for (auto* o : t)
    for (std::uint32_t k = o->loc.first; k != o->loc.last; ++k) tail.push_back(c.bindings[k]);
  for (std::uint32_t k = lo; k != end; ++k) c.bindings[k] = tail[k - lo];
  return lo;
}

// Operands of one operation, gathered from its arguments in argument order.
struct gathered {
  trace_ctx* ctx = nullptr;
  std::uint32_t span_first = no_node;  // where the result's span starts, if it covers temporaries
};

template <class... X>
constexpr gathered gather(trace_ctx* target, X&&... x) {
  scratch<operand> ops;
  (collect(static_cast<X&&>(x), ops), ...);
  gathered g;
  made_where made{};
  g.ctx = unify(ops, target, &made);
  g.span_first = restore_order(*g.ctx, ops, made);
  return g;
}

}  // namespace ctff::detail
