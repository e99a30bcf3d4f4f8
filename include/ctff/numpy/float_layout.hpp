// numpy's FloatingFormat: the one layout (scientific or not, precision, padding) that array2string
// gives all the shown elements of a float array, and an element written in it.
#pragma once

#include <cstdint>

#include "ctff/core/scratch.hpp"
#include "ctff/numpy/float_format.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// numpy's FloatingFormat: one layout for all the shown elements of a float array (or for the real
// or imaginary parts of a complex one).
struct float_layout {
  bool exp_format = false;  // scientific for the whole array (trailing zeros kept; else trimmed)
  bool sign = false;        // '+' before non-negative values (imaginary parts)
  int precision = 8, min_digits = 0, pad_left = 0, pad_right = 0, exp_size = -1;
};

// numpy computes max/min in the array's dtype; is that quotient, rounded so, above 1000? (Exactly:
// float32 rounds quotients within 2^-15 of 1000 down to it; float16 divides in float32, then rounds
// to half, where the next value above 1000 is 1000.5. These products are exact in a double.)
template <class D = void>
constexpr bool ratio_above_1000(dtype d, double max_val, double min_val) {
  switch (d) {
    case dtype::float16: return max_val > min_val * (1000.25 + 1.0 / 32768);
    case dtype::float32: case dtype::complex64: return max_val > min_val * (1000.0 + 1.0 / 32768);
    default: return max_val / min_val > 1000.0;
  }
}

// Fills the layout from the shown elements: part 0 of each (floats, real parts) or part 1
// (imaginary parts).
template <class D = void>
constexpr float_layout make_float_layout(dtype dt, const std::uint64_t* vals,
                                         const scratch<std::uint32_t>& shown, std::uint32_t part,
                                         bool sign) {
  const std::uint32_t w = slots_per_value(dt);
  auto parts_at = [&](std::uint32_t i) { return float_parts_of(dt, vals[i * w + part]); };
  float_layout f;
  f.sign = sign;
  bool any_finite = false, any_nonfinite = false, neg_inf = false, any_nonzero = false;
  double max_val = 0, min_val = 0;
  for (std::uint32_t i : shown) {
    const float_parts p = parts_at(i);
    if (p.nan || p.inf) {
      any_nonfinite = true;
      neg_inf |= p.inf && p.neg;
      continue;
    }
    any_finite = true;
    if (p.mant == 0) continue;
    if (!any_nonzero || p.mag > max_val) max_val = p.mag;
    if (!any_nonzero || p.mag < min_val) min_val = p.mag;
    any_nonzero = true;
  }
  if (any_nonzero)
    f.exp_format = max_val >= 1e8 || min_val < 1e-4 || ratio_above_1000<D>(dt, max_val, min_val);
  if (!any_finite) {
    f.pad_left = f.pad_right = 0;
  } else {
    // A first pass with the shortest digits (at most 8 after the point) sizes the columns.
    const float_options o{.scientific = f.exp_format,
                          .mode = cutoff_mode::fraction,
                          .precision = 8,
                          .sign = sign,
                          .trim = trim_mode::zeros};
    int int_len = 0, frac_len = 0, exp_len = 0;
    for (std::uint32_t i : shown) {
      const float_parts p = parts_at(i);
      if (p.nan || p.inf) continue;
      small_text t;
      format_float<D>(t, p, o);
      int dot = 0, e = t.n;
      while (t.c[dot] != '.') ++dot;
      if (f.exp_format)
        while (t.c[e - 1] != 'e') --e;
      if (dot > int_len) int_len = dot;
      const int frac = (f.exp_format ? e - 1 : t.n) - dot - 1;
      if (frac > frac_len) frac_len = frac;
      if (f.exp_format && t.n - e > exp_len) exp_len = t.n - e;
    }
    f.pad_left = int_len;
    if (f.exp_format) {
      f.exp_size = exp_len - 1;  // digits, without the exponent's sign
      f.precision = f.min_digits = frac_len;
      f.pad_right = f.exp_size + 2 + f.precision;
    } else {
      f.pad_right = frac_len;
    }
  }
  if (any_nonfinite) {  // room for nan and inf (with a sign when needed)
    const int offset = f.pad_right + 1;
    const int inf_len = 3 + ((sign || neg_inf) ? 1 : 0);
    if (3 - offset > f.pad_left) f.pad_left = 3 - offset;
    if (inf_len - offset > f.pad_left) f.pad_left = inf_len - offset;
  }
  return f;
}

template <class D = void>
constexpr void format_with_layout(small_text& t, const float_layout& f, const float_parts& p) {
  if (p.nan || p.inf) {
    small_text r;
    if (p.nan) {
      if (f.sign) r.put('+');
      r.put("nan");
    } else {
      if (p.neg || f.sign) r.put(p.neg ? '-' : '+');
      r.put("inf");
    }
    t.spaces(f.pad_left + f.pad_right + 1 - r.n);
    t.put(r.view());
    return;
  }
  const float_options o{.scientific = f.exp_format,
                        .mode = cutoff_mode::fraction,
                        .precision = f.precision,
                        .min_digits = f.min_digits,
                        .sign = f.sign,
                        .trim = f.exp_format ? trim_mode::none : trim_mode::zeros,
                        .pad_left = f.pad_left,
                        .pad_right = f.exp_format ? -1 : f.pad_right,
                        .exp_digits = f.exp_format ? f.exp_size : -1};
  format_float<D>(t, p, o);
}

}  // namespace ctff::detail
