// Compile-time inspection of static types: the parts of federated, function, sequence and struct
// types, and shorthands for the federated types operators build.
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "ctff/types/type.hpp"

namespace ctff::detail {

template <class T>
struct fed_info {
  static constexpr bool is_fed = false;
};
template <class T, placement_kind P, bool A>
struct fed_info<federated_t<T, P, A>> {
  static constexpr bool is_fed = true;
  using member = T;
  static constexpr placement_kind where = P;
  static constexpr bool all_equal = A;
};

template <class V>
using member_t = typename fed_info<V>::member;

// The member of a federated T, else T itself.
template <class T>
struct unplaced {
  using type = T;
};
template <class T, placement_kind P, bool A>
struct unplaced<federated_t<T, P, A>> {
  using type = T;
};
template <class T>
using unplaced_t = typename unplaced<T>::type;

// F applied to every leaf of a (possibly nested) struct type, names kept.
template <template <class> class F, class T>
struct map_leaves {
  using type = typename F<T>::type;
};
template <template <class> class F, class... E>
struct map_leaves<F, struct_t<E...>> {
  template <class X>
  struct one {
    using type = typename map_leaves<F, X>::type;
  };
  template <fixed_string N, class X>
  struct one<field<N, X>> {
    using type = field<N, typename map_leaves<F, X>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};

// Whether T and U are federated types with the same placement.
template <class T, class U>
inline constexpr bool same_placement_v = false;
template <class T, class U, placement_kind P, bool A, bool B>
inline constexpr bool same_placement_v<federated_t<T, P, A>, federated_t<U, P, B>> = true;

template <class V>
inline constexpr bool at_clients_v = false;
template <class T, bool A>
inline constexpr bool at_clients_v<federated_t<T, placement_kind::clients, A>> = true;
template <class V>
inline constexpr bool at_server_v = false;
template <class T, bool A>
inline constexpr bool at_server_v<federated_t<T, placement_kind::server, A>> = true;

template <class T>
using clients_t = federated_t<T, placement_kind::clients, false>;  // {T}@CLIENTS
template <class T>
using clients_eq_t = federated_t<T, placement_kind::clients, true>;  // T@CLIENTS
template <class T>
using server_t = federated_t<T, placement_kind::server, true>;  // T@SERVER

template <class F>
struct fn_info {
  static constexpr bool has_param = false;
};
template <class P, class R>
struct fn_info<function_t<P, R>> {
  using param = P;
  using result = R;
  static constexpr bool has_param = !std::is_void_v<P>;
};

template <class T>
struct seq_info {
  static constexpr bool is_seq = false;
};
template <class T>
struct seq_info<sequence_t<T>> {
  static constexpr bool is_seq = true;
  using element = T;
};

template <class T>
struct struct_info {
  static constexpr bool is_struct = false;
  static constexpr std::size_t size = 0;
};
template <class... E>
struct struct_info<struct_t<E...>> {
  static constexpr bool is_struct = true;
  static constexpr std::size_t size = sizeof...(E);
  template <std::size_t I>
  using elem_t = typename elem<std::tuple_element_t<I, std::tuple<E...>>>::type;
  static constexpr std::string_view names[sizeof...(E) + 1] = {elem<E>::name...,
                                                               std::string_view{}};
  static constexpr bool any_named = ((!elem<E>::name.empty()) || ... || false);
  static constexpr std::size_t index_of(std::string_view n) {
    for (std::size_t i = 0; i != sizeof...(E); ++i)
      if (names[i] == n) return i;
    return sizeof...(E);
  }
};

// The element type of struct T at I, or void when there is none.
template <class T, std::size_t I, bool = (I < struct_info<T>::size)>
struct elem_or_void {
  using type = void;
};
template <class T, std::size_t I>
struct elem_or_void<T, I, true> {
  using type = typename struct_info<T>::template elem_t<I>;
};

// Whether T holds a federated or function type anywhere (federated_value / federated_t reject it).
template <class T>
inline constexpr bool has_placed_v = contains_placed<T>::value;

// Whether T may be a sequence's element (no federated, function or sequence type inside).
template <class T>
inline constexpr bool sequenceable_v = !contains_unsequenceable<T>::value;

}  // namespace ctff::detail
