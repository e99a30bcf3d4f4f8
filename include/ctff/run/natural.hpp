// The C++ type a value of a static TFF type converts to when nothing else names one: what a
// generic callable bound with executor::bind receives (run/convert.hpp converts it).
//   tensor      rank 0: its dtype's element type; std::array<., N> for a dimension N, std::vector
//               for `?`; unknown rank: ctff::dynamic_value
//   struct      std::tuple of its elements (names are not kept)
//   sequence, {M}@CLIENTS   std::vector;   M@SERVER, M@CLIENTS all_equal   M's
//   others      ctff::dynamic_value
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/convert_parts.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

template <class T> struct natural;
template <class T> using natural_t = typename natural<T>::type;

template <class T, class Seq> struct natural_struct;
template <class T, std::size_t... I> struct natural_struct<T, std::index_sequence<I...>> {
  using type = std::tuple<natural_t<typename struct_parts<T>::template type<I>>...>;
};

template <class T> struct natural {
  using type = dynamic_value;
};
template <dtype D, std::int64_t... N> struct natural<tensor<D, N...>> {
  static consteval auto pick() {
    using P = tensor_parts<tensor<D, N...>>;
    if constexpr (P::unknown_rank) return std::type_identity<dynamic_value>{};
    else if constexpr (P::rank == 0) return std::type_identity<element_t<D>>{};
    else {
      using E = natural_t<typename tensor_tail<tensor<D, N...>>::type>;
      if constexpr (P::dims[0] == unknown_dim) return std::type_identity<std::vector<E>>{};
      else return std::type_identity<std::array<E, static_cast<std::size_t>(P::dims[0])>>{};
    }
  }
  using type = typename decltype(pick())::type;
};
template <class... E> struct natural<struct_t<E...>> {
  using type = typename natural_struct<struct_t<E...>, std::index_sequence_for<E...>>::type;
};
template <class E> struct natural<sequence_t<E>> {
  using type = std::vector<natural_t<E>>;
};
template <class M, placement_kind P, bool A> struct natural<federated_t<M, P, A>> {
  using type = std::conditional_t<federated_parts<federated_t<M, P, A>>::listed, std::vector<natural_t<M>>,
                                  natural_t<M>>;
};

}  // namespace ctff::detail
