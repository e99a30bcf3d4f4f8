// a + b, a * b, a / b on unplaced values: generic_plus / generic_multiply / generic_divide over
// an unnamed <a,b> struct, bound like any intrinsic call. Both sides must have equivalent types,
// tensors or structs of tensors (a scalar is not broadcast: `x * 0.5f` on a float32[4] x is a
// diagnostic that says to write the constant as a std::array). a - b, a % b, -a: a diagnostic
// (no intrinsic does them).
// generic_zero<T>(): the inline intrinsic `generic_zero` of type T.
#pragma once

#include <source_location>
#include <type_traits>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/common.hpp"
#include "ctff/types/relations.hpp"

namespace ctff {

// Operands of a + b, a * b, a / b on unplaced values: both traceable, at least one traced.
template <class A, class B>
concept generic_operands = traceable<A> && traceable<B> && (traced<A> || traced<B>);

namespace detail {

// A tensor of rank 0 (float32, not float32[4] nor one of unknown rank).
template <class T> inline constexpr bool is_rank0_tensor_v = false;
template <dtype D> inline constexpr bool is_rank0_tensor_v<tensor<D>> = true;

template <class G, class A, class B>
constexpr auto generic_binary(const std::source_location& where, A&& a, B&& b) {
  using T = value_type_t<A>;
  using U = value_type_t<B>;
  if constexpr (!structure_of_tensors_v<T> || !structure_of_tensors_v<U>) {
    CTFF_DIAGNOSE(report<labeled<"left", T>, labeled<"right", U>>::shown,
                  "ctff: generic operator: " CTFF_RULE_TENSOR_OPERANDS);
    return poisoned<tensor<dtype::int32>>();
  } else if constexpr (!is_equivalent_v<T, U> && is_rank0_tensor_v<T> != is_rank0_tensor_v<U>) {
    // `x * 0.5f` on a float32[4] x: generic_multiply is (<T,T> -> T), and Python never broadcast
    // (Value.__mul__ required equivalent types until TFF 0.67 removed it): no bytes to match, so
    // say what to write.
    CTFF_DIAGNOSE(report<labeled<"left", T>, labeled<"right", U>>::shown,
                  "ctff: generic operator: federated_language does not broadcast a scalar (the "
                  "operands must have one type, <T,T>): write the constant with the other's type "
                  "(float32[4]: std::array<float, 4>{0.5f, 0.5f, 0.5f, 0.5f}; a struct: "
                  "ctff::make_struct of such constants), or compute in a TensorFlow computation");
    return poisoned<std::conditional_t<is_rank0_tensor_v<T>, U, T>>();
  } else if constexpr (!is_equivalent_v<T, U>) {
    CTFF_DIAGNOSE(report<labeled<"left", T>, labeled<"right", U>>::shown,
                  "ctff: generic operator: both operands must have the same type");
    return poisoned<T>();
  } else {
    using F = function_t<struct_t<T, T>, T>;
    return intrinsic_call<F, G>(where, static_cast<A&&>(a), static_cast<B&&>(b));
  }
}

// The same intrinsic called on one value of type <T,T> (Python's building blocks:
// `generic_plus(arg)`), the argument passed as it is.
template <class G, class S>
constexpr auto generic_on_pair(const std::source_location& where, S&& s) {
  using P = value_type_t<S>;
  if constexpr (!(struct_info<P>::is_struct && struct_info<P>::size == 2)) {
    CTFF_DIAGNOSE(report<labeled<"argument", P>>::shown,
                  "ctff: generic operator: a single argument must be a struct of two elements");
    return poisoned<tensor<dtype::int32>>();
  } else {
    using T = typename struct_info<P>::template elem_t<0>;
    using U = typename struct_info<P>::template elem_t<1>;
    if constexpr (!structure_of_tensors_v<T> || !structure_of_tensors_v<U>) {
      CTFF_DIAGNOSE(report<labeled<"argument", P>>::shown,
                    "ctff: generic operator: " CTFF_RULE_TENSOR_OPERANDS);
      return poisoned<tensor<dtype::int32>>();
    } else if constexpr (!is_equivalent_v<T, U> || !is_assignable_v<struct_t<T, T>, P>) {
      CTFF_DIAGNOSE(report<labeled<"argument", P>>::shown,
                    "ctff: generic operator: the argument must have type <T,T> (two unnamed "
                    "elements of the same type)");
      return poisoned<T>();
    } else {
      return intrinsic_call<function_t<struct_t<T, T>, T>, G>(where, static_cast<S&&>(s));
    }
  }
}

}  // namespace detail

// generic_plus / generic_multiply / generic_divide as functions: of two operands (like a + b) or
// of one <T,T> value.
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto generic_plus(A&& a, B&& b, std::source_location where = std::source_location::current()) {
  return detail::generic_binary<detail::row::generic_plus>(where, static_cast<A&&>(a),
                                                          static_cast<B&&>(b));
}
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto generic_multiply(A&& a, B&& b, std::source_location where = std::source_location::current()) {
  return detail::generic_binary<detail::row::generic_multiply>(where, static_cast<A&&>(a),
                                                          static_cast<B&&>(b));
}
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto generic_divide(A&& a, B&& b, std::source_location where = std::source_location::current()) {
  return detail::generic_binary<detail::row::generic_divide>(where, static_cast<A&&>(a),
                                                          static_cast<B&&>(b));
}
template <traced S>
constexpr auto generic_plus(S&& s, std::source_location where = std::source_location::current()) {
  return detail::generic_on_pair<detail::row::generic_plus>(where, static_cast<S&&>(s));
}
template <traced S>
constexpr auto generic_multiply(S&& s, std::source_location where = std::source_location::current()) {
  return detail::generic_on_pair<detail::row::generic_multiply>(where, static_cast<S&&>(s));
}
template <traced S>
constexpr auto generic_divide(S&& s, std::source_location where = std::source_location::current()) {
  return detail::generic_on_pair<detail::row::generic_divide>(where, static_cast<S&&>(s));
}

template <class A, class B>
  requires generic_operands<A, B>
constexpr auto operator+(A&& a, B&& b) {
  return detail::generic_binary<detail::row::generic_plus>(
      std::source_location{}, static_cast<A&&>(a), static_cast<B&&>(b));  // (not known)
}
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto operator*(A&& a, B&& b) {
  return detail::generic_binary<detail::row::generic_multiply>(
      std::source_location{}, static_cast<A&&>(a), static_cast<B&&>(b));  // (not known)
}
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto operator/(A&& a, B&& b) {
  return detail::generic_binary<detail::row::generic_divide>(
      std::source_location{}, static_cast<A&&>(a), static_cast<B&&>(b));  // (not known)
}

// a - b, a % b and -a: federated_language has no intrinsic for them (Python's Value defines
// none). One diagnostic each, and a poisoned result, so that the traced function still compiles
// and nothing more is reported about it or its computation.
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto operator-(A&&, B&&) {
  using namespace detail;
  CTFF_DIAGNOSE(report<labeled<"left", value_type_t<A>>, labeled<"right", value_type_t<B>>>::shown,
                "ctff: operator-: " CTFF_RULE_NO_SUCH_OPERATOR("subtraction"));
  return poisoned<value_type_t<A>>();
}
template <class A, class B>
  requires generic_operands<A, B>
constexpr auto operator%(A&&, B&&) {
  using namespace detail;
  CTFF_DIAGNOSE(report<labeled<"left", value_type_t<A>>, labeled<"right", value_type_t<B>>>::shown,
                "ctff: operator%: " CTFF_RULE_NO_SUCH_OPERATOR("remainder"));
  return poisoned<value_type_t<A>>();
}
template <traced A>
constexpr auto operator-(A&&) {
  using namespace detail;
  CTFF_DIAGNOSE(report<labeled<"operand", value_type_t<A>>>::shown,
                "ctff: operator-: " CTFF_RULE_NO_SUCH_OPERATOR("negation"));
  return poisoned<value_type_t<A>>();
}

// generic_zero<T>(): the bare Intrinsic `generic_zero` of type T (a tensor or a struct of
// tensors), the zero of T's algebra. Not a call, so nothing is bound: it stays inline.
template <class T>
constexpr auto generic_zero() {
  using namespace detail;
  using Z = tff_t<T>;
  if constexpr (!structure_of_tensors_v<Z>) {
    CTFF_DIAGNOSE(report<labeled<"type", Z>>::shown,
                  "ctff: generic_zero: the type must be a tensor or a struct of tensors");
    return poisoned<tensor<dtype::int32>>();
  } else {
    trace_ctx* c = new_floating();
    const std::uint32_t id = intrinsic_node<Z, row::generic_zero>(*c);
    return value_access::make<Z>(location{c, id, 0, 0});
  }
}

}  // namespace ctff
