// Whether a C++ type converts to a static TFF type and back (`accepts`, checked at compile time,
// run/convert.hpp's `converts_v`), and whether a tensor's nested std::arrays copy as one block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/reflect/member_name.hpp"
#include "ctff/run/convert_parts.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// Whether the C++ type U converts to the TFF type T (and back).
template <class T, class U>
consteval bool accepts();

template <class T, class U, std::size_t... I>
consteval bool accepts_tuple(std::index_sequence<I...>) {
  return (accepts<typename struct_parts<T>::template type<I>, std::tuple_element_t<I, U>>() && ...);
}
// Whether member I of the aggregate U has element I's name in T (any name where T has none).
template <class T, class U, std::size_t I>
consteval bool aggregate_name_fits() {
  if constexpr (struct_parts<T>::names[I].empty()) return true;
  else return struct_parts<T>::names[I] == member_name_text<U, I>;
}
template <class T, class U, std::size_t... I>
consteval bool accepts_aggregate(std::index_sequence<I...>) {
  // The names read on their own, not through tff_t<U>: that would need a TFF type for every
  // member's C++ type, which a member converting against T's (a std::vector) does not have.
  if constexpr (!(accepts<typename struct_parts<T>::template type<I>, pfr_elem_t<U, I>>() && ...)) {
    return false;
  } else {
    return (aggregate_name_fits<T, U, I>() && ...);
  }
}

template <class T, class U>
consteval bool accepts() {
  if constexpr (std::is_same_v<U, dynamic_value>) {
    return true;
  } else if constexpr (is_federated_v<T>) {
    using F = federated_parts<T>;
    if constexpr (F::listed) {
      if constexpr (value_range<U>) return accepts<typename F::member, range_elem_t<U>>();
      else return false;
    } else {
      return accepts<typename F::member, U>();
    }
  } else if constexpr (is_tensor_v<T>) {
    using P = tensor_parts<T>;
    if constexpr (P::unknown_rank) {
      return false;
    } else if constexpr (P::rank == 0) {
      if constexpr (P::dt == dtype::float16) return std::is_same_v<U, half_bits>;
      else if constexpr (P::dt == dtype::bfloat16) return std::is_same_v<U, bfloat16_bits>;
      else if constexpr (scalar<U>) return dtype_of<U>() == P::dt;
      else return false;
    } else if constexpr (is_array_v<U>) {
      return (P::dims[0] == unknown_dim || P::dims[0] == static_cast<std::int64_t>(std::tuple_size_v<U>)) &&
             accepts<typename tensor_tail<T>::type, typename U::value_type>();
    } else if constexpr (value_range<U>) {
      return accepts<typename tensor_tail<T>::type, range_elem_t<U>>();
    } else {
      return false;
    }
  } else if constexpr (is_struct_v<T>) {
    constexpr std::size_t n = struct_parts<T>::size;
    if constexpr (tuple_like<U>) {
      if constexpr (std::tuple_size_v<U> != n) return false;
      else return accepts_tuple<T, U>(std::make_index_sequence<n>{});
    } else if constexpr (plain_aggregate<U>) {
      if constexpr (slot_count<U> != n) return false;
      else return accepts_aggregate<T, U>(std::make_index_sequence<n>{});
    } else {
      return false;
    }
  } else if constexpr (is_sequence_v<T>) {
    if constexpr (value_range<U>) return accepts<typename sequence_parts<T>::element, range_elem_t<U>>();
    else return false;
  } else {
    return false;
  }
}

// Nested std::arrays of S with no padding: their elements can be copied as one block.
template <class U, class S>
consteval bool flat_array_of() {
  if constexpr (std::is_same_v<U, S>) return true;
  else if constexpr (is_array_v<U>)
    return sizeof(U) == std::tuple_size_v<U> * sizeof(typename U::value_type) &&
           flat_array_of<typename U::value_type, S>();
  else return false;
}
template <class U, class S>
void array_dims(std::vector<std::int64_t>& out) {
  if constexpr (!std::is_same_v<U, S>) {
    out.push_back(static_cast<std::int64_t>(std::tuple_size_v<U>));
    array_dims<typename U::value_type, S>(out);
  }
}
template <class T, class U>
inline constexpr bool block_copy_v = [] {
  constexpr dtype D = tensor_parts<T>::dt;
  if constexpr (D == dtype::str || D == dtype::bool_ || D == dtype::float16 || D == dtype::bfloat16) {
    return false;
  } else {
    return is_array_v<U> && flat_array_of<U, typename stored_t<D>::value_type>();
  }
}();

}  // namespace ctff::detail
