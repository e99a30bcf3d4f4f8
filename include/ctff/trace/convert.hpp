// Python's to_value for C++: what a traced operation accepts in place of a value. Values are used
// as they are; constants become Literals; std::tuple/std::pair become unnamed Structs;
// computations are embedded whole. Conversion runs in two steps: collect the values involved
// (to find the trace and restore argument order), then make the nodes.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/core/defer.hpp"
#include "ctff/trace/literal.hpp"
#include "ctff/trace/value.hpp"

namespace ctff::detail {

struct operand {
  location loc;
  bool temp = false;  // a temporary: its bindings may be moved into argument order
  bool floating = false;  // made from constants only: its bindings joined the trace when it met it
};

template <class X, class Enable = void>
struct convert {
  static constexpr bool ok = false;
};

template <class X>
using convert_t = convert<std::remove_cvref_t<X>>;

template <class X>
concept convertible = convert_t<X>::ok;

// The TFF type a convertible thing has once traced.
template <class X>
using value_type_t = typename convert_t<X>::type;

template <class T>
struct convert<value<T>> {
  static constexpr bool ok = true;
  using type = T;
  static constexpr void collect(const value<T>& v, bool temp, scratch<operand>& ops) {
    ops.push_back({v.loc(), temp && !v.pinned()});
  }
  static constexpr std::uint32_t make(trace_ctx& c, const value<T>& v) {
    const location l = v.loc();
    if (l.ctx == &c) return l.id;
    node stand_in{};  // a value of another trace, a kept failure (unify): the graph is never shown
    stand_in.kind = node_kind::named_ref;
    stand_in.text = "ctff_foreign_value";
    return c.add_typed<T>(stand_in);
  }
};

template <class X>
struct literal_type;
template <class X>
  requires scalar<X>
struct literal_type<X> {
  using type = tensor<dtype_of<X>()>;
};
template <class X, std::size_t N>
struct literal_type<std::array<X, N>> {
  template <class T> struct add_dim;
  template <dtype D, std::int64_t... Ds> struct add_dim<tensor<D, Ds...>> {
    using type = tensor<D, static_cast<std::int64_t>(N), Ds...>;
  };
  using type = typename add_dim<typename literal_type<X>::type>::type;
};
template <std::size_t N>
struct literal_type<char[N]> {
  using type = tensor<dtype::str>;
};

template <class X>
struct convert<X, std::enable_if_t<is_constant_v<X>>> {
  static constexpr bool ok = true;
  using type = typename literal_type<X>::type;
  static constexpr void collect(const X&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const X& x) { return literal_node(c, x); }
};

template <class Tuple, std::size_t... I>
constexpr void collect_tuple(const Tuple& t, [[maybe_unused]] bool temp, scratch<operand>& ops,
                             std::index_sequence<I...>) {
  // An element held by lvalue reference names a variable: never a temporary.
  (convert_t<std::tuple_element_t<I, Tuple>>::collect(
       std::get<I>(t), temp && !std::is_lvalue_reference_v<std::tuple_element_t<I, Tuple>>, ops),
   ...);
}

// Records a Struct node of already made element nodes, named (names[i]) or unnamed. (`named` is
// a flag, not a null test on `names`: g++'s -fsanitize=undefined makes comparing a static array's
// address with null non-constant.)
CTFF_DEFER
constexpr std::uint32_t struct_node(trace_ctx& c, const std::uint32_t* ids, const std::string_view* names,
                                    bool named, std::size_t n, const unsigned char* type,
                                    std::size_t type_size) {
  node s{};
  s.kind = node_kind::struct_;
  s.a = static_cast<std::uint32_t>(c.elems.size());
  s.b = static_cast<std::uint32_t>(n);
  for (std::size_t i = 0; i != n; ++i) c.elems.push_back({ids[i], named ? names[i] : std::string_view{}});
  s.type = type;
  s.type_size = static_cast<std::uint32_t>(type_size);
  return c.add(s);
}
CTFF_DEFER
constexpr std::uint32_t struct_node(trace_ctx& c, const std::uint32_t* ids, const std::string_view* names,
                                    std::size_t n, const unsigned char* type, std::size_t type_size) {
  return struct_node(c, ids, names, true, n, type, type_size);
}
CTFF_DEFER
constexpr std::uint32_t struct_node(trace_ctx& c, const std::uint32_t* ids, std::size_t n,
                                    const unsigned char* type, std::size_t type_size) {
  return struct_node(c, ids, nullptr, false, n, type, type_size);
}

template <class Tuple, std::size_t... I>
constexpr std::uint32_t make_tuple_node(trace_ctx& c, const Tuple& t, std::index_sequence<I...>) {
  // Braced initialisation: elements made left to right.
  const std::uint32_t ids[] = {0u, convert_t<std::tuple_element_t<I, Tuple>>::make(c, std::get<I>(t))...};
  using S = struct_t<value_type_t<std::tuple_element_t<I, Tuple>>...>;
  auto tb = type_bytes<S>();
  return struct_node(c, ids + 1, sizeof...(I), tb.data(), tb.size());
}

template <class... X>
struct convert<std::tuple<X...>, std::enable_if_t<(convertible<X> && ...)>> {
  static constexpr bool ok = true;
  using type = struct_t<value_type_t<X>...>;
  static constexpr void collect(const std::tuple<X...>& t, bool temp, scratch<operand>& ops) {
    collect_tuple(t, temp, ops, std::index_sequence_for<X...>{});
  }
  static constexpr std::uint32_t make(trace_ctx& c, const std::tuple<X...>& t) {
    return make_tuple_node(c, t, std::index_sequence_for<X...>{});
  }
};

template <class A, class B>
struct convert<std::pair<A, B>, std::enable_if_t<convertible<A> && convertible<B>>> {
  static constexpr bool ok = true;
  using type = struct_t<value_type_t<A>, value_type_t<B>>;
  static constexpr void collect(const std::pair<A, B>& t, bool temp, scratch<operand>& ops) {
    collect_tuple(t, temp, ops, std::index_sequence<0, 1>{});
  }
  static constexpr std::uint32_t make(trace_ctx& c, const std::pair<A, B>& t) {
    return make_tuple_node(c, t, std::index_sequence<0, 1>{});
  }
};

// Collects the values inside x; `temp` says whether x itself was passed as a temporary.
template <class X>
constexpr void collect(X&& x, scratch<operand>& ops) {
  convert_t<X>::collect(x, !std::is_lvalue_reference_v<X>, ops);
}

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
constexpr bool alive(const trace_ctx& c, const node& n) {
  return n.live != 0 || (c.alive_after != 0 && n.died > c.alive_after);
}

CTFF_DEFER
constexpr bool held_inline(const trace_ctx& c, std::uint32_t from, std::uint32_t to) {
  for (std::uint32_t k = from + 1; k < to; ++k) {
    const node& n = c.nodes[k];
    if (alive(c, n) && n.seq == no_node &&
        (n.kind == node_kind::struct_ || n.kind == node_kind::selection || n.kind == node_kind::call))
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
      return n.seq == no_node && (any_inline(c, n.a, hit) || any_inline(c, n.b, hit));
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
  return any_inline(c, id, [&](std::uint32_t k) {
    return c.nodes[k].kind == node_kind::symbol_ref && c.nodes[k].a == target;
  });
}

// Whether a call bound in [first, last) takes the bound call `target` as an operand.
CTFF_DEFER
constexpr bool window_uses(const trace_ctx& c, std::uint32_t first, std::uint32_t last,
                           std::uint32_t target) {
  for (std::uint32_t k = first; k < last; ++k) {
    const node& n = c.nodes[c.bindings[k]];
    if (n.kind == node_kind::call && (refers_to(c, n.a, target) || refers_to(c, n.b, target)))
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
    const node& n = c.nodes[call];
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
    const node& n = c.nodes[call];
    // (The operand itself, when it is the call's Reference, is a handle on the call.)
    const std::uint32_t own = self.kind == node_kind::symbol_ref && self.a == call ? 1 : 0;
    const bool named = n.live > own || (n.live == 0 && alive(c, n));
    if (named || call > id) break;
    const bool held = n.user == no_node && refers_to(c, id, call);
    if (!held && n.user != no_node && (n.user < k || n.user >= first)) break;
    for (auto m = static_cast<std::uint32_t>(c.nodes.size()); --m > call;) {
      const node& h = c.nodes[m];
      if (alive(c, h) && h.seq == no_node &&
          (h.kind == node_kind::struct_ || h.kind == node_kind::selection ||
           h.kind == node_kind::call) &&
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
    const node& before = c.nodes[call];
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

// A value for node `id` whose subtree's bindings start at `first` (no_node: none of its own).
template <class T>
constexpr value<T> make_value(trace_ctx& c, std::uint32_t id, std::uint32_t first) {
  const auto end = static_cast<std::uint32_t>(c.bindings.size());
  return value<T>(location{&c, id, first == no_node ? end : first, end});
}

// Marks call `seq` as the first user of the bound calls that node `id` refers to inline.
// (Recursive over the inline part of an operand's tree, which is shallow: bound calls and
// embedded computations end it.)
CTFF_DEFER
constexpr void note_uses(trace_ctx& c, std::uint32_t id, std::uint32_t seq) {
  if (id == no_node) return;
  const node& n = c.nodes[id];
  switch (n.kind) {
    case node_kind::symbol_ref:
      if (c.nodes[n.a].user == no_node) c.nodes[n.a].user = seq;
      return;
    case node_kind::selection: case node_kind::lambda: note_uses(c, n.a, seq); return;
    case node_kind::call:
      if (n.seq == no_node) {
        note_uses(c, n.a, seq);
        note_uses(c, n.b, seq);
      }
      return;
    case node_kind::struct_:
      for (std::uint32_t k = 0; k != n.b; ++k) note_uses(c, c.elems[n.a + k].value, seq);
      return;
    default: return;
  }
}

// Records Call(fn, arg), binds it to a Block local and returns the Reference (Python's
// bind_computation_to_reference).
template <class R>
constexpr value<R> bound_call(trace_ctx& c, std::uint32_t fn, std::uint32_t arg, std::uint32_t first) {
  node call{};
  call.kind = node_kind::call;
  call.a = fn;
  call.b = arg;
  call.seq = static_cast<std::uint32_t>(c.bindings.size());
  auto id = c.add_typed<R>(call);
  note_uses(c, fn, call.seq);
  note_uses(c, arg, call.seq);
  auto pos = c.bind(id);
  node ref{};
  ref.kind = node_kind::symbol_ref;
  ref.a = id;
  auto r = c.add_typed<R>(ref);
  return make_value<R>(c, r, first == no_node ? pos : first);
}

template <class F>
constexpr std::uint32_t intrinsic_node(trace_ctx& c, std::string_view uri) {
  node n{};
  n.kind = node_kind::intrinsic;
  n.text = uri;
  return c.add_typed<F>(n);
}

}  // namespace ctff::detail
