// federated_zip, explicit and implicit. federated_zip(s) of a (nested) struct of federated values
// with one placement is `federated_zip_at_clients` / `federated_zip_at_server`: the parameter is
// s's type with CLIENTS all_equal leaves made not all_equal, the result the struct with the
// placements stripped (names and nesting kept), {..}@CLIENTS or ..@SERVER.
//
// Implicitly (Python's ensure_federated_value), a struct of federated values passed where an
// operator expects one federated value is zipped inline: the zip call is not bound.
#pragma once

#include <source_location>
#include <tuple>

#include "ctff/core/enum_is.hpp"
#include "ctff/intrinsics/common.hpp"
#include "ctff/trace/zip_types.hpp"

namespace ctff {
namespace detail {

// An operator's federated operand (Python's ensure_federated_value): `kind` says whether X is
// federated, a struct that is zipped to one, or neither; `type` is the federated type it has.
enum class operand_kind { federated, zipped, other };
template <class X, class T = type_or_void_t<X>>
struct fed_operand {
  static constexpr operand_kind kind =
      fed_info<T>::is_fed ? operand_kind::federated
                          : (zippable_v<T> ? operand_kind::zipped : operand_kind::other);
  static constexpr bool ok = !detail::is(kind, operand_kind::other);
  using type = T;
};
template <class X, class T>
requires zippable_v<T>
struct fed_operand<X, T> {
  static constexpr operand_kind kind = operand_kind::zipped;
  static constexpr bool ok = true;
  using type = typename zip_of<T>::result;
};

// The operand as an operator passes it on: as it is, or zipped.
template <class X>
constexpr auto as_federated(X&& x) {
  if constexpr (detail::is(fed_operand<X>::kind, operand_kind::zipped)) {
    return auto_zip<X&&>{static_cast<X&&>(x)};
  } else {
    return static_cast<X&&>(x);
  }
}

}  // namespace detail

// federated_zip(s) of a struct of federated values, or federated_zip(a, b, ...).
template <class S>
constexpr auto federated_zip(S&& s, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using T = type_or_void_t<S>;
  using Z = zip_info<T>;
  using Guess = clients_t<typename strip_fed<T>::type>;
  if constexpr (!struct_info<T>::is_struct) {
    if constexpr (std::is_void_v<T>) {
      static_assert(cxx_types<S>::shown, "ctff: federated_zip: the value must be a struct");
      return poisoned<clients_t<tensor<dtype::int32>>>();
    } else {
      CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                    "ctff: federated_zip: the value must be a struct");
      return poisoned<clients_t<tensor<dtype::int32>>>();
    }
  } else if constexpr (!Z::leaves_federated) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: every leaf of the struct must be a federated value");
    return poisoned<clients_t<tensor<dtype::int32>>>();
  } else if constexpr (Z::placements == 0u) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: the struct must contain at least one federated value");
    return poisoned<Guess>();
  } else if constexpr (Z::placements == 3u) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: all federated values must have the same placement");
    return poisoned<Guess>();
  } else {
    using ZF = zip_of<T>;
    return intrinsic_call<typename ZF::fn, typename ZF::intrinsic>(where, static_cast<S&&>(s));
  }
}

template <class A, class B, class... C>
constexpr auto federated_zip(A&& a, B&& b, C&&... c) {
  return federated_zip(std::tuple<A&&, B&&, C&&...>(static_cast<A&&>(a), static_cast<B&&>(b),
                                                    static_cast<C&&>(c)...),
                       std::source_location{});  // (not known: variadic)
}

}  // namespace ctff
