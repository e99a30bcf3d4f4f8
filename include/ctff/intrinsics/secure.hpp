// Secure sums of integer structures at CLIENTS: federated_secure_sum(v, max_input) and
// federated_secure_sum_bitwidth(v, bitwidth), of types (<{V}@CLIENTS,B> -> V@SERVER). The bound is
// one integer scalar, or a struct of the member's structure and names; a scalar bound with a struct
// member is replicated to the member's structure (a Struct with the member's names whose every
// leaf is the bound), as Python's map_structure does.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {
namespace detail {

// The type of bound B replicated to the structure of M.
template <class B>
struct to_leaf {
  template <class>
  struct of {
    using type = B;
  };
};
template <class M, class B>
using replicate = map_leaves<to_leaf<B>::template of, M>;

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

// federated_secure_sum(v, max_input) and federated_secure_sum_bitwidth(v, bitwidth): one
// definition (secure_sum.def) for both names; CTFF_OP_BOUND names the bound.
#define CTFF_OP federated_secure_sum
#define CTFF_OP_BOUND "max_input"
#include "ctff/intrinsics/secure_sum.def"
#define CTFF_OP federated_secure_sum_bitwidth
#define CTFF_OP_BOUND "bitwidth"
#include "ctff/intrinsics/secure_sum.def"

}  // namespace ctff
