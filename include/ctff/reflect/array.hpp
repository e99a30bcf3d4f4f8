// std::array as a tensor: std::array<T, N> is T's dtype with shape [N]; nested arrays add
// dimensions outermost first, so std::array<std::array<float, 3>, 2> is float32[2,3].
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ctff/reflect/scalar.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

// Named so that the failed requirement printed by both compilers shows the element type.
template <class T>
inline constexpr bool std_array_element_is_scalar = scalar<T>;

// The check sits in a constexpr function body: a failed static_assert there leaves the classes
// that call it valid (in a class, clang would also fail tff_t's has_tff_type check and add its
// generic error).
template <class T>
constexpr bool check_std_array_element() {
  static_assert(std_array_element_is_scalar<T>,
                "ctff: a std::array element must be a scalar (bool, a fixed-width integer, "
                "float, double, std::complex or a string) or a std::array of them; use "
                "std::tuple or a struct for a structure of arrays");
  return std_array_element_is_scalar<T>;
}

// Peels one std::array level per step (nesting depth, not a pack) and appends its size.
template <class T, std::int64_t... Dims>
struct array_tensor {
  // After the error, a valid placeholder keeps the diagnostic to the one message above.
  using type = tensor<check_std_array_element<T>() ? dtype_of<T>() : dtype::bool_, Dims...>;
};

template <class T, std::size_t N, std::int64_t... Dims>
struct array_tensor<std::array<T, N>, Dims...>
    : array_tensor<std::remove_cv_t<T>, Dims..., static_cast<std::int64_t>(N)> {};

}  // namespace detail

template <class T, std::size_t N>
struct tff_type_of<std::array<T, N>> {
  using type = typename detail::array_tensor<std::array<T, N>>::type;
};

}  // namespace ctff
