// Static TFF types: each TFF type is a C++ class type, so the compiler checks every type rule.
// The class templates here take TFF types only; the aliases in types/aliases.hpp also accept C++
// types (int, std::array, aggregates, ...) and map them through reflection.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/fixed_string.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

enum class placement_kind : std::uint8_t { clients, server };

constexpr std::string_view placement_name(placement_kind p) {
  return detail::is(p, placement_kind::clients) ? "CLIENTS" : "SERVER";
}
constexpr std::string_view placement_uri(placement_kind p) {
  return detail::is(p, placement_kind::clients) ? "clients" : "server";
}
// Python's per-placement default for all_equal.
constexpr bool default_all_equal(placement_kind p) { return detail::is(p, placement_kind::server); }

inline constexpr std::int64_t unknown_dim = -1;   // a dimension printed as `?`
inline constexpr std::int64_t unknown_rank = -2;  // alone: shape=None

namespace detail {
template <class T> inline constexpr bool is_tff_type_v = false;
template <class T> inline constexpr bool is_field_v = false;
template <class T> inline constexpr bool is_federated_v = false;
template <class T> inline constexpr bool is_function_v = false;
template <class T> inline constexpr bool is_sequence_v = false;
template <class T> inline constexpr bool is_struct_v = false;
template <class T> inline constexpr bool is_tensor_v = false;

// Completing a type instantiates its class template, whose static_asserts check the type rules;
// merely naming a specialization (as a template argument) does not. Each class template below
// completes its children, so completing a type checks all of it. Done in a variable's initializer
// so that a failed check is the only diagnostic (a failure inside a function being constant-
// evaluated would add a cascade of "not a constant expression" errors).
template <class T> inline constexpr bool is_complete_v = sizeof(T) != 0;
template <class T> inline constexpr bool is_complete_or_void_v = is_complete_v<T>;
template <> inline constexpr bool is_complete_or_void_v<void> = true;

template <std::int64_t... D>
constexpr bool valid_dims() {
  constexpr std::int64_t dims[] = {0, D...};
  std::size_t n = sizeof...(D);
  for (std::size_t i = 1; i <= n; ++i) {
    if (dims[i] == unknown_rank) {
      if (n != 1) return false;
    } else if (dims[i] < -1) {
      return false;
    }
  }
  return true;
}
}  // namespace detail

// A tensor: dtype and shape. `tensor<dtype::int32>` is a scalar, `tensor<dtype::float32,
// unknown_dim, 4>` is float32[?,4], `tensor<dtype::int64, unknown_rank>` has no known rank.
template <dtype D, std::int64_t... Dims>
struct tensor {
  static_assert(!detail::is(D, dtype::invalid), "ctff: a tensor needs a valid dtype");
  static_assert(detail::valid_dims<Dims...>(),
                "ctff: tensor dimensions must be >= 0 or unknown_dim; unknown_rank stands alone");
};

// A named element of a struct type.
template <fixed_string Name, class T>
struct field {
  static_assert(Name.size() != 0, "ctff: a struct field name must not be empty");
  static_assert(detail::reserved_name_free<Name>,
                "ctff: a struct field name must not be an attribute name of Python's StructType "
                "(items, named, children, __x__, ...)");
  static_assert(detail::is_complete_v<T>);
};

namespace detail {
template <class E> struct elem { using type = E; static constexpr std::string_view name{}; };
template <fixed_string N, class T> struct elem<field<N, T>> {
  using type = T;
  static constexpr std::string_view name = N.view();
};

template <class... E>
constexpr bool unique_names() {
  constexpr std::string_view names[] = {std::string_view{}, elem<E>::name...};
  constexpr std::size_t n = sizeof...(E) + 1;
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (!names[i].empty() && names[i] == names[j]) return false;
  return true;
}
}  // namespace detail

// A struct type: ordered elements, each a TFF type or a field<"name", T>.
template <class... E>
struct struct_t {
  static_assert((detail::is_tff_type_v<typename detail::elem<E>::type> && ...),
                "ctff: struct_t elements must be TFF types (use ctff::struct_ for C++ types)");
  static_assert(detail::unique_names<E...>(), "ctff: struct field names must be unique");
  static_assert((detail::is_complete_v<E> && ...));
};

namespace detail {
// Whether T is, or holds through structs, a federated, function or sequence type. (Those three are
// the only kinds with children besides structs, so looking through structs finds every one.)
template <class T>
struct contains_unsequenceable
    : std::bool_constant<is_federated_v<T> || is_function_v<T> || is_sequence_v<T>> {};
template <class... E>
struct contains_unsequenceable<struct_t<E...>>
    : std::bool_constant<(contains_unsequenceable<typename elem<E>::type>::value || ...)> {};
}  // namespace detail

// A sequence of elements.
template <class T>
struct sequence_t {
  static_assert(detail::is_tff_type_v<T>, "ctff: sequence_t takes a TFF type");
  static_assert(!detail::contains_unsequenceable<T>::value,
                "ctff: a sequence cannot contain a federated, function or sequence type");
  static_assert(detail::is_complete_v<T>);
};

// A function type; P = void means no parameter.
template <class P, class R>
struct function_t {
  static_assert(std::is_void_v<P> || detail::is_tff_type_v<P>,
                "ctff: function_t takes TFF types");
  static_assert(detail::is_tff_type_v<R>, "ctff: function_t takes TFF types");
  static_assert(detail::is_complete_or_void_v<P> && detail::is_complete_v<R>);
};

namespace detail {
template <class T> struct contains_placed : std::bool_constant<is_federated_v<T> || is_function_v<T>> {};
template <class... E> struct contains_placed<struct_t<E...>>
    : std::bool_constant<(contains_placed<typename elem<E>::type>::value || ...)> {};
}  // namespace detail

// A federated type: a member placed at CLIENTS or SERVER, equal everywhere or not.
template <class T, placement_kind P, bool AllEqual>
struct federated_t {
  static_assert(detail::is_tff_type_v<T>, "ctff: federated_t takes a TFF member type");
  static_assert(!detail::contains_placed<T>::value,
                "ctff: a federated type cannot contain a federated or function type");
  static_assert(detail::is_complete_v<T>);
};

// The type of a placement literal.
struct placement_t {};

// An abstract type variable; it appears only in generic intrinsic signatures, never on the wire.
template <fixed_string Label>
struct abstract_t {};

namespace detail {
// The type of what an operator returns after a failed check (trace/build.hpp, `poisoned`): a
// type variable no rule accepts, which every later check naming it reports silently
// (types/report.hpp), so that one mistake gives one diagnostic.
using poison_t = abstract_t<"ctff_invalid">;

// Whether some node of a static type satisfies P (a trait on one node): a template recursion, so
// each nested type is looked at once per P, however many types contain it.
template <template <class> class P, class T> inline constexpr bool any_node_v = P<T>::value;
template <template <class> class P, fixed_string N, class T>
inline constexpr bool any_node_v<P, field<N, T>> = any_node_v<P, T>;
template <template <class> class P, class... E>
inline constexpr bool any_node_v<P, struct_t<E...>> = (any_node_v<P, E> || ...);
template <template <class> class P, class T>
inline constexpr bool any_node_v<P, sequence_t<T>> = any_node_v<P, T>;
template <template <class> class P, class Q, class R>
inline constexpr bool any_node_v<P, function_t<Q, R>> = any_node_v<P, Q> || any_node_v<P, R>;
template <template <class> class P, class T, placement_kind K, bool A>
inline constexpr bool any_node_v<P, federated_t<T, K, A>> = any_node_v<P, T>;

template <class T> struct is_poison : std::is_same<T, poison_t> {};
template <class T> struct is_abstract : std::false_type {};
template <fixed_string L> struct is_abstract<abstract_t<L>> : std::true_type {};

template <class T> inline constexpr bool has_poison_v = any_node_v<is_poison, T>;
// Whether a type has a type variable (abstract types never reach the wire).
template <class T> inline constexpr bool has_abstract_v = any_node_v<is_abstract, T>;

template <dtype D, std::int64_t... N> inline constexpr bool is_tff_type_v<tensor<D, N...>> = true;
template <class... E> inline constexpr bool is_tff_type_v<struct_t<E...>> = true;
template <class T> inline constexpr bool is_tff_type_v<sequence_t<T>> = true;
template <class P, class R> inline constexpr bool is_tff_type_v<function_t<P, R>> = true;
template <class T, placement_kind P, bool A>
inline constexpr bool is_tff_type_v<federated_t<T, P, A>> = true;
template <> inline constexpr bool is_tff_type_v<placement_t> = true;
template <fixed_string L> inline constexpr bool is_tff_type_v<abstract_t<L>> = true;

template <fixed_string N, class T> inline constexpr bool is_field_v<field<N, T>> = true;
template <class T, placement_kind P, bool A>
inline constexpr bool is_federated_v<federated_t<T, P, A>> = true;
template <class P, class R> inline constexpr bool is_function_v<function_t<P, R>> = true;
template <class T> inline constexpr bool is_sequence_v<sequence_t<T>> = true;
template <class... E> inline constexpr bool is_struct_v<struct_t<E...>> = true;
template <dtype D, std::int64_t... N> inline constexpr bool is_tensor_v<tensor<D, N...>> = true;
}  // namespace detail

// A TFF type spelled as a ctff type (not a C++ type that maps to one).
template <class T>
concept tff_type = detail::is_tff_type_v<T>;

// Placement tags for federated_value / federated_eval, and the all_equal marker of at_clients.
template <placement_kind P>
struct placement_tag {
  static constexpr placement_kind kind = P;
};
inline constexpr placement_tag<placement_kind::server> SERVER{};
inline constexpr placement_tag<placement_kind::clients> CLIENTS{};
struct all_equal {};
struct not_all_equal {};

}  // namespace ctff
