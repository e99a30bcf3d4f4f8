// Secure sums of integer structures at CLIENTS: federated_secure_sum(v, max_input) and
// federated_secure_sum_bitwidth(v, bitwidth), of types (<{V}@CLIENTS,B> -> V@SERVER). The bound is
// one integer scalar, or a struct of the member's structure and names; a scalar bound with a struct
// member is replicated to the member's structure (a Struct with the member's names whose every
// leaf is the bound), as Python's map_structure does.
#pragma once

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {
namespace detail {

// The type of bound B replicated to the structure of M.
template <class M, class B>
struct replicate {
  using type = B;
};
template <class... E, class B>
struct replicate<struct_t<E...>, B> {
  template <class X>
  struct one {
    using type = typename replicate<X, B>::type;
  };
  template <fixed_string N, class X>
  struct one<field<N, X>> {
    using type = field<N, typename replicate<X, B>::type>;
  };
  using type = struct_t<typename one<E>::type...>;
};

// The bound as passed: as it is, or replicated (each leaf the bound's own node, or a fresh
// Literal for a constant).
template <class M, class X>
struct replicated {
  X x;  // a reference type
};

template <class M, class X>
constexpr std::uint32_t replicate_node(trace_ctx& c, const X& x) {
  if constexpr (struct_info<M>::is_struct) {
    // `&c = c, &x = x`, not `&`: clang 22's bytecode interpreter cannot read a reference
    // parameter captured by reference (trace/opaque/refs.hpp).
    return [&c = c, &x = x]<std::size_t... I>(std::index_sequence<I...>) {
      const std::uint32_t ids[] = {
          0u, replicate_node<typename struct_info<M>::template elem_t<I>>(c, x)...};
      using S = typename replicate<M, value_type_t<X>>::type;
      auto tb = type_bytes<S>();
      return struct_node(c, ids + 1, struct_info<M>::names, sizeof...(I), tb.data(), tb.size());
    }
    (std::make_index_sequence<struct_info<M>::size>{});
  } else {
    return convert_t<X>::make(c, x);
  }
}

template <class M, class X>
struct convert<replicated<M, X>> {
  static constexpr bool ok = true;
  using type = typename replicate<M, value_type_t<X>>::type;
  static constexpr void collect(const replicated<M, X>& r, bool temp, scratch<operand>& ops) {
    convert_t<X>::collect(r.x, temp && !std::is_lvalue_reference_v<X>, ops);
  }
  static constexpr std::uint32_t make(trace_ctx& c, const replicated<M, X>& r) {
    return replicate_node<M, std::remove_cvref_t<X>>(c, r.x);
  }
};

template <class M, class X>
constexpr auto bound_arg(X&& x) {
  if constexpr (is_tensor_v<value_type_t<X>> && struct_info<M>::is_struct) {
    return replicated<M, X&&>{static_cast<X&&>(x)};
  } else {
    return static_cast<X&&>(x);
  }
}

template <class M, class B>
using bound_type_t = std::conditional_t<is_tensor_v<B> && struct_info<M>::is_struct,
                                        typename replicate<M, B>::type, B>;

}  // namespace detail

template <class V, class X>
constexpr auto federated_secure_sum(V&& v, X&& max_input) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  using B = type_or_void_t<X>;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<server_t<tensor<dtype::int32>>>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!integers_v<member_t<T>>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum: " CTFF_RULE_INTEGER_STRUCTURE("the member type"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!integer_bound_matches<B, member_t<T>>::value) {
    CTFF_DIAGNOSE(
        report<labeled<"max_input", B>, labeled<"value", T>>::shown,
        "ctff: federated_secure_sum: max_input must be one integer scalar, or a struct of "
        "them with the structure and names of the member type");
    return poisoned<server_t<member_t<T>>>();
  } else {
    using M = member_t<T>;
    using F = function_t<struct_t<clients_t<M>, bound_type_t<M, B>>, server_t<M>>;
    return intrinsic_call<F, row::federated_secure_sum>(as_federated(static_cast<V&&>(v)),
                                                        bound_arg<M>(static_cast<X&&>(max_input)));
  }
}

template <class V, class X>
constexpr auto federated_secure_sum_bitwidth(V&& v, X&& bitwidth) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  using B = type_or_void_t<X>;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum_bitwidth: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<server_t<tensor<dtype::int32>>>();
  } else if constexpr (!at_clients_v<T>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum_bitwidth: "
                  CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!integers_v<member_t<T>>) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum_bitwidth: "
                  CTFF_RULE_INTEGER_STRUCTURE("the member type"));
    return poisoned<server_t<member_t<T>>>();
  } else if constexpr (!integer_bound_matches<B, member_t<T>>::value) {
    CTFF_DIAGNOSE(report<labeled<"bitwidth", B>, labeled<"value", T>>::shown,
                  "ctff: federated_secure_sum_bitwidth: bitwidth must be one integer scalar, or a "
                  "struct of them with the structure and names of the member type");
    return poisoned<server_t<member_t<T>>>();
  } else {
    using M = member_t<T>;
    using F = function_t<struct_t<clients_t<M>, bound_type_t<M, B>>, server_t<M>>;
    return intrinsic_call<F, row::federated_secure_sum_bitwidth>(
        as_federated(static_cast<V&&>(v)),
        bound_arg<M>(static_cast<X&&>(bitwidth)));
  }
}

}  // namespace ctff
