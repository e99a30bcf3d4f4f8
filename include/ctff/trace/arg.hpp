// ctff::arg<"name", T>: a named parameter of a computation; and Python's packing of a
// computation's parameters into its parameter type.
#pragma once

#include <type_traits>

#include "ctff/core/fixed_string.hpp"
#include "ctff/types/aliases.hpp"

namespace ctff {

// A named parameter: computation<"f", arg<"alpha", float>, arg<"beta", int>> has the parameter
// type <alpha=float32,beta=int32>.
template <fixed_string Name, class T>
struct arg {};

namespace detail {

template <class P> struct strip_arg { using type = tff_t<P>; };
template <fixed_string N, class T> struct strip_arg<arg<N, T>> { using type = tff_t<T>; };
template <class P> struct named_arg { using type = tff_t<P>; };
template <fixed_string N, class T> struct named_arg<arg<N, T>> { using type = field<N, tff_t<T>>; };
template <class P> inline constexpr bool is_arg_v = false;
template <fixed_string N, class T> inline constexpr bool is_arg_v<arg<N, T>> = true;
template <class P> inline constexpr fixed_string arg_name_v = "";
template <fixed_string N, class T> inline constexpr fixed_string arg_name_v<arg<N, T>> = N;

// Python's packing: none -> no parameter; one -> its type; n -> one struct, named when every
// parameter is named.
template <class... Ps> struct param_of {
  using type = std::conditional_t<(is_arg_v<Ps> && ...), struct_t<typename named_arg<Ps>::type...>,
                                  struct_t<typename strip_arg<Ps>::type...>>;
};
template <> struct param_of<> { using type = void; };
template <class P> struct param_of<P> { using type = typename strip_arg<P>::type; };

}  // namespace detail
}  // namespace ctff
