// float16 and bfloat16 elements to and from double, bit by bit (no compiler support for the
// types assumed): what JSON input and output convert them through (run/json_read.hpp,
// run/json_write.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace ctff::detail {

// float16 (5 exponent bits, 10 mantissa bits) and bfloat16 (8, 7): IEEE binary formats.
template <int E, int M>
std::uint16_t json_small_float_bits(double x) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr std::uint16_t inf = static_cast<std::uint16_t>(((1u << E) - 1) << M);
  const std::uint16_t sign = std::signbit(x) ? static_cast<std::uint16_t>(1u << (E + M)) : 0;
  if (std::isnan(x)) return static_cast<std::uint16_t>(sign | inf | (1u << (M - 1)));
  const double a = std::fabs(x);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | inf);
  int exp = 0;
  const double f = std::frexp(a, &exp);  // a = f * 2^exp, f in [0.5, 1)
  int e = exp - 1;                       // a = (2f) * 2^e
  if (a == 0 || e < 1 - bias) {
    // Subnormal (or zero): a / 2^(1 - bias - M), rounded to nearest even; 2^M is the least normal.
    const double q = std::nearbyint(std::ldexp(a, bias - 1 + M));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  double q = std::nearbyint(std::ldexp(2 * f, M));  // in [2^M, 2^(M+1)]
  if (q == std::ldexp(1.0, M + 1)) {
    q = std::ldexp(1.0, M);
    ++e;
  }
  if (e > bias) return static_cast<std::uint16_t>(sign | inf);
  const auto mant = static_cast<std::uint16_t>(static_cast<unsigned>(q) - (1u << M));
  return static_cast<std::uint16_t>(sign | (static_cast<unsigned>(e + bias) << M) | mant);
}
template <int E, int M>
double json_small_float_value(std::uint16_t bits) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr unsigned emax = (1u << E) - 1;
  const unsigned e = (bits >> M) & emax;
  const unsigned m = bits & ((1u << M) - 1);
  double a;
  if (e == emax) {
    a = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    a = std::ldexp(static_cast<double>(m), 1 - bias - M);
  } else {
    a = std::ldexp(static_cast<double>(m | (1u << M)), static_cast<int>(e) - bias - M);
  }
  return (bits >> (E + M)) ? -a : a;
}

}  // namespace ctff::detail
