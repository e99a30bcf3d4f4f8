// What the conversions of run/convert.hpp read at compile time: the parts of a static TFF type
// (`tensor_parts`, `struct_parts`, `federated_parts`, `sequence_parts`) and the kinds of C++ types
// (strings, ranges, tuple-likes, aggregate members).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "ctff/reflect/reflect.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

template <class T> struct tensor_parts;
template <dtype D, std::int64_t... N> struct tensor_parts<tensor<D, N...>> {
  static constexpr dtype dt = D;
  static constexpr std::size_t rank = sizeof...(N);
  static constexpr std::array<std::int64_t, sizeof...(N) + 1> dims{N..., 0};
  static constexpr bool unknown_rank = sizeof...(N) == 1 && ((N == ctff::unknown_rank) && ...);
};
// The tensor type without its first dimension.
template <class T> struct tensor_tail;
template <dtype D, std::int64_t N0, std::int64_t... N> struct tensor_tail<tensor<D, N0, N...>> {
  using type = tensor<D, N...>;
};

template <class T> struct struct_parts;
template <class... E> struct struct_parts<struct_t<E...>> {
  static constexpr std::size_t size = sizeof...(E);
  template <std::size_t I> using type = typename elem<std::tuple_element_t<I, std::tuple<E...>>>::type;
  static constexpr std::array<std::string_view, sizeof...(E) + 1> names{elem<E>::name...,
                                                                       std::string_view{}};
};
// The path of element i of a struct T in a converted value's errors: `.name`, or `[i]` unnamed.
template <class T>
std::string element_path(const std::string& path, std::size_t i) {
  const std::string_view name = struct_parts<T>::names[i];
  return name.empty() ? path + "[" + std::to_string(i) + "]" : path + "." + std::string(name);
}

template <class T> struct federated_parts;
template <class M, placement_kind P, bool A> struct federated_parts<federated_t<M, P, A>> {
  using member = M;
  static constexpr bool listed = P == placement_kind::clients && !A;
  static constexpr placement_kind where = P;
};
template <class T> struct sequence_parts;
template <class E> struct sequence_parts<sequence_t<E>> { using element = E; };

template <class U> inline constexpr bool is_string_like_v =
    std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view> ||
    std::is_same_v<U, const char*>;
template <class U> inline constexpr bool is_array_v = false;
template <class E, std::size_t N> inline constexpr bool is_array_v<std::array<E, N>> = true;
template <class U>
concept value_range = std::ranges::sized_range<const U> && !is_string_like_v<U>;
template <class U>
concept tuple_like = !is_array_v<U> && requires { std::tuple_size<U>::value; };
template <class U> using range_elem_t = std::ranges::range_value_t<const U>;

// An aggregate member's type (reflect/slot_count.hpp: counted without Boost.PFR's count).
template <class U, std::size_t I> using pfr_elem_t = member_type_t<U, I>;

}  // namespace ctff::detail
