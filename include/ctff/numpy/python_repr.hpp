// Python's repr() of a float and of a complex number, the text an f-string gives a numpy float or
// complex scalar: numpy's __format__ converts it to Python's float (complex) first, widening float16
// and float32 to a double. repr writes the double's shortest round-trip digits (the digits Dragon4
// finds for it in unique mode, numpy/dragon4.hpp): positional when the decimal point falls within
// the 16 digits after the first one, in exponent form otherwise (`1e-05`, `1.5e+300`).
#pragma once

#include <bit>
#include <cstdint>

#include "ctff/numpy/dragon4.hpp"
#include "ctff/numpy/float_format.hpp"

namespace ctff::detail {

// Python repr's layout of a float's shortest digits (d.n of them, the first at 10^d.exp10; no
// sign): positional when the decimal point falls within the 16 digits after the first one, else
// in exponent form with at least two exponent digits. `dot_zero`: a positional integer gets `.0`.
constexpr void put_python_digits(small_text& out, const dragon_digits& d, bool dot_zero) {
  const int point = d.exp10 + 1;  // digits before the decimal point
  if (point <= -4 || point > 16) {
    out.put(d.d[0]);
    if (d.n > 1) {
      out.put('.');
      for (int i = 1; i < d.n; ++i) out.put(d.d[i]);
    }
    int e = d.exp10;
    out.put(e < 0 ? "e-" : "e+");
    if (e < 0) e = -e;
    if (e >= 100) out.put(static_cast<char>('0' + e / 100));
    out.put(static_cast<char>('0' + e / 10 % 10));
    out.put(static_cast<char>('0' + e % 10));
  } else if (point <= 0) {
    out.put("0.");
    for (int i = point; i < 0; ++i) out.put('0');
    for (int i = 0; i < d.n; ++i) out.put(d.d[i]);
  } else {
    for (int i = 0; i < point; ++i) out.put(i < d.n ? d.d[i] : '0');
    if (d.n > point) {
      out.put('.');
      for (int i = point; i < d.n; ++i) out.put(d.d[i]);
    } else if (dot_zero) {
      out.put(".0");
    }
  }
}

// A float in Python's 'r' format. `dot_zero`: a positional integer gets `.0` (float's repr; a
// complex part has none). `sign`: '+' before a non-negative value (and before nan).
template <class D = void>
constexpr void put_python_float(small_text& out, const float_parts& p, bool dot_zero, bool sign) {
  if (p.nan) {  // Python ignores a nan's sign
    out.put(sign ? "+nan" : "nan");
    return;
  }
  if (p.neg || sign) out.put(p.neg ? '-' : '+');
  if (p.inf) {
    out.put("inf");
    return;
  }
  dragon_digits d;
  if (p.mant == 0) {
    d.d[0] = '0';
    d.n = 1;
  } else {
    // The value as a double (every format here widens exactly); mag is |value|.
    d = dragon4<D>(decompose(std::bit_cast<std::uint64_t>(p.mag), 52, 11), true, cutoff_mode::total,
                -1, -1);
  }
  put_python_digits(out, d, dot_zero);
}

// A complex number as Python's complex repr: `imj` alone when the real part is +0 (`2j`, `-0j`,
// `nanj`), otherwise `(re+imj)` (`(1+2j)`, `(-0-0j)`, `(nan+nanj)`), neither part with `.0`.
template <class D = void>
constexpr void put_python_complex(small_text& out, const float_parts& re, const float_parts& im) {
  if (!re.nan && !re.inf && re.mant == 0 && !re.neg) {
    put_python_float<D>(out, im, false, false);
    out.put('j');
    return;
  }
  out.put('(');
  put_python_float<D>(out, re, false, false);
  put_python_float<D>(out, im, false, true);
  out.put("j)");
}

}  // namespace ctff::detail
