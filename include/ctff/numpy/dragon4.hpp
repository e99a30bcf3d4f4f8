// Dragon4 as numpy 1.24 runs it: the decimal digits of a binary floating-point value (the
// shortest that read back to the same value, or cut off at a precision), over exact big-integer
// arithmetic, so constant evaluation and run time find the same digits on every compiler. The
// text around the digits (positional, scientific, padding, trimming) is numpy/float_format.hpp.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {
// Unsigned integer of up to 40 32-bit limbs, least significant first: enough for binary64's range
// times the powers of ten Dragon4 scales by. Dragon4 falls back to it when 128 bits do not do.
struct big_uint {
  static constexpr int cap = 40;
  std::uint32_t w[cap]{};
  int n = 0;  // limbs in use, the top one non-zero

  constexpr big_uint(std::uint64_t v = 0) {  // NOLINT: converts like the built-in integer
    while (v) {
      w[n++] = static_cast<std::uint32_t>(v);
      v >>= 32;
    }
  }
  constexpr big_uint& operator*=(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      carry += static_cast<std::uint64_t>(w[i]) * m;
      w[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry) w[n++] = static_cast<std::uint32_t>(carry);
    return *this;
  }
  constexpr big_uint& operator<<=(int bits) {
    if (n == 0 || bits == 0) return *this;
    const int limbs = bits / 32, r = bits % 32;
    if (r == 0) {
      for (int i = n - 1; i >= 0; --i) w[i + limbs] = w[i];
    } else {
      w[n + limbs] = w[n - 1] >> (32 - r);
      for (int i = n - 1; i > 0; --i) w[i + limbs] = (w[i] << r) | (w[i - 1] >> (32 - r));
      w[limbs] = w[0] << r;
    }
    for (int i = 0; i < limbs; ++i) w[i] = 0;
    n += limbs + (r ? 1 : 0);
    if (w[n - 1] == 0) --n;
    return *this;
  }
  constexpr big_uint& operator+=(const big_uint& b) {
    const int m = n > b.n ? n : b.n;
    std::uint64_t carry = 0;
    for (int i = 0; i < m; ++i) {
      carry += static_cast<std::uint64_t>(i < n ? w[i] : 0u) + (i < b.n ? b.w[i] : 0u);
      w[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    n = m;
    if (carry) w[n++] = 1;
    return *this;
  }
  // *this -= b, with *this >= b.
  constexpr big_uint& operator-=(const big_uint& b) {
    std::uint64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t d = static_cast<std::uint64_t>(w[i]) - (i < b.n ? b.w[i] : 0u) - borrow;
      w[i] = static_cast<std::uint32_t>(d);
      borrow = (d >> 32) & 1;
    }
    while (n > 0 && w[n - 1] == 0) --n;
    return *this;
  }
  friend constexpr big_uint operator+(big_uint a, const big_uint& b) { return a += b; }
  friend constexpr int compare(const big_uint& a, const big_uint& b) {
    if (a.n != b.n) return a.n < b.n ? -1 : 1;
    for (int i = a.n - 1; i >= 0; --i)
      if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
  }
  friend constexpr bool operator==(const big_uint& a, const big_uint& b) { return compare(a, b) == 0; }
  friend constexpr bool operator<(const big_uint& a, const big_uint& b) { return compare(a, b) < 0; }
  friend constexpr bool operator>(const big_uint& a, const big_uint& b) { return compare(a, b) > 0; }
  friend constexpr bool operator<=(const big_uint& a, const big_uint& b) { return compare(a, b) <= 0; }
  friend constexpr bool operator>=(const big_uint& a, const big_uint& b) { return compare(a, b) >= 0; }
};

__extension__ typedef unsigned __int128 uint128;

// A binary floating-point value taken apart. Finite values are mant * 2^exp2.
struct float_parts {
  bool neg = false, nan = false, inf = false;
  std::uint64_t mant = 0;
  int exp2 = 0;
  int mant_bit = 0;              // index of mant's highest set bit
  bool unequal_margins = false;  // the gap below is half the gap above (a power of two)
  double mag = 0;                // |value|, exact (every format here fits in a double)
};

CTFF_DEFER
constexpr double scale2(double x, int e) {
  for (; e > 0; --e) x *= 2;
  for (; e < 0; ++e) x *= 0.5;
  return x;
}

// An IEEE binary format with `mbits` stored fraction bits and `ebits` exponent bits.
CTFF_DEFER
constexpr float_parts decompose(std::uint64_t bits, int mbits, int ebits) {
  float_parts p;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << mbits) - 1);
  const auto biased = static_cast<int>((bits >> mbits) & ((1u << ebits) - 1));
  const int bias = (1 << (ebits - 1)) - 1;
  p.neg = ((bits >> (mbits + ebits)) & 1) != 0;
  if (biased == (1 << ebits) - 1) {
    p.nan = fraction != 0;
    p.inf = fraction == 0;
    return p;
  }
  if (biased != 0) {
    p.mant = (std::uint64_t{1} << mbits) | fraction;
    p.exp2 = biased - bias - mbits;
    p.mant_bit = mbits;
    p.unequal_margins = biased != 1 && fraction == 0;
  } else {
    p.mant = fraction;
    p.exp2 = 1 - bias - mbits;
    for (std::uint64_t m = fraction; m > 1; m >>= 1) ++p.mant_bit;
  }
  // |value| from its bits where C++ has the type (scaling by 2^-1074 step by step costs too much).
  if (mbits == 52)
    p.mag = std::bit_cast<double>(bits & ~(std::uint64_t{1} << 63));
  else if (mbits == 23)
    p.mag = std::bit_cast<float>(static_cast<std::uint32_t>(bits & 0x7fffffff));
  else if (ebits == 8)  // bfloat16: the top half of a float
    p.mag = std::bit_cast<float>(static_cast<std::uint32_t>((bits & 0x7fff) << 16));
  else
    p.mag = scale2(static_cast<double>(p.mant), p.exp2);
  return p;
}

// The float formats of dtypes (complex ones: of their parts); v holds the bit pattern.
CTFF_DEFER
constexpr float_parts float_parts_of(dtype d, std::uint64_t v) {
  switch (d) {
    case dtype::float16: return decompose(v & 0xffff, 10, 5);
    case dtype::bfloat16: return decompose(v & 0xffff, 7, 8);
    case dtype::float32: case dtype::complex64: return decompose(v & 0xffffffff, 23, 8);
    default: return decompose(v, 52, 11);
  }
}

// Decimal digits d[0..n) of a value d[0].d[1]... * 10^exp10.
struct dragon_digits {
  char d[48]{};
  int n = 0;
  int exp10 = 0;
};

enum class cutoff_mode : std::uint8_t { total, fraction };  // digits in all, or after the point

// floor(log2(v)) * log10(2), floored: exact for |k| < 1650.
CTFF_DEFER
constexpr int floor_log10_pow2(int k) { return (k * 78913) >> 18; }

// Dragon4 (Steele & White; Burger & Dybvig) as numpy runs it. unique: stop at the shortest digits
// that identify the value among its neighbours (a neighbour's rounding boundary counts as ours
// when the mantissa is even), but never before cutoff_min digits; otherwise: the exact digits.
// Either way stop at cutoff_max digits (-1: none) and round the last digit to nearest, ties to
// even. Num is uint128, which gives up (overflow) when a value could pass 2^123, or big_uint. The
// 128-bit run is the common case and has to be plain arithmetic: a function call per operation
// makes g++'s constant evaluation many times slower.
template <class Num>
constexpr dragon_digits dragon4_with(const float_parts& p, bool unique, cutoff_mode mode,
                                     int cutoff_max, int cutoff_min, bool& overflow) {
  constexpr bool wide = std::is_same_v<Num, uint128>;
  constexpr uint128 limit = ~uint128{0} / 32;  // below it, r*10, mlow*10 and r + 2*mlow fit
  constexpr int max_digits = 40;
  dragon_digits out;
  overflow = false;
  if (p.mant == 0) {
    out.d[0] = '0';
    out.n = 1;
    return out;
  }
  // value = r / s; the distance to each neighbour's rounding boundary is mlow / s below and
  // mhigh / s above (mhigh = mlow, or 2 * mlow for unequal margins).
  const int extra = p.unequal_margins ? 2 : 1;
  if constexpr (wide) {
    if (p.mant_bit + 1 + (p.exp2 > 0 ? p.exp2 : 0) + extra > 120 || -p.exp2 + extra > 120) {
      overflow = true;
      return out;
    }
  }
  Num r = p.mant, s = 1, mlow = 1;
  if (p.exp2 > 0) {
    r <<= p.exp2 + extra;
    s <<= extra;
    mlow <<= p.exp2;
  } else {
    r <<= extra;
    s <<= -p.exp2 + extra;
  }
  auto times_pow10 = [&](Num& x, int e) {
    if constexpr (wide) {
      for (; e > 0; --e) {
        if (x > limit) overflow = true;
        x *= 10;
      }
    } else {
      for (; e >= 9; e -= 9) x *= 1000000000u;
      std::uint32_t f = 1;
      for (; e > 0; --e) f *= 10;
      x *= f;
    }
  };
  // k: decimal exponent estimate, the true one or one less (fixed below).
  int k = floor_log10_pow2(p.mant_bit + p.exp2) + 1;
  if (is(mode, cutoff_mode::fraction) && cutoff_max >= 0 && k <= -cutoff_max) k = -cutoff_max + 1;
  if (k > 0) {
    times_pow10(s, k);
  } else if (k < 0) {
    times_pow10(r, -k);
    times_pow10(mlow, -k);
  }
  if (r >= s) {
    ++k;
  } else {
    times_pow10(r, 1);
    times_pow10(mlow, 1);
  }
  if constexpr (wide) {
    if (overflow || s > limit || r > limit * 10) {
      overflow = true;
      return out;
    }
  }
  int cut_max = k - max_digits;
  if (cutoff_max >= 0) {
    const int want = is(mode, cutoff_mode::total) ? k - cutoff_max : -cutoff_max;
    if (want > cut_max) cut_max = want;
  }
  int cut_min = k;
  if (cutoff_min >= 0) {
    const int want = is(mode, cutoff_mode::total) ? k - cutoff_min : -cutoff_min;
    if (want < cut_min) cut_min = want;
  }
  out.exp10 = k - 1;

  [[maybe_unused]] Num s2 = s, s4 = s, s8 = s;  // big_uint: a digit in four compare-and-subtracts
  if constexpr (!wide) {
    s2 <<= 1;
    s4 <<= 2;
    s8 <<= 3;
  }
  const bool even = (p.mant & 1) == 0;
  bool low = false, high = false;
  int digit = 0;
  for (;;) {
    --k;
    if constexpr (wide) {
      digit = static_cast<int>(r / s);
      r %= s;
    } else {
      digit = 0;
      if (r >= s8) { r -= s8; digit += 8; }
      if (r >= s4) { r -= s4; digit += 4; }
      if (r >= s2) { r -= s2; digit += 2; }
      if (r >= s) { r -= s; digit += 1; }
    }
    if (unique) {
      Num hi = r + mlow;
      if (p.unequal_margins) hi += mlow;
      low = even ? r <= mlow : r < mlow;
      high = even ? hi >= s : hi > s;
      if (((low || high) && k <= cut_min) || k == cut_max) break;
    } else if (r == Num(0) || k == cut_max) {
      break;
    }
    out.d[out.n++] = static_cast<char>('0' + digit);
    if constexpr (wide) {
      if (r > limit || mlow > limit) {
        overflow = true;
        return out;
      }
    }
    r *= 10u;
    if (unique) mlow *= 10u;
  }
  // Round the last digit: toward the one side that still identifies the value (low: down, high:
  // up), else to nearest, ties to an even digit.
  bool round_down = low;
  if (low == high) {
    r <<= 1;
    round_down = r < s || (r == s && (digit & 1) == 0);
  }
  if (round_down) {
    out.d[out.n++] = static_cast<char>('0' + digit);
  } else if (digit != 9) {
    out.d[out.n++] = static_cast<char>('0' + digit + 1);
  } else {
    for (;;) {  // carry: drop trailing nines
      if (out.n == 0) {
        out.d[out.n++] = '1';
        ++out.exp10;
        break;
      }
      --out.n;
      if (out.d[out.n] != '9') {
        ++out.d[out.n++];
        break;
      }
    }
  }
  return out;
}

template <class D = void>  // (its body depends on D, never given: core/defer.hpp)
constexpr dragon_digits dragon4(const float_parts& p, bool unique, cutoff_mode mode, int cutoff_max,
                                int cutoff_min) {
  bool overflow = false;
  const dragon_digits d =
      dragon4_with<dependent_t<D, uint128>>(p, unique, mode, cutoff_max, cutoff_min, overflow);
  if (!overflow) return d;
  return dragon4_with<dependent_t<D, big_uint>>(p, unique, mode, cutoff_max, cutoff_min, overflow);
}
}  // namespace ctff::detail
