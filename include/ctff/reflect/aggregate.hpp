// Plain aggregates as named TFF structs: `struct point { float x; std::int32_t y; };` is
// <x=float32,y=int32>. Members are found with Boost.PFR; their names are read at compile time from
// the compiler's pretty function text for a pointer to the member (reflect/member_name.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "ctff/reflect/aggregate_shape.hpp"
#include "ctff/reflect/member_field.hpp"
#include "ctff/reflect/member_name.hpp"
#include "ctff/reflect/slot_count.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

// Set to true (by partial specialization) for aggregates that another reflection header maps,
// such as Boost.Hana structs (reflect/hana.hpp): Boost.PFR then stays out of the way.
template <class T>
inline constexpr bool reflected_elsewhere = false;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

// Class types reflected member by member. std::array, std::tuple and std::pair have their own
// headers (tuple and pair are not aggregates anyway); ctff's own types are never reflected.
// Boost.PFR's limits apply and report with its own messages: no base classes, no C array members.
template <class T>
concept plain_aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !tff_type<T> &&
                          !is_field_v<T> && !is_std_array_v<T> && !reflected_elsewhere<T>;

template <class T>
using indices_of = std::make_index_sequence<slot_count<T>>;

template <class T, class Indices = indices_of<T>>
struct aggregate_members;
template <class T, std::size_t... I>
struct aggregate_members<T, std::index_sequence<I...>> {
  using type = struct_t<
      typename member_field<T, member_name_v<T, I>, member_type_t<T, I>>::type...>;
};

template <class T, bool Valid = check_aggregate_shape<T>()>
struct aggregate_struct {
  using type = struct_t<>;  // placeholder after a shape error
};
template <class T>
struct aggregate_struct<T, true> {
  using type = typename aggregate_members<T>::type;
};

}  // namespace detail

template <detail::plain_aggregate T>
struct tff_type_of<T> {
  using type = typename detail::aggregate_struct<T>::type;
};

}  // namespace ctff
