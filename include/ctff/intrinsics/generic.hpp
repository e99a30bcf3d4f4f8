// a + b, a * b, a / b on unplaced values: generic_plus / generic_multiply / generic_divide over
// an unnamed <a,b> struct, bound like any intrinsic call. Both sides must have equivalent types.
#pragma once

#include "ctff/intrinsics/common.hpp"
#include "ctff/types/relations.hpp"

namespace ctff {
namespace detail {

template <class A, class B>
concept generic_operands = convertible<A> && convertible<B> && (traced<A> || traced<B>);

template <class A, class B>
constexpr auto generic_binary(std::string_view uri, A&& a, B&& b) {
  using T = value_type_t<A>;
  using U = value_type_t<B>;
  static_assert(!contains_placed<T>::value && !contains_placed<U>::value,
                "ctff: generic operator: both operands must be unplaced (not federated)");
  static_assert(is_equivalent_v<T, U>, "ctff: generic operator: both operands must have the same type");
  using F = function_t<struct_t<T, T>, T>;
  return intrinsic_call<F>(uri, static_cast<A&&>(a), static_cast<B&&>(b));
}

}  // namespace detail

template <class A, class B>
  requires detail::generic_operands<A, B>
constexpr auto operator+(A&& a, B&& b) {
  return detail::generic_binary("generic_plus", static_cast<A&&>(a), static_cast<B&&>(b));
}
template <class A, class B>
  requires detail::generic_operands<A, B>
constexpr auto operator*(A&& a, B&& b) {
  return detail::generic_binary("generic_multiply", static_cast<A&&>(a), static_cast<B&&>(b));
}
template <class A, class B>
  requires detail::generic_operands<A, B>
constexpr auto operator/(A&& a, B&& b) {
  return detail::generic_binary("generic_divide", static_cast<A&&>(a), static_cast<B&&>(b));
}

}  // namespace ctff
