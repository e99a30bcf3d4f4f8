// Floating-point text exactly as numpy 1.24 writes it: Dragon4 (the shortest digits that read back
// to the same value, or digits cut off at a precision) over exact big-integer arithmetic, so
// constant evaluation and run time print the same characters on every compiler. Also the text of
// ml_dtypes' bfloat16 scalars (C++ `ostream << float`: printf's %g, six significant digits).
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// A few dozen characters: one formatted number or array element. (Storage is left uninitialised:
// zeroing it costs a step per byte in constant evaluation; only c[0..n) is ever read.)
struct small_text {
  char c[96];
  int n = 0;
  constexpr void put(char ch) { c[n++] = ch; }
  constexpr void put(std::string_view s) {
    for (char ch : s) c[n++] = ch;
  }
  constexpr void spaces(int k) {
    for (; k > 0; --k) c[n++] = ' ';
  }
  constexpr std::string_view view() const { return {c, static_cast<std::size_t>(n)}; }
};

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
  if (mode == cutoff_mode::fraction && cutoff_max >= 0 && k <= -cutoff_max) k = -cutoff_max + 1;
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
    const int want = mode == cutoff_mode::total ? k - cutoff_max : -cutoff_max;
    if (want > cut_max) cut_max = want;
  }
  int cut_min = k;
  if (cutoff_min >= 0) {
    const int want = mode == cutoff_mode::total ? k - cutoff_min : -cutoff_min;
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

CTFF_DEFER
constexpr dragon_digits dragon4(const float_parts& p, bool unique, cutoff_mode mode, int cutoff_max,
                                int cutoff_min) {
  bool overflow = false;
  const dragon_digits d = dragon4_with<uint128>(p, unique, mode, cutoff_max, cutoff_min, overflow);
  if (!overflow) return d;
  return dragon4_with<big_uint>(p, unique, mode, cutoff_max, cutoff_min, overflow);
}

// numpy's trim argument: 'k' keeps trailing zeros, '.' trims them, '0' trims them but keeps one
// after the point, '-' trims them and the point.
enum class trim_mode : std::uint8_t { none, zeros, leave_one_zero, dpt_zeros };

// numpy's format_float_positional / format_float_scientific arguments (-1: not given).
struct float_options {
  bool scientific = false;
  bool unique = true;
  cutoff_mode mode = cutoff_mode::total;  // positional only; scientific counts all digits
  int precision = -1, min_digits = -1;
  bool sign = false;  // '+' before non-negative values
  trim_mode trim = trim_mode::leave_one_zero;
  int pad_left = -1, pad_right = -1, exp_digits = -1;
};

// Trims trailing zeros of the fraction as mode says; returns the fraction digits left.
CTFF_DEFER
constexpr int trim_zeros(small_text& t, int frac, trim_mode trim, bool drop_point) {
  if (trim == trim_mode::none || frac <= 0) return frac;
  while (t.c[t.n - 1] == '0') {
    --t.n;
    --frac;
  }
  if (t.c[t.n - 1] == '.') {
    if (trim == trim_mode::leave_one_zero) {
      t.put('0');
      ++frac;
    } else if (trim == trim_mode::dpt_zeros && drop_point) {
      --t.n;
    }
  }
  return frac;
}

CTFF_DEFER
constexpr void format_positional(small_text& out, const float_parts& p, const float_options& o) {
  small_text t;
  const bool has_sign = p.neg || o.sign;
  if (has_sign) t.put(p.neg ? '-' : '+');
  const dragon_digits d = dragon4(p, o.unique, o.mode, o.precision, o.min_digits);
  int whole = 1, frac = 0;
  if (d.exp10 >= 0) {
    whole = d.exp10 + 1;
    for (int i = 0; i < d.n && i < whole; ++i) t.put(d.d[i]);
    if (d.n <= whole) {
      for (int i = d.n; i < whole; ++i) t.put('0');
    } else {
      t.put('.');
      for (int i = whole; i < d.n; ++i) t.put(d.d[i]);
      frac = d.n - whole;
    }
  } else {
    t.put("0.");
    const int zeros = -(d.exp10 + 1);
    for (int i = 0; i < zeros; ++i) t.put('0');
    for (int i = 0; i < d.n; ++i) t.put(d.d[i]);
    frac = zeros + d.n;
  }
  if (o.trim != trim_mode::dpt_zeros && frac == 0) t.put('.');
  const int add = o.unique ? o.min_digits : o.precision;
  int wanted = add < 0 ? 0 : add;
  if (o.mode == cutoff_mode::total) wanted = add - whole;
  if (o.trim == trim_mode::leave_one_zero) {
    if (frac == 0) {
      t.put('0');
      ++frac;
    }
  } else if (o.trim == trim_mode::none && wanted > frac) {
    for (; frac < wanted; ++frac) t.put('0');
  }
  frac = trim_zeros(t, frac, o.trim, true);
  if (o.pad_right >= frac) {
    if (o.trim == trim_mode::dpt_zeros && frac == 0) t.put(' ');
    t.spaces(o.pad_right - frac);
  }
  if (o.pad_left > whole + (has_sign ? 1 : 0)) out.spaces(o.pad_left - whole - (has_sign ? 1 : 0));
  out.put(t.view());
}

CTFF_DEFER
constexpr void format_scientific(small_text& out, const float_parts& p, const float_options& o) {
  const bool has_sign = p.neg || o.sign;
  if (o.pad_left > 1 + (has_sign ? 1 : 0)) out.spaces(o.pad_left - 1 - (has_sign ? 1 : 0));
  if (has_sign) out.put(p.neg ? '-' : '+');
  const dragon_digits d =
      dragon4(p, o.unique, cutoff_mode::total, o.precision < 0 ? -1 : o.precision + 1,
              o.min_digits < 0 ? -1 : o.min_digits + 1);
  out.put(d.d[0]);
  int frac = d.n - 1;
  if (frac > 0) {
    out.put('.');
    for (int i = 1; i < d.n; ++i) out.put(d.d[i]);
  }
  if (o.trim != trim_mode::dpt_zeros && frac == 0) out.put('.');
  int add = o.unique ? o.min_digits : o.precision;
  if (add < 0) add = 0;
  if (o.trim == trim_mode::leave_one_zero) {
    if (frac == 0) {
      out.put('0');
      ++frac;
    }
  } else if (o.trim == trim_mode::none) {
    for (; frac < add; ++frac) out.put('0');
  }
  trim_zeros(out, frac, o.trim, false);
  int e = d.exp10;
  out.put('e');
  out.put(e < 0 ? '-' : '+');
  if (e < 0) e = -e;
  char ds[5]{};
  int k = 0;
  for (; k < 5; ++k) {
    ds[k] = static_cast<char>('0' + e % 10);
    e /= 10;
  }
  const int min_len = o.exp_digits < 0 ? 2 : (o.exp_digits > 5 ? 5 : o.exp_digits);
  while (k > min_len && ds[k - 1] == '0') --k;
  while (k > 0) out.put(ds[--k]);
}

// numpy's dragon4_positional / dragon4_scientific, inf and nan included.
CTFF_DEFER
constexpr void format_float(small_text& out, const float_parts& p, const float_options& o) {
  if (p.nan) {
    out.put("nan");
    return;
  }
  if (p.inf) {
    if (p.neg || o.sign) out.put(p.neg ? '-' : '+');
    out.put("inf");
    return;
  }
  if (o.scientific) {
    format_scientific(out, p, o);
  } else {
    format_positional(out, p, o);
  }
}

// numpy's scalar text: positional for 0 and 1e-4 <= |x| < 1e16, scientific otherwise, with the
// shortest digits. (numpy compares |x| with long double 1e-4; a double, float or half lies on the
// same side of it as of the double 1e-4.)
CTFF_DEFER
constexpr void format_float_either(small_text& out, const float_parts& p, trim_mode positional_trim,
                                   trim_mode scientific_trim, bool sign) {
  float_options o;
  o.sign = sign;
  const bool positional = p.nan || p.mant == 0 || (!p.inf && p.mag >= 1e-4 && p.mag < 1e16);
  o.scientific = !positional;
  o.trim = positional ? positional_trim : scientific_trim;
  format_float(out, p, o);
}

// str() of a numpy float scalar: `0.1`, `1.0`, `-0.0`, `1e-05`, `1e+16`, `nan`, `-inf`.
CTFF_DEFER
constexpr void format_float_scalar(small_text& out, const float_parts& p) {
  format_float_either(out, p, trim_mode::leave_one_zero, trim_mode::dpt_zeros, false);
}

// C++ `ostream << float` (printf %g, 6 significant digits): ml_dtypes' text of a bfloat16 scalar,
// and of each element of a bfloat16 array. A nan prints without its sign.
CTFF_DEFER
constexpr void format_general6(small_text& out, const float_parts& p) {
  if (p.nan) {
    out.put("nan");
    return;
  }
  if (p.neg) out.put('-');
  if (p.inf) {
    out.put("inf");
    return;
  }
  if (p.mant == 0) {
    out.put('0');
    return;
  }
  dragon_digits d = dragon4(p, false, cutoff_mode::total, 6, -1);
  while (d.n > 1 && d.d[d.n - 1] == '0') --d.n;
  const int x = d.exp10;
  if (x < -4 || x >= 6) {
    out.put(d.d[0]);
    if (d.n > 1) {
      out.put('.');
      for (int i = 1; i < d.n; ++i) out.put(d.d[i]);
    }
    out.put(x < 0 ? "e-" : "e+");
    const int e = x < 0 ? -x : x;
    if (e >= 100) out.put(static_cast<char>('0' + e / 100));
    out.put(static_cast<char>('0' + e / 10 % 10));
    out.put(static_cast<char>('0' + e % 10));
  } else if (x >= 0) {
    for (int i = 0; i <= x; ++i) out.put(i < d.n ? d.d[i] : '0');
    if (d.n > x + 1) {
      out.put('.');
      for (int i = x + 1; i < d.n; ++i) out.put(d.d[i]);
    }
  } else {
    out.put("0.");
    for (int i = 0; i < -x - 1; ++i) out.put('0');
    for (int i = 0; i < d.n; ++i) out.put(d.d[i]);
  }
}

}  // namespace ctff::detail
