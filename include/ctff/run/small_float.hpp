// float16 and bfloat16 elements, bit by bit (no compiler support for the types assumed): to float
// (exact) and back, rounding once, as the executor computes in float (run/numeric.hpp); from a
// double, rounding once, as JSON input gives them (run/json_read.hpp, run/json_text_read.hpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace ctff::detail {

// IEEE binary16 <-> float, rounding to nearest even.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    const float f = std::ldexp(static_cast<float>(man), -24);
    return sign ? -f : f;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}
inline std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)  // inf or NaN (NaN stays quiet NaN)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (ax < 0x38800000u) {  // below the smallest normal half: a multiple of 2^-24
    const float a = std::bit_cast<float>(ax);
    const float q = std::nearbyint(a * 16777216.0f);  // exact scaling; round to nearest even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  const std::uint32_t man = ax & 0x7fffffu;
  std::uint32_t h = ((((ax >> 23) - 112) << 10) | (man >> 13));
  const std::uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: right
  return static_cast<std::uint16_t>(sign | h);
}
inline float bfloat16_to_float(std::uint16_t b) {
  return std::bit_cast<float>(std::uint32_t{b} << 16);
}
inline std::uint16_t float_to_bfloat16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  const std::uint32_t round = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + round) >> 16);
}

// A double as float16 (E = 5 exponent bits, M = 10 mantissa bits) or bfloat16 (8, 7), rounding
// to nearest even: once, from the double (through float would round twice).
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

}  // namespace ctff::detail
