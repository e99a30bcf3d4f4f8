// The number of initializer slots of an aggregate, counted in fewer and smaller probes than
// Boost.PFR's own count, and member I of an aggregate object through PFR's structured binding.
#pragma once

#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#include <climits>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace ctff::detail {

// The number of initializer slots of T (its members; a C array member takes one slot per element,
// through brace elision), what boost::pfr::tuple_size_v<T> gives. PFR finds it by bisection
// between 0 and sizeof(T) * CHAR_BIT, one aggregate initialization with up to that many
// initializers per step: a struct with a std::array<std::array<float, 10>, 784> member has
// sizeof 31,400 bytes, so PFR's first probes are initializations with 125,601 and 62,801
// initializers, and its count costs seconds and hundreds of MiB per struct type (and would not
// finish for float32[1000,1000]). The count only depends on the members: grow n = 1, 2, 4, ...
// while T{probe x n} is valid, then bisect between the last valid and the first invalid n; every
// probe has at most twice as many initializers as T has slots.
//
// This needs T{probe x n} valid for every n up to the count, which holds when T{} is valid (every
// member can be initialized from `{}`); otherwise (a member without a default constructor, a
// reference member) PFR's own count runs.

// Converts to anything: an lvalue for copyable aggregates, a prvalue for move-only ones (as PFR's
// count does).
struct any_probe {
  template <class X>
  operator X&() const noexcept;  // declared only: used in unevaluated operands
};
struct any_rvalue_probe {
  template <class X>
  operator X() const&& noexcept;
};
template <class T, std::size_t>
using count_probe_at =
    std::conditional_t<std::is_copy_constructible_v<T>, any_probe, any_rvalue_probe>;

template <class T, std::size_t... I>
constexpr bool initializable_with(std::index_sequence<I...>) {
  return requires { T{count_probe_at<T, I>{}...}; };
}
template <class T, std::size_t N>
inline constexpr bool initializable_with_n = initializable_with<T>(std::make_index_sequence<N>{});

// T{probe x Low} is valid, T{probe x High} is not: the largest valid n.
template <class T, std::size_t Low, std::size_t High>
constexpr std::size_t bisect_slot_count() {
  if constexpr (High - Low == 1) {
    return Low;
  } else {
    constexpr std::size_t middle = Low + (High - Low) / 2;
    if constexpr (initializable_with_n<T, middle>)
      return bisect_slot_count<T, middle, High>();
    else
      return bisect_slot_count<T, Low, middle>();
  }
}

// T{probe x N/2} is valid (N = 1: nothing tested yet). Stops at sizeof(T) * CHAR_BIT + 1 (PFR's
// bound: a slot per bit, bit-fields included) whatever T does.
template <class T, std::size_t N>
constexpr std::size_t grow_slot_count() {
  if constexpr (N > sizeof(T) * CHAR_BIT + 1)
    return boost::pfr::tuple_size_v<T>;  // not an aggregate PFR can count; let it say so
  else if constexpr (initializable_with_n<T, N>)
    return grow_slot_count<T, N * 2>();
  else
    return bisect_slot_count<T, N / 2, N>();
}

template <class T>
constexpr std::size_t count_slots() {
  if constexpr (requires { T{}; })
    return grow_slot_count<T, 1>();
  else
    return boost::pfr::tuple_size_v<T>;
}

template <class T>
inline constexpr std::size_t slot_count = count_slots<T>();

// Member I of an aggregate object (PFR's structured binding for T's count), and its type.
template <std::size_t I, class T>
constexpr auto& member_ref(T& object) noexcept {
  return boost::pfr::detail::sequence_tuple::get<I>(
      boost::pfr::detail::tie_as_tuple(object, boost::pfr::detail::size_t_<slot_count<std::remove_cv_t<T>>>{}));
}
template <class T, std::size_t I>
using member_type_t = std::remove_reference_t<decltype(member_ref<I>(std::declval<T&>()))>;

}  // namespace ctff::detail
