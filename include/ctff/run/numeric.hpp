// Element numerics of the executor (reference/execution.md §3): what each dtype computes in
// (numeric<D>; float16 and bfloat16 widen to float and round back after each operation, as TF's
// kernels do), integers that wrap, and conversions between computation types.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ctff/run/fault.hpp"
#include "ctff/run/small_float.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// What a dtype computes in, and the conversions between storage and computation.
template <dtype D> struct numeric {
  using stored = typename stored_t<D>::value_type;
  using compute = element_t<D>;
  static compute load(const stored& s) { return static_cast<compute>(s); }
  static stored store(const compute& c) { return static_cast<stored>(c); }
};
template <> struct numeric<dtype::float16> {
  using stored = half_bits;
  using compute = float;
  static float load(half_bits s) { return half_to_float(s.bits); }
  static half_bits store(float c) { return {float_to_half(c)}; }
};
template <> struct numeric<dtype::bfloat16> {
  using stored = bfloat16_bits;
  using compute = float;
  static float load(bfloat16_bits s) { return bfloat16_to_float(s.bits); }
  static bfloat16_bits store(float c) { return {float_to_bfloat16(c)}; }
};
template <dtype D> using compute_t = typename numeric<D>::compute;

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;

// Integers wrap: compute in uint64 and keep the low bits (modular conversion, C++20).
template <class T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
template <class T>
T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
template <class T>
T int_div(T a, T b) {
  if (b == 0) throw run_fault("integer division by zero");
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(0 - static_cast<std::uint64_t>(a));  // MIN / -1 == MIN
  }
  return static_cast<T>(a / b);
}

// One value converted to another computation type: numeric conversions, a complex number's real
// part, and float -> integer saturating (NaN -> 0) instead of undefined behaviour.
template <class To, class From>
To convert_element(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      return To(static_cast<typename To::value_type>(x.real()),
                static_cast<typename To::value_type>(x.imag()));
    } else {
      return convert_element<To>(x.real());
    }
  } else if constexpr (is_complex_v<To>) {
    return To(convert_element<typename To::value_type>(x), 0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    if (std::isnan(x)) return 0;
    if (x <= static_cast<From>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (x >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

inline bool arithmetic_dtype(dtype d) { return d != dtype::bool_ && d != dtype::str; }

}  // namespace ctff::detail
