// The spellings users write: they accept C++ types wherever a TFF type is expected and normalise
// them, so equal TFF types are the same C++ type.
#pragma once

#include "ctff/types/type.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {
template <class E> struct norm_elem { using type = tff_t<E>; };
template <fixed_string N, class T> struct norm_elem<field<N, T>> { using type = field<N, tff_t<T>>; };
template <class T> struct norm_param { using type = tff_t<T>; };
template <> struct norm_param<void> { using type = void; };
}  // namespace detail

// A struct type; elements are types (unnamed) or field<"name", T>.
template <class... E>
using struct_ = struct_t<typename detail::norm_elem<E>::type...>;

template <class T>
using sequence = sequence_t<tff_t<T>>;

// A function type; P = void for no parameter.
template <class P, class R>
using function = function_t<typename detail::norm_param<P>::type, tff_t<R>>;

template <class T, placement_kind P, bool AllEqual = default_all_equal(P)>
using federated = federated_t<tff_t<T>, P, AllEqual>;

// T@SERVER (all_equal, Python's default at SERVER).
template <class T>
using at_server = federated_t<tff_t<T>, placement_kind::server, true>;

// {T}@CLIENTS, or T@CLIENTS with ctff::all_equal.
template <class T, class Equal = not_all_equal>
using at_clients =
    federated_t<tff_t<T>, placement_kind::clients, std::is_same_v<Equal, all_equal>>;

}  // namespace ctff
