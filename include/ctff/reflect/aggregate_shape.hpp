// Shapes Boost.PFR cannot reflect, a base class and a C array member, and a reference or bit-field
// member, whose name cannot be read: found before PFR is asked, and reported naming the aggregate.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/fixed_string.hpp"
#include "ctff/reflect/member_name.hpp"
#include "ctff/reflect/slot_count.hpp"

namespace ctff::detail {

// Shapes Boost.PFR cannot reflect, detected before PFR is asked (its own errors name neither the
// aggregate nor the member): a base class, a C array member. Both are found by aggregate
// initialization in requires-expressions, which fail quietly.

// Converts to a base class of T and to nothing else: T{base_probe<T>{}} is valid only when T's
// first element is a base (bases come before members in aggregate initialization).
template <class T>
struct base_probe {
  template <class B>
    requires(std::is_class_v<B> && !std::is_same_v<B, T> && std::is_base_of_v<B, T>)
  operator B&&() const noexcept;  // declared only: used in unevaluated operands
};

template <class T>
concept aggregate_with_base = requires { T{base_probe<T>{}}; };

// any_probe (reflect/slot_count.hpp) converts to anything (PFR's count works the same way).
template <std::size_t>
using any_probe_at = any_probe;

// With E initializers, one per scalar slot (PFR's count, in which a C array member `float w[4]`
// takes 4 slots through brace elision): is T{any x S, {}, any x (E - S - 1)} valid? `{}` always
// initializes one member or one array element, except at the first slot of a C array member,
// where it initializes the whole array and leaves too many initializers. `{any}` stands in where
// `{}` fails for another reason (a reference member, no default constructor).
template <class T, std::size_t S, std::size_t E, std::size_t... I, std::size_t... J>
constexpr bool slot_starts_member(std::index_sequence<I...>, std::index_sequence<J...>) {
  return requires { T{any_probe_at<I>{}..., {}, any_probe_at<J>{}...}; } ||
         requires { T{any_probe_at<I>{}..., {any_probe{}}, any_probe_at<J>{}...}; };
}

// A slot that fails the test above starts a C array member when the array can be initialized
// whole there (`{}` or `{any}`, no initializers after it), which a reference member cannot.
template <class T, std::size_t... I>
constexpr bool whole_array_at(std::index_sequence<I...>) {
  return requires { T{any_probe_at<I>{}..., {}}; } ||
         requires { T{any_probe_at<I>{}..., {any_probe{}}}; };
}

template <class T, std::size_t E, std::size_t... S>
constexpr std::size_t first_c_array_slot(std::index_sequence<S...>) {
  constexpr bool starts[] = {
      true, (slot_starts_member<T, S, E>(std::make_index_sequence<S>{},
                                         std::make_index_sequence<E - S - 1>{}) ||
             !whole_array_at<T>(std::make_index_sequence<S>{}))...};
  for (std::size_t s = 0; s != E; ++s)
    if (!starts[s + 1]) return s;
  return E;
}

// The index of T's first C array member (members before it take one slot each), or E: none.
// Common case, one requires-expression: E braced initializers `{any}`, one per slot, are valid
// only when no member takes several slots.
template <class T, std::size_t E, std::size_t... I>
constexpr std::size_t c_array_member_index(std::index_sequence<I...>) {
  if constexpr (E == 0 || requires { T{{((void)I, any_probe{})}...}; })
    return E;
  else
    return first_c_array_slot<T, E>(std::make_index_sequence<E>{});
}

// The number of members, arrays counted once, when every member takes `{any}` (else 0): the
// largest n with T{{any} x n} valid, confirmed by T{{any} x n, any} being invalid.
template <class T, std::size_t N, std::size_t... I>
constexpr bool braced_init_valid(std::index_sequence<I...>) {
  return requires { T{{((void)I, any_probe{})}...}; };
}
template <class T, std::size_t N, std::size_t... I>
constexpr bool braced_init_full(std::index_sequence<I...>) {
  return braced_init_valid<T, N>(std::index_sequence<I...>{}) &&
         !requires { T{{((void)I, any_probe{})}..., any_probe{}}; };
}
template <class T, std::size_t E, std::size_t... N>
constexpr std::size_t member_count(std::index_sequence<N...>) {
  constexpr bool full[] = {false, braced_init_full<T, N + 1>(std::make_index_sequence<N + 1>{})...};
  for (std::size_t n = E; n != 0; --n)
    if (full[n]) return n;
  return 0;
}

// A reference member makes every member address non-constant (PFR's tie reads the reference), a
// bit-field has no address: then no name can be read. Report that, not a failed template argument.
template <class T>
consteval bool member_addresses_are_constant() {
  if constexpr (slot_count<T> == 0)
    return true;
  else
    return has_constant_member_addresses<T>;
}

template <class T>
inline constexpr bool has_addressable_members = member_addresses_are_constant<T>();

// Named so that the failed requirement shows the aggregate (and the member's index).
template <class T>
inline constexpr bool has_no_base_class = !aggregate_with_base<T>;
template <class T, auto Member>
inline constexpr bool member_is_not_a_c_array = false;

template <class T, auto Member>
constexpr void report_c_array_member() {
  static_assert(member_is_not_a_c_array<T, Member>,
                "ctff: an aggregate with a C array member has no TFF type (the aggregate and "
                "the member follow in member_is_not_a_c_array); write std::array<T, N> instead "
                "of T[N], or specialize ctff::tff_type_of for the aggregate");
}

// Names the member when the member count can be found (every member takes `{any}`), else gives
// its index.
template <class T, std::size_t E, std::size_t Index>
constexpr void find_c_array_member() {
  constexpr std::size_t m = member_count<T, E>(std::make_index_sequence<E>{});
  // (`T{}` fails with a reference member, whose address is no constant.)
  if constexpr (m > Index && requires { T{}; }) {
    constexpr std::string_view name = counted_member_name_v<T, m, Index>;
    report_c_array_member<T, to_fixed_string<name.size()>(name)>();
  } else {
    report_c_array_member<T, Index>();
  }
}

// Every check that needs the aggregate's shape, in the order that lets each run: PFR's count
// fails on a base class, its member access on a C array member.
template <class T>
constexpr bool check_aggregate_shape() {
  if constexpr (aggregate_with_base<T>) {
    static_assert(has_no_base_class<T>,
                  "ctff: an aggregate with a base class has no TFF type (Boost.PFR reads the "
                  "members of one class only); declare the base's members in the struct itself, "
                  "or specialize ctff::tff_type_of for it");
    return false;
  } else if constexpr (constexpr std::size_t e = slot_count<T>,
                       i = c_array_member_index<T, e>(std::make_index_sequence<e>{});
                       i != e) {
    find_c_array_member<T, e, i>();
    return false;
  } else {
    static_assert(has_addressable_members<T>,
                  "ctff: an aggregate with a reference or bit-field member has no TFF type (its "
                  "member names cannot be read); hold the value itself, drop the bit-field, or "
                  "specialize ctff::tff_type_of for it");
    return has_addressable_members<T>;
  }
}

}  // namespace ctff::detail
