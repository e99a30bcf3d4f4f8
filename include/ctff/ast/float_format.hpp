// Floating-point text as numpy prints a scalar: the shortest decimal that reads back to the same
// value, positional for 1e-4 <= |x| < 1e16 (`2.5`, `1.0`), scientific otherwise (`1e-05`).
#pragma once

#include <cstdint>
#include <limits>

#include "ctff/core/sink.hpp"

namespace ctff::detail {

template <class F>
constexpr bool same_value(F x, long double candidate) {
  return static_cast<F>(candidate) == x;
}

constexpr long double pow10l(int e) {
  long double r = 1;
  long double b = 10;
  bool neg = e < 0;
  unsigned u = static_cast<unsigned>(neg ? -e : e);
  while (u) {
    if (u & 1) r *= b;
    b *= b;
    u >>= 1;
  }
  return neg ? 1 / r : r;
}

// Shortest digits: x ~= digits * 10^exp10, digits without trailing zeros.
struct decimal {
  std::uint64_t digits = 0;
  int ndigits = 0;
  int exp10 = 0;  // value = 0.d1d2... * 10^(point) where point = exp10 + ndigits
};

template <class F>
constexpr decimal shortest(F x) {
  // x > 0 and finite.
  long double v = x;
  int e = 0;
  while (v >= 10) { v /= 10; ++e; }
  while (v < 1) { v *= 10; --e; }
  // x ~ v * 10^e with 1 <= v < 10
  constexpr int max_digits = sizeof(F) == 4 ? 9 : 17;
  decimal best{};
  for (int p = 1; p <= max_digits; ++p) {
    long double scaled = static_cast<long double>(x) * pow10l(p - 1 - e);
    auto d = static_cast<std::uint64_t>(scaled + 0.5L);
    int ex = e - (p - 1);
    if (same_value<F>(x, static_cast<long double>(d) * pow10l(ex)) ||
        same_value<F>(x, static_cast<long double>(d) / pow10l(-ex))) {
      best.digits = d;
      best.exp10 = ex;
      break;
    }
    best.digits = d;
    best.exp10 = ex;
  }
  while (best.digits && best.digits % 10 == 0) {
    best.digits /= 10;
    ++best.exp10;
  }
  std::uint64_t t = best.digits;
  best.ndigits = 0;
  do {
    ++best.ndigits;
    t /= 10;
  } while (t);
  return best;
}

constexpr void put_digits(text_sink& s, std::uint64_t d, int n, int from, int to) {
  // Writes digits [from, to) of the n-digit number d (0 = most significant); '0' past the end.
  for (int i = from; i < to; ++i) {
    if (i >= n) {
      s.put('0');
      continue;
    }
    std::uint64_t q = d;
    for (int k = 0; k < n - 1 - i; ++k) q /= 10;
    s.put(static_cast<char>('0' + q % 10));
  }
}

template <class F>
constexpr void format_float(text_sink& s, F x) {
  if (x != x) {
    s.put("nan");
    return;
  }
  bool neg = x < 0 || (x == 0 && 1 / x < 0);
  if (neg) {
    s.put('-');
    x = -x;
  }
  if (x == 0) {
    s.put("0.0");
    return;
  }
  if (x > std::numeric_limits<F>::max()) {
    s.put("inf");
    return;
  }
  decimal d = shortest(x);
  int point = d.exp10 + d.ndigits;  // digits before the decimal point
  if (x >= static_cast<F>(1e-4L) && static_cast<long double>(x) < 1e16L) {
    if (point <= 0) {
      s.put("0.");
      for (int i = 0; i < -point; ++i) s.put('0');
      put_digits(s, d.digits, d.ndigits, 0, d.ndigits);
    } else if (point >= d.ndigits) {
      put_digits(s, d.digits, d.ndigits, 0, point);
      s.put(".0");
    } else {
      put_digits(s, d.digits, d.ndigits, 0, point);
      s.put('.');
      put_digits(s, d.digits, d.ndigits, point, d.ndigits);
    }
    return;
  }
  put_digits(s, d.digits, d.ndigits, 0, 1);
  if (d.ndigits > 1) {
    s.put('.');
    put_digits(s, d.digits, d.ndigits, 1, d.ndigits);
  }
  int ex = point - 1;
  s.put('e');
  s.put(ex < 0 ? '-' : '+');
  if (ex < 0) ex = -ex;
  if (ex < 10) s.put('0');
  s.put_uint(static_cast<std::uint64_t>(ex));
}

}  // namespace ctff::detail
