// The bridge from C++ types to TFF types: `tff_type_of<T>` is the customization point (specialize
// it for your own types with a member `using type = <TFF type>`), `tff_t<T>` applies it.
#pragma once

#include <type_traits>

#include "ctff/types/type.hpp"

namespace ctff {

// Primary template: no mapping. Reflection headers and users add specializations.
template <class T, class Enable = void>
struct tff_type_of {};

template <tff_type T>
struct tff_type_of<T> {
  using type = T;
};

namespace detail {
template <class T>
concept has_tff_type = requires { typename tff_type_of<std::remove_cvref_t<T>>::type; };

template <class T>
struct tff_t_impl {
  static_assert(has_tff_type<T>,
                "ctff: no TFF type for this C++ type; specialize ctff::tff_type_of<T> for it");
  using type = void;
};
template <has_tff_type T>
struct tff_t_impl<T> {
  using type = typename tff_type_of<std::remove_cvref_t<T>>::type;
};
}  // namespace detail

// A C++ type with a TFF type (a TFF type itself, a scalar, std::array, tuple, aggregate, ...).
template <class T>
concept reflectable = detail::has_tff_type<T>;

template <class T>
using tff_t = typename detail::tff_t_impl<T>::type;

}  // namespace ctff
