// The type predicates of federated_language's type_analysis that operators check: which member
// types can be summed, averaged, compared, securely summed; whether a bound matches a structure.
// All look through structs and federated types; an empty struct qualifies.
#pragma once

#include <cstdint>

#include "ctff/core/enum_is.hpp"
#include "ctff/types/inspect.hpp"

namespace ctff::detail {

// Applies Leaf<D, Dims...> to every tensor of T (through structs and federated types); anything
// else fails.
template <template <dtype, std::int64_t...> class Leaf, class T>
struct all_tensors : std::false_type {};
template <template <dtype, std::int64_t...> class Leaf, dtype D, std::int64_t... N>
struct all_tensors<Leaf, tensor<D, N...>> : std::bool_constant<Leaf<D, N...>::value> {};
template <template <dtype, std::int64_t...> class Leaf, class... E>
struct all_tensors<Leaf, struct_t<E...>>
    : std::bool_constant<(all_tensors<Leaf, typename elem<E>::type>::value && ...)> {};
template <template <dtype, std::int64_t...> class Leaf, class T, placement_kind P, bool A>
struct all_tensors<Leaf, federated_t<T, P, A>> : all_tensors<Leaf, T> {};

template <dtype D, std::int64_t... N>
struct numeric_leaf : std::bool_constant<is_numeric(D)> {};  // np.number or bfloat16
template <dtype D, std::int64_t... N>
struct defined_leaf : std::bool_constant<((N >= 0) && ...)> {};
template <dtype D, std::int64_t... N>  // np.inexact: bfloat16 is not a numpy subtype of it
struct inexact_leaf
    : std::bool_constant<(is_floating(D) && !is(D, dtype::bfloat16)) || is_complex(D)> {};
template <dtype D, std::int64_t... N>  // np.integer or np.floating
struct min_max_leaf
    : std::bool_constant<is_integer(D) || (is_floating(D) && !is(D, dtype::bfloat16))> {};
template <dtype D, std::int64_t... N>
struct integer_leaf : std::bool_constant<is_integer(D)> {};

// Tensors in (nested) structs only: no federated, sequence, function or placement type.
template <class T>
struct tensors_only : std::false_type {};
template <dtype D, std::int64_t... N>
struct tensors_only<tensor<D, N...>> : std::true_type {};
template <class... E>
struct tensors_only<struct_t<E...>>
    : std::bool_constant<(tensors_only<typename elem<E>::type>::value && ...)> {};
template <class T>
inline constexpr bool structure_of_tensors_v = tensors_only<T>::value;
// check_is_sum_compatible, in its two parts.
template <class T>
inline constexpr bool sum_numeric_v = all_tensors<numeric_leaf, T>::value;
template <class T>
inline constexpr bool fully_defined_v = all_tensors<defined_leaf, T>::value;
// is_average_compatible
template <class T>
inline constexpr bool average_compatible_v = all_tensors<inexact_leaf, T>::value;
// is_min_max_compatible
template <class T>
inline constexpr bool min_max_compatible_v = all_tensors<min_max_leaf, T>::value;
// is_structure_of_integers
template <class T>
inline constexpr bool integers_v = all_tensors<integer_leaf, T>::value;

// A scalar (exactly one element) integer tensor.
template <class T>
struct single_integer : std::false_type {};
template <dtype D, std::int64_t... N>
struct single_integer<tensor<D, N...>> : std::bool_constant<is_integer(D) && ((N == 1) && ...)> {};

// is_single_integer_or_matches_structure(B, M): B is one integer scalar, or B and M are structs of
// the same length and element names whose elements match in turn.
template <class B, class M>
struct integer_bound_matches : single_integer<B> {};
template <class... X, class... Y>
requires(sizeof...(X) == sizeof...(Y)) struct integer_bound_matches<struct_t<X...>, struct_t<Y...>>
    : std::bool_constant<
          ((elem<X>::name == elem<Y>::name &&
            integer_bound_matches<typename elem<X>::type, typename elem<Y>::type>::value) &&
           ...)> {
};
template <class... X, class... Y>
requires(sizeof...(X) != sizeof...(Y)) struct integer_bound_matches<struct_t<X...>, struct_t<Y...>>
    : std::false_type {
};

// A weight for federated_mean: an integer or floating-point scalar.
template <class T>
struct scalar_weight : std::false_type {};
template <dtype D>
struct scalar_weight<tensor<D>> : std::bool_constant<min_max_leaf<D>::value> {};

}  // namespace ctff::detail
