// federated_zip, explicit and implicit. federated_zip(s) of a (nested) struct of federated values
// with one placement is `federated_zip_at_clients` / `federated_zip_at_server`: the parameter is
// s's type with CLIENTS all_equal leaves made not all_equal, the result the struct with the
// placements stripped (names and nesting kept), {..}@CLIENTS or ..@SERVER.
//
// Implicitly (Python's ensure_federated_value), a struct of federated values passed where an
// operator expects one federated value is zipped inline: the zip call is not bound.
#pragma once

#include <tuple>

#include "ctff/intrinsics/common.hpp"

namespace ctff {
namespace detail {

// Placement stripped from every federated leaf (the member type of a zip's result).
template <class T>
struct strip_fed {
  using type = T;
};
template <class T, placement_kind P, bool A>
struct strip_fed<federated_t<T, P, A>> {
  using type = T;
};
template <class... E>
struct strip_fed<struct_t<E...>> {
  template <class X>
  struct one {
    using type = typename strip_fed<X>::type;
  };
  template <fixed_string N, class X>
  struct one<field<N, X>> {
    using type = field<N, typename strip_fed<X>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};
// CLIENTS all_equal leaves normalised to not all_equal (a zip's parameter type).
template <class T>
struct norm_zip {
  using type = T;
};
template <class T, bool A>
struct norm_zip<federated_t<T, placement_kind::clients, A>> {
  using type = clients_t<T>;
};
template <class... E>
struct norm_zip<struct_t<E...>> {
  template <class X>
  struct one {
    using type = typename norm_zip<X>::type;
  };
  template <fixed_string N, class X>
  struct one<field<N, X>> {
    using type = field<N, typename norm_zip<X>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};

// What a zip of T would see: whether every leaf is federated, and the placements met (bit 1:
// CLIENTS, bit 2: SERVER).
template <class T>
struct zip_info {
  static constexpr bool leaves_federated = false;
  static constexpr unsigned placements = 0;
};
template <class T, placement_kind P, bool A>
struct zip_info<federated_t<T, P, A>> {
  static constexpr bool leaves_federated = true;
  static constexpr unsigned placements = P == placement_kind::clients ? 1u : 2u;
};
template <class... E>
struct zip_info<struct_t<E...>> {
  static constexpr bool leaves_federated =
      (zip_info<typename elem<E>::type>::leaves_federated && ...);
  static constexpr unsigned placements = (0u | ... | zip_info<typename elem<E>::type>::placements);
};

// Whether T is a struct that federated_zip accepts.
template <class T>
inline constexpr bool zippable_v = struct_info<T>::is_struct&& zip_info<T>::leaves_federated &&
                                   (zip_info<T>::placements == 1u || zip_info<T>::placements == 2u);

template <class T, bool Clients = zip_info<T>::placements == 1u>
struct zip_of {  // at CLIENTS
  using result = clients_t<typename strip_fed<T>::type>;
  using fn = function_t<typename norm_zip<T>::type, result>;
  using generic = sig::federated_zip_at_clients;
  static constexpr std::string_view uri = "federated_zip_at_clients";
};
template <class T>
struct zip_of<T, false> {  // at SERVER
  using result = server_t<typename strip_fed<T>::type>;
  using fn = function_t<T, result>;
  using generic = sig::federated_zip_at_server;
  static constexpr std::string_view uri = "federated_zip_at_server";
};

// An argument zipped inline: Call(Intrinsic(federated_zip_at_*), x), not bound.
template <class X>
struct auto_zip {
  X x;  // a reference type
};
template <class X>
struct convert<auto_zip<X>> {
  static constexpr bool ok = true;
  using Z = zip_of<value_type_t<X>>;
  using type = typename Z::result;
  static constexpr void collect(const auto_zip<X>& z, bool temp, std::vector<operand>& ops) {
    convert_t<X>::collect(z.x, temp && !std::is_lvalue_reference_v<X>, ops);
  }
  static constexpr std::uint32_t make(trace_ctx& c, const auto_zip<X>& z) {
    const std::uint32_t arg = convert_t<X>::make(c, z.x);
    return inline_call_node<type>(c, intrinsic_node<typename Z::fn>(c, Z::uri), arg);
  }
};

// An operator's federated operand (Python's ensure_federated_value): `kind` says whether X is
// federated, a struct that is zipped to one, or neither; `type` is the federated type it has.
enum class operand_kind { federated, zipped, other };
template <class X, class T = type_or_void_t<X>>
struct fed_operand {
  static constexpr operand_kind kind =
      fed_info<T>::is_fed ? operand_kind::federated
                          : (zippable_v<T> ? operand_kind::zipped : operand_kind::other);
  static constexpr bool ok = kind != operand_kind::other;
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
  if constexpr (fed_operand<X>::kind == operand_kind::zipped) {
    return auto_zip<X&&>{static_cast<X&&>(x)};
  } else {
    return static_cast<X&&>(x);
  }
}

}  // namespace detail

// federated_zip(s) of a struct of federated values, or federated_zip(a, b, ...).
template <class S>
constexpr auto federated_zip(S&& s) {
  using namespace detail;
  using T = type_or_void_t<S>;
  using Z = zip_info<T>;
  using Guess = clients_t<typename strip_fed<T>::type>;
  if constexpr (!struct_info<T>::is_struct) {
    if constexpr (std::is_void_v<T>) {
      static_assert(cxx_types<S>::shown, "ctff: federated_zip: the value must be a struct");
      return poisoned<clients_t<tensor<dtype::int32>>>();
    } else {
      static_assert(report<labeled<"value", T>>::shown,
                    "ctff: federated_zip: the value must be a struct");
      return poisoned<clients_t<tensor<dtype::int32>>>();
    }
  } else if constexpr (!Z::leaves_federated) {
    static_assert(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: every leaf of the struct must be a federated value");
    return poisoned<clients_t<tensor<dtype::int32>>>();
  } else if constexpr (Z::placements == 0u) {
    static_assert(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: the struct must contain at least one federated value");
    return poisoned<Guess>();
  } else if constexpr (Z::placements == 3u) {
    static_assert(report<labeled<"value", T>>::shown,
                  "ctff: federated_zip: all federated values must have the same placement");
    return poisoned<Guess>();
  } else {
    using ZF = zip_of<T>;
    return intrinsic_call<typename ZF::fn, typename ZF::generic>(ZF::uri, static_cast<S&&>(s));
  }
}

template <class A, class B, class... C>
constexpr auto federated_zip(A&& a, B&& b, C&&... c) {
  return federated_zip(std::tuple<A&&, B&&, C&&...>(static_cast<A&&>(a), static_cast<B&&>(b),
                                                    static_cast<C&&>(c)...));
}

}  // namespace ctff
