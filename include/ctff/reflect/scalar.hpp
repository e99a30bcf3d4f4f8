// C++ scalars as TFF tensors: bool, fixed-width integers, float, double, std::complex, strings.
#pragma once

#include <complex>
#include <string>
#include <string_view>
#include <type_traits>

#include "ctff/core/enum_is.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

template <class T>
constexpr dtype integer_dtype() {
  if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return dtype::int8;
    else if constexpr (sizeof(T) == 2) return dtype::int16;
    else if constexpr (sizeof(T) == 4) return dtype::int32;
    else return dtype::int64;
  } else {
    if constexpr (sizeof(T) == 1) return dtype::uint8;
    else if constexpr (sizeof(T) == 2) return dtype::uint16;
    else if constexpr (sizeof(T) == 4) return dtype::uint32;
    else return dtype::uint64;
  }
}

// Integers that name a width: the <cstdint> types and their spellings; not char, wchar_t, char8_t.
template <class T>
concept fixed_integer = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                        !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t> &&
                        !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
                        !std::is_same_v<T, char32_t> && sizeof(T) <= 8;

template <class T> inline constexpr dtype scalar_dtype = dtype::invalid;
template <> inline constexpr dtype scalar_dtype<bool> = dtype::bool_;
template <> inline constexpr dtype scalar_dtype<float> = dtype::float32;
template <> inline constexpr dtype scalar_dtype<double> = dtype::float64;
template <> inline constexpr dtype scalar_dtype<std::complex<float>> = dtype::complex64;
template <> inline constexpr dtype scalar_dtype<std::complex<double>> = dtype::complex128;
template <> inline constexpr dtype scalar_dtype<std::string> = dtype::str;
template <> inline constexpr dtype scalar_dtype<std::string_view> = dtype::str;
template <> inline constexpr dtype scalar_dtype<const char*> = dtype::str;

template <class T>
concept scalar = fixed_integer<T> || !detail::is(scalar_dtype<T>, dtype::invalid);

template <class T>
constexpr dtype dtype_of() {
  if constexpr (fixed_integer<T>) return integer_dtype<T>();
  else return scalar_dtype<T>;
}

}  // namespace detail

template <detail::scalar T>
struct tff_type_of<T> {
  using type = tensor<detail::dtype_of<T>()>;
};

}  // namespace ctff
