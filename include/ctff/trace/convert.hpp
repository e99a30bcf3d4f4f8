// Python's to_value for C++: what a traced operation accepts in place of a value. Values are used
// as they are; constants become Literals; std::tuple/std::pair become unnamed Structs;
// computations are embedded whole. Conversion runs in two steps: collect the values involved
// (to find the trace and restore argument order: trace/binding_order.hpp), then make the nodes.
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
    ops.push_back({value_access::loc(v), temp && !value_access::pinned(v)});
  }
  static constexpr std::uint32_t make(trace_ctx& c, const value<T>& v) {
    const location l = value_access::loc(v);
    if (l.ctx == &c) return l.id;
    // A value of another trace, a kept failure (unify): the graph is never shown.
    return c.add_typed<T>({.kind = node_kind::named_ref, .text = "ctff_foreign_value"});
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
  node s{.kind = node_kind::struct_,
         .a = static_cast<std::uint32_t>(c.elems.size()),
         .b = static_cast<std::uint32_t>(n)};
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

}  // namespace ctff::detail

namespace ctff {

// What a traced operation accepts in place of a value: a ctff::value, a constant (a scalar, a
// std::array of them, a string literal), a computation, or a std::tuple / std::pair of these.
template <class X>
concept traceable = detail::convertible<X>;

}  // namespace ctff
