// Floating-point text exactly as numpy 1.24 writes it, around the digits Dragon4 finds
// (numpy/dragon4.hpp): positional or scientific, padded, trimmed, so constant evaluation and run time
// print the same characters on every compiler. Also the text of ml_dtypes' bfloat16 scalars (C++
// `ostream << float`: printf's %g, six significant digits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/core/enum_is.hpp"
#include "ctff/numpy/dragon4.hpp"
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
template <class D = void>
constexpr int trim_zeros(small_text& t, int frac, trim_mode trim, bool drop_point) {
  if (is(trim, trim_mode::none) || frac <= 0) return frac;
  while (t.c[t.n - 1] == '0') {
    --t.n;
    --frac;
  }
  if (t.c[t.n - 1] == '.') {
    if (is(trim, trim_mode::leave_one_zero)) {
      t.put('0');
      ++frac;
    } else if (is(trim, trim_mode::dpt_zeros) && drop_point) {
      --t.n;
    }
  }
  return frac;
}

template <class D = void>
constexpr void format_positional(small_text& out, const float_parts& p, const float_options& o) {
  small_text t;
  const bool has_sign = p.neg || o.sign;
  if (has_sign) t.put(p.neg ? '-' : '+');
  const dragon_digits d = dragon4<D>(p, o.unique, o.mode, o.precision, o.min_digits);
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
  if (!is(o.trim, trim_mode::dpt_zeros) && frac == 0) t.put('.');
  const int add = o.unique ? o.min_digits : o.precision;
  int wanted = add < 0 ? 0 : add;
  if (is(o.mode, cutoff_mode::total)) wanted = add - whole;
  if (is(o.trim, trim_mode::leave_one_zero)) {
    if (frac == 0) {
      t.put('0');
      ++frac;
    }
  } else if (is(o.trim, trim_mode::none) && wanted > frac) {
    for (; frac < wanted; ++frac) t.put('0');
  }
  frac = trim_zeros<D>(t, frac, o.trim, true);
  if (o.pad_right >= frac) {
    if (is(o.trim, trim_mode::dpt_zeros) && frac == 0) t.put(' ');
    t.spaces(o.pad_right - frac);
  }
  if (o.pad_left > whole + (has_sign ? 1 : 0)) out.spaces(o.pad_left - whole - (has_sign ? 1 : 0));
  out.put(t.view());
}

template <class D = void>
constexpr void format_scientific(small_text& out, const float_parts& p, const float_options& o) {
  const bool has_sign = p.neg || o.sign;
  if (o.pad_left > 1 + (has_sign ? 1 : 0)) out.spaces(o.pad_left - 1 - (has_sign ? 1 : 0));
  if (has_sign) out.put(p.neg ? '-' : '+');
  const dragon_digits d =
      dragon4<D>(p, o.unique, cutoff_mode::total, o.precision < 0 ? -1 : o.precision + 1,
              o.min_digits < 0 ? -1 : o.min_digits + 1);
  out.put(d.d[0]);
  int frac = d.n - 1;
  if (frac > 0) {
    out.put('.');
    for (int i = 1; i < d.n; ++i) out.put(d.d[i]);
  }
  if (!is(o.trim, trim_mode::dpt_zeros) && frac == 0) out.put('.');
  int add = o.unique ? o.min_digits : o.precision;
  if (add < 0) add = 0;
  if (is(o.trim, trim_mode::leave_one_zero)) {
    if (frac == 0) {
      out.put('0');
      ++frac;
    }
  } else if (is(o.trim, trim_mode::none)) {
    for (; frac < add; ++frac) out.put('0');
  }
  trim_zeros<D>(out, frac, o.trim, false);
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
template <class D = void>
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
    format_scientific<D>(out, p, o);
  } else {
    format_positional<D>(out, p, o);
  }
}

// numpy's scalar text: positional for 0 and 1e-4 <= |x| < 1e16, scientific otherwise, with the
// shortest digits. (numpy compares |x| with long double 1e-4; a double, float or half lies on the
// same side of it as of the double 1e-4.)
template <class D = void>
constexpr void format_float_either(small_text& out, const float_parts& p, trim_mode positional_trim,
                                   trim_mode scientific_trim, bool sign) {
  const bool positional = p.nan || p.mant == 0 || (!p.inf && p.mag >= 1e-4 && p.mag < 1e16);
  const float_options o{.scientific = !positional,
                        .sign = sign,
                        .trim = positional ? positional_trim : scientific_trim};
  format_float<D>(out, p, o);
}

// str() of a numpy float scalar: `0.1`, `1.0`, `-0.0`, `1e-05`, `1e+16`, `nan`, `-inf`.
template <class D = void>
constexpr void format_float_scalar(small_text& out, const float_parts& p) {
  format_float_either<D>(out, p, trim_mode::leave_one_zero, trim_mode::dpt_zeros, false);
}

// C++ `ostream << float` (printf %g, 6 significant digits): ml_dtypes' text of a bfloat16 scalar,
// and of each element of a bfloat16 array. A nan prints without its sign.
template <class D = void>
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
  dragon_digits d = dragon4<D>(p, false, cutoff_mode::total, 6, -1);
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
