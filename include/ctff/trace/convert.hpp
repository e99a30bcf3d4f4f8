// Python's to_value for C++: what a traced operation accepts in place of a value. Values are used
// as they are; constants become Literals; std::tuple/std::pair become unnamed Structs;
// computations are embedded whole. Conversion runs in two steps: collect the values involved
// (to find the trace and restore argument order), then make the nodes.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/trace/literal.hpp"
#include "ctff/trace/value.hpp"

namespace ctff::detail {

struct operand {
  location loc;
  bool temp = false;  // a temporary: its bindings may be moved into argument order
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
  static constexpr void collect(const value<T>& v, bool temp, std::vector<operand>& ops) {
    ops.push_back({v.loc(), temp && !v.pinned()});
  }
  static constexpr std::uint32_t make(trace_ctx&, const value<T>& v) { return v.loc().id; }
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
  static constexpr void collect(const X&, bool, std::vector<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const X& x) { return literal_node(c, x); }
};

template <class Tuple, std::size_t... I>
constexpr void collect_tuple(const Tuple& t, bool temp, std::vector<operand>& ops,
                             std::index_sequence<I...>) {
  // An element held by lvalue reference names a variable: never a temporary.
  (convert_t<std::tuple_element_t<I, Tuple>>::collect(
       std::get<I>(t), temp && !std::is_lvalue_reference_v<std::tuple_element_t<I, Tuple>>, ops),
   ...);
}

// Records a Struct node of already made element nodes, named (names[i]) or unnamed. (`named` is
// a flag, not a null test on `names`: g++'s -fsanitize=undefined makes comparing a static array's
// address with null non-constant.)
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
constexpr std::uint32_t struct_node(trace_ctx& c, const std::uint32_t* ids, const std::string_view* names,
                                    std::size_t n, const unsigned char* type, std::size_t type_size) {
  return struct_node(c, ids, names, true, n, type, type_size);
}
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
  static constexpr void collect(const std::tuple<X...>& t, bool temp, std::vector<operand>& ops) {
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
  static constexpr void collect(const std::pair<A, B>& t, bool temp, std::vector<operand>& ops) {
    collect_tuple(t, temp, ops, std::index_sequence<0, 1>{});
  }
  static constexpr std::uint32_t make(trace_ctx& c, const std::pair<A, B>& t) {
    return make_tuple_node(c, t, std::index_sequence<0, 1>{});
  }
};

// Collects the values inside x; `temp` says whether x itself was passed as a temporary.
template <class X>
constexpr void collect(X&& x, std::vector<operand>& ops) {
  convert_t<X>::collect(x, !std::is_lvalue_reference_v<X>, ops);
}

// The trace all operands belong to: the first real trace among them (floating contexts are merged
// into it), else the first floating one, else a new floating context.
constexpr trace_ctx* unify(std::vector<operand>& ops, trace_ctx* target = nullptr) {
  for (auto& o : ops) {
    auto* c = o.loc.ctx;
    if (!c->floating) {
      if (target && !target->floating && target != c)
        throw "ctff: a value of one trace was used inside another trace";
      target = c;
    }
  }
  if (!target && !ops.empty()) target = ops.front().loc.ctx;
  if (!target) target = new_floating();
  for (auto& o : ops) {
    if (o.loc.ctx != target) {
      merge_into(*target, *o.loc.ctx);
      o.loc = resolve(o.loc);
    }
  }
  for (auto& o : ops) o.loc = resolve(o.loc);
  return target;
}

// Puts the bindings of temporary operands back into argument order; returns where the span of the
// value consuming them starts (no_node when they do not form the tail of the bindings).
constexpr std::uint32_t restore_order(trace_ctx& c, const std::vector<operand>& ops) {
  std::size_t temps = 0;
  const operand* only = nullptr;
  for (auto& o : ops)
    if (o.temp && o.loc.first < o.loc.last) {
      ++temps;
      only = &o;
    }
  const auto end = static_cast<std::uint32_t>(c.bindings.size());
  if (temps == 0) return no_node;
  if (temps == 1) return only->loc.last == end ? only->loc.first : no_node;
  std::vector<const operand*> t;
  t.reserve(temps);
  for (auto& o : ops)
    if (o.temp && o.loc.first < o.loc.last) t.push_back(&o);
  // Sorted by position: they must tile [lo, end).
  std::vector<const operand*> by_pos = t;
  for (std::size_t i = 1; i < by_pos.size(); ++i)
    for (std::size_t j = i; j > 0 && by_pos[j - 1]->loc.first > by_pos[j]->loc.first; --j) {
      auto* tmp = by_pos[j];
      by_pos[j] = by_pos[j - 1];
      by_pos[j - 1] = tmp;
    }
  const std::uint32_t lo = by_pos.front()->loc.first;
  std::uint32_t at = lo;
  for (auto* o : by_pos) {
    if (o->loc.first != at) return no_node;
    at = o->loc.last;
  }
  if (at != end) return no_node;
  bool in_order = true;
  for (std::size_t i = 0; i != t.size(); ++i) in_order = in_order && t[i] == by_pos[i];
  if (!in_order) {
    std::vector<std::uint32_t> tail;
    tail.reserve(end - lo);
    for (auto* o : t)
      for (std::uint32_t k = o->loc.first; k != o->loc.last; ++k) tail.push_back(c.bindings[k]);
    for (std::uint32_t k = lo; k != end; ++k) c.bindings[k] = tail[k - lo];
  }
  return lo;
}

// Operands of one operation, gathered from its arguments in argument order.
struct gathered {
  trace_ctx* ctx = nullptr;
  std::uint32_t span_first = no_node;  // where the result's span starts, if it covers temporaries
};

template <class... X>
constexpr gathered gather(trace_ctx* target, X&&... x) {
  std::vector<operand> ops;
  (collect(static_cast<X&&>(x), ops), ...);
  gathered g;
  g.ctx = unify(ops, target);
  g.span_first = restore_order(*g.ctx, ops);
  return g;
}

// A value for node `id` whose subtree's bindings start at `first` (no_node: none of its own).
template <class T>
constexpr value<T> make_value(trace_ctx& c, std::uint32_t id, std::uint32_t first) {
  const auto end = static_cast<std::uint32_t>(c.bindings.size());
  return value<T>(location{&c, id, first == no_node ? end : first, end});
}

// Records Call(fn, arg), binds it to a Block local and returns the Reference (Python's
// bind_computation_to_reference).
template <class R>
constexpr value<R> bound_call(trace_ctx& c, std::uint32_t fn, std::uint32_t arg, std::uint32_t first) {
  node call{};
  call.kind = node_kind::call;
  call.a = fn;
  call.b = arg;
  auto id = c.add_typed<R>(call);
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
