// Selections and struct construction on traced values: ctff::get<0>(v), ctff::get<"name">(v),
// v[0_c], v["name"_f], structured bindings, ctff::make_struct(a, b), make_struct<"x","y">(a, b).
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "ctff/trace/convert.hpp"

namespace ctff {
namespace detail {

template <class T> struct struct_info { static constexpr bool is_struct = false; static constexpr std::size_t size = 0; };
template <class... E> struct struct_info<struct_t<E...>> {
  static constexpr bool is_struct = true;
  static constexpr std::size_t size = sizeof...(E);
  template <std::size_t I> using elem_t = typename elem<std::tuple_element_t<I, std::tuple<E...>>>::type;
  static constexpr std::string_view names[] = {elem<E>::name..., std::string_view{}};
  static constexpr std::size_t index_of(std::string_view n) {
    for (std::size_t i = 0; i != sizeof...(E); ++i)
      if (names[i] == n) return i;
    return sizeof...(E);
  }
};

// Selection node of element I (or the element itself when the source is a Struct node).
template <std::size_t I, class T>
constexpr auto select(const value<T>& v) {
  using S = struct_info<T>;
  using E = typename S::template elem_t<I>;
  auto l = v.loc();
  trace_ctx& c = *l.ctx;
  const node& src = c.nodes[l.id];
  std::uint32_t id;
  if (src.kind == node_kind::struct_) {
    id = c.elems[src.a + I].value;
  } else {
    node n{};
    n.kind = node_kind::selection;
    n.a = l.id;
    n.b = static_cast<std::uint32_t>(I);
    id = c.add_typed<E>(n);
  }
  return value<E>(location{l.ctx, id, l.first, l.last});
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

template <std::size_t I, class T>
constexpr auto get(const value<T>& v) {
  using S = detail::struct_info<T>;
  static_assert(S::is_struct, "ctff: get<I>: the value is not a struct");
  static_assert(I < S::size, "ctff: get<I>: the index is out of range for this struct");
  return detail::select<I>(v);
}

template <fixed_string Name, class T>
constexpr auto get(const value<T>& v) {
  using S = detail::struct_info<T>;
  static_assert(S::is_struct, "ctff: get<\"name\">: the value is not a struct");
  constexpr std::size_t i = S::index_of(Name.view());
  static_assert(i < S::size, "ctff: get<\"name\">: the struct has no element of that name");
  return detail::select<i>(v);
}

template <tff_type T>
template <class Index>
constexpr auto value<T>::operator[](Index) const {
  return ctff::get<Index::value>(*this);
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
  requires(detail::convertible<X> && ...)
constexpr auto make_struct(X&&... x) {
  using S = struct_t<detail::value_type_t<X>...>;
  auto g = detail::gather(nullptr, static_cast<X&&>(x)...);
  detail::trace_ctx& c = *g.ctx;
  const std::uint32_t ids[] = {0u, detail::convert_t<X>::make(c, x)...};
  auto tb = type_bytes<S>();
  auto id = detail::struct_node(c, ids + 1, nullptr, sizeof...(X), tb.data(), tb.size());
  return detail::make_value<S>(c, id, g.span_first);
}

// A named struct: make_struct<"x", "y">(a, b) is <x=a,y=b>.
template <fixed_string... Names, class... X>
  requires(sizeof...(Names) > 0 && (detail::convertible<X> && ...))
constexpr auto make_struct(X&&... x) {
  static_assert(sizeof...(Names) == sizeof...(X),
                "ctff: make_struct<names...>: give one name per element");
  using S = struct_t<field<Names, detail::value_type_t<X>>...>;
  auto g = detail::gather(nullptr, static_cast<X&&>(x)...);
  detail::trace_ctx& c = *g.ctx;
  const std::uint32_t ids[] = {0u, detail::convert_t<X>::make(c, x)...};
  constexpr std::string_view names[] = {Names.view()...};
  auto tb = type_bytes<S>();
  auto id = detail::struct_node(c, ids + 1, names, sizeof...(X), tb.data(), tb.size());
  return detail::make_value<S>(c, id, g.span_first);
}

}  // namespace ctff

// Structured bindings: auto [a, b] = v;
template <class... E>
struct std::tuple_size<ctff::value<ctff::struct_t<E...>>>
    : std::integral_constant<std::size_t, sizeof...(E)> {};
template <std::size_t I, class... E>
struct std::tuple_element<I, ctff::value<ctff::struct_t<E...>>> {
  using type = ctff::value<typename ctff::detail::struct_info<ctff::struct_t<E...>>::template elem_t<I>>;
};
