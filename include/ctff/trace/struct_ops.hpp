// Selections and struct construction on traced values: ctff::get<0>(v), ctff::get<"name">(v),
// v[0_c], v["name"_f], structured bindings, ctff::make_struct(a, b), make_struct<"x","y">(a, b).
// On a federated struct value a selection is Python's federated attribute access: an inline (not
// bound) federated_map / federated_map_all_equal / federated_apply of `(x -> x[i])`.
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/trace/binding_order.hpp"
#include "ctff/trace/build.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/trace/convert.hpp"
#include "ctff/types/inspect.hpp"
#include "ctff/types/report.hpp"

namespace ctff {
namespace detail {

// The bindings a selection's evaluation made: its source's when the source is a temporary, none
// when it is a variable (whose calls were bound by earlier statements; restore_order must not
// take them for this argument's).
CTFF_DEFER
constexpr location selection_window(location l, bool temp) {
  if (!temp) {
    l.first = l.last = static_cast<std::uint32_t>(l.ctx->bindings.size());
  } else if (l.first == l.last) {  // a struct a helper returned: the calls it holds (extend_held)
    l = resolve(l);
    l.first = extend_held(*l.ctx, operand{l, true}, 0);
  }
  return l;
}

// Selection node of element I (or the element itself when the source is a Struct node).
template <std::size_t I, class T>
constexpr auto select(const value<T>& v, bool temp = true) {
  using S = struct_info<T>;
  using E = typename S::template elem_t<I>;
  auto l = selection_window(value_access::loc(v), temp);
  trace_ctx& c = *l.ctx;
  const node& src = c.nodes[l.id];
  const std::uint32_t id = detail::is(src.kind, node_kind::struct_)
                              ? c.elems[src.a + I].value
                              : selection_node<E>(c, l.id, static_cast<std::uint32_t>(I));
  return value_access::make<E>(location{l.ctx, id, l.first, l.last});
}

}  // namespace detail

// Compile-time index and name for v[0_c] / v["name"_f].
template <std::size_t I>
struct index_c {
  static constexpr std::size_t value = I;
};
template <fixed_string N>
struct name_c {
  static constexpr auto value = N;
};

namespace detail {

// Selecting element E of a federated struct of type T: the intrinsic, its type, the result type.
template <class T, class E, placement_kind P = fed_info<T>::where, bool A = fed_info<T>::all_equal>
struct fed_get_of {  // {<...>}@CLIENTS
  using M = member_t<T>;
  using result = clients_t<E>;
  using fn = function_t<struct_t<function_t<M, E>, clients_t<M>>, result>;
  using intrinsic = row::federated_map;
};
template <class T, class E>
struct fed_get_of<T, E, placement_kind::clients, true> {  // <...>@CLIENTS
  using M = member_t<T>;
  using result = clients_eq_t<E>;
  using fn = function_t<struct_t<function_t<M, E>, T>, result>;
  using intrinsic = row::federated_map_all_equal;
};
template <class T, class E, bool A>
struct fed_get_of<T, E, placement_kind::server, A> {  // <...>@SERVER
  using M = member_t<T>;
  using result = server_t<E>;
  using fn = function_t<struct_t<function_t<M, E>, T>, result>;
  using intrinsic = row::federated_apply;
};

// `uri(<(x -> x[I]),v>)`, inline.
template <std::size_t I, class T>
constexpr auto federated_get(const value<T>& v, bool temp) {
  using M = member_t<T>;
  using E = typename struct_info<M>::template elem_t<I>;
  using G = fed_get_of<T, E>;
  using FT = function_t<M, E>;
  auto l = selection_window(value_access::loc(v), temp);
  trace_ctx& c = *l.ctx;
  const std::uint32_t x = named_ref_node<M>(c, "x");
  const std::uint32_t sel = selection_node<E>(c, x, static_cast<std::uint32_t>(I));
  const std::uint32_t lam = lambda_node<FT>(c, "x", sel);
  const std::uint32_t fn = intrinsic_node<typename G::fn, typename G::intrinsic>(c);
  const std::uint32_t parts[] = {lam, l.id};
  const std::uint32_t arg = unnamed_struct_node<struct_t<FT, T>>(c, parts);
  const std::uint32_t call = inline_call_node<typename G::result>(c, fn, arg);
  return value_access::make<typename G::result>(location{l.ctx, call, l.first, l.last});
}

// The struct a selection reads: T itself, or the member of a federated T.
template <class T> struct selected_struct { using type = T; };
template <class M, placement_kind P, bool A>
struct selected_struct<federated_t<M, P, A>> {
  using type = M;
};

template <std::size_t I, class T>
constexpr auto get_checked(const value<T>& v, bool temp) {
  using S = struct_info<typename selected_struct<T>::type>;
  if constexpr (!S::is_struct) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: get: the value is not a struct or a federated struct");
    return poisoned<tensor<dtype::int32>>();
  } else if constexpr (I >= S::size) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: get: the index or name is not an element of the struct");
    return poisoned<tensor<dtype::int32>>();
  } else if constexpr (!fed_info<T>::is_fed) {
    return select<I>(v, temp);
  } else if constexpr (at_server_v<T> && !fed_info<T>::all_equal) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: get: a federated struct placed at SERVER must be equal at all locations "
                  "(all_equal)");
    return poisoned<typename fed_get_of<T, typename S::template elem_t<I>>::result>();
  } else {
    return federated_get<I>(v, temp);
  }
}

}  // namespace detail

// A variable (lvalue) or a temporary: see detail::selection_window.
template <std::size_t I, class T>
constexpr auto get(const value<T>& v) {
  return detail::get_checked<I>(v, false);
}
template <std::size_t I, class T>
constexpr auto get(value<T>&& v) {
  return detail::get_checked<I>(v, true);
}
template <std::size_t I, class T>
constexpr auto get(const value<T>&& v) {
  return detail::get_checked<I>(v, true);
}

namespace detail {
template <fixed_string Name, class T>
constexpr auto get_named(const value<T>& v, bool temp) {
  using S = struct_info<typename selected_struct<T>::type>;
  if constexpr (S::is_struct) {
    constexpr std::size_t i = S::index_of(Name.view());
    return get_checked<i>(v, temp);
  } else {
    return get_checked<0>(v, temp);
  }
}
}  // namespace detail

template <fixed_string Name, class T>
constexpr auto get(const value<T>& v) {
  return detail::get_named<Name>(v, false);
}
template <fixed_string Name, class T>
constexpr auto get(value<T>&& v) {
  return detail::get_named<Name>(v, true);
}
template <fixed_string Name, class T>
constexpr auto get(const value<T>&& v) {
  return detail::get_named<Name>(v, true);
}

template <tff_type T>
template <class Index>
constexpr auto value<T>::operator[](Index) const& {
  return ctff::get<Index::value>(*this);
}
template <tff_type T>
template <class Index>
constexpr auto value<T>::operator[](Index) && {
  return ctff::get<Index::value>(std::move(*this));
}

namespace literals {
template <char... C>
constexpr auto operator""_c() {
  constexpr std::size_t v = [] {
    std::size_t r = 0;
    ((r = r * 10 + static_cast<std::size_t>(C - '0')), ...);
    return r;
  }();
  return index_c<v>{};
}
template <fixed_string N>
constexpr auto operator""_f() {
  return name_c<N>{};
}
}  // namespace literals


// An unnamed struct of values and constants: <a,b>.
template <class... X>
  requires(traceable<X> && ...)
constexpr auto make_struct(X&&... x) {
  using S = struct_t<detail::value_type_t<X>...>;
  auto g = detail::gather(nullptr, static_cast<X&&>(x)...);
  detail::trace_ctx& c = *g.ctx;
  const std::uint32_t ids[] = {0u, detail::convert_t<X>::make(c, x)...};
  auto tb = type_bytes<S>();
  auto id = detail::struct_node(c, ids + 1, sizeof...(X), tb.data(), tb.size());
  return detail::make_value<S>(c, id, g.span_first);
}

// A named struct: make_struct<"x", "y">(a, b) is <x=a,y=b>.
template <fixed_string... Names, class... X>
  requires(sizeof...(Names) > 0 && (traceable<X> && ...))
constexpr auto make_struct(X&&... x) {
  if constexpr (sizeof...(Names) != sizeof...(X)) {
    using Elements = struct_t<detail::value_type_t<X>...>;
    CTFF_DIAGNOSE(detail::report<detail::labeled<"elements", Elements>>::shown,
                  "ctff: make_struct<names...>: give one name per element");
    return detail::poisoned<struct_t<>>();
  } else if constexpr (!(detail::is_valid_element_name(Names.view()) && ...)) {
    CTFF_DIAGNOSE(detail::element_names_report<Names...>::shown,
                  "ctff: make_struct<names...>: a struct element name must not be empty nor an "
                  "attribute name of Python's StructType (items, named, children, __x__, ...)");
    return detail::poisoned<struct_t<>>();
  } else if constexpr (!detail::distinct_names<Names...>()) {
    CTFF_DIAGNOSE(detail::element_names_report<Names...>::shown,
                  "ctff: make_struct<names...>: the names must be unique");
    return detail::poisoned<struct_t<>>();
  } else {
    using S = struct_t<field<Names, detail::value_type_t<X>>...>;
    auto g = detail::gather(nullptr, static_cast<X&&>(x)...);
    detail::trace_ctx& c = *g.ctx;
    const std::uint32_t ids[] = {0u, detail::convert_t<X>::make(c, x)...};
    constexpr std::string_view names[] = {Names.view()...};
    auto tb = type_bytes<S>();
    auto id = detail::struct_node(c, ids + 1, names, sizeof...(X), tb.data(), tb.size());
    return detail::make_value<S>(c, id, g.span_first);
  }
}

}  // namespace ctff

// Structured bindings: auto [a, b] = v; also on federated structs.
template <class... E>
struct std::tuple_size<ctff::value<ctff::struct_t<E...>>>
    : std::integral_constant<std::size_t, sizeof...(E)> {};
template <std::size_t I, class... E>
struct std::tuple_element<I, ctff::value<ctff::struct_t<E...>>> {
  using type = ctff::value<typename ctff::detail::struct_info<ctff::struct_t<E...>>::template elem_t<I>>;
};
template <class... E, ctff::placement_kind P, bool A>
struct std::tuple_size<ctff::value<ctff::federated_t<ctff::struct_t<E...>, P, A>>>
    : std::integral_constant<std::size_t, sizeof...(E)> {};
template <std::size_t I, class... E, ctff::placement_kind P, bool A>
struct std::tuple_element<I, ctff::value<ctff::federated_t<ctff::struct_t<E...>, P, A>>> {
  using T = ctff::federated_t<ctff::struct_t<E...>, P, A>;
  using type = ctff::value<typename ctff::detail::fed_get_of<
      T, typename ctff::detail::struct_info<ctff::struct_t<E...>>::template elem_t<I>>::result>;
};
