// numpy 1.24's str() of a scalar (or a 0-d array): `10`, `2.5`, `True`, `b'hi'`, `(1+2j)`.
#pragma once

#include <cstdint>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/numpy/bytes_repr.hpp"
#include "ctff/numpy/float_format.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

template <class D = void>
constexpr bool is_signed_int(dtype d) {
  return is(d, dtype::int8, dtype::int16, dtype::int32, dtype::int64);
}

template <class D = void>
constexpr void put_integer(small_text& t, dtype d, std::uint64_t v) {
  text_sink s{t.c + t.n};
  if (is_signed_int<D>(d)) {
    s.put_int(static_cast<std::int64_t>(v));
  } else {
    s.put_uint(v);
  }
  t.n += static_cast<int>(s.n);
}

// str() of a numpy complex scalar: `(1+2j)`, `(1.5-0.5j)`, `2j` (real part +0), `(nan+infj)`.
template <class D = void>
constexpr void format_complex_scalar(small_text& t, const float_parts& re, const float_parts& im) {
  constexpr auto dpt = trim_mode::dpt_zeros;
  if (!re.nan && !re.inf && re.mant == 0 && !re.neg) {
    format_float_either<D>(t, im, dpt, dpt, false);
    t.put('j');
    return;
  }
  t.put('(');
  if (re.nan) {
    t.put("nan");
  } else if (re.inf) {
    t.put(re.neg ? "-inf" : "inf");
  } else {
    format_float_either<D>(t, re, dpt, dpt, false);
  }
  if (im.nan) {
    t.put("+nan");
  } else if (im.inf) {
    t.put(im.neg ? "-inf" : "+inf");
  } else {
    format_float_either<D>(t, im, dpt, dpt, true);
  }
  t.put("j)");
}

// A scalar literal (or a 0-d array) as numpy's str() prints it.
template <class D = void>
constexpr void print_scalar(const literal_ref& l, text_sink& s) {
  const dtype d = l.dt;
  const std::uint64_t* v = l.vals;
  small_text t;
  switch (d) {
    case dtype::bool_:
      s.put(v[0] ? "True" : "False");
      return;
    case dtype::str:  // the bytes object read from the proto: its trailing NULs stay
      put_bytes_repr(s, l.chars_at(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1])),
                     true);
      return;
    case dtype::float16: case dtype::float32: case dtype::float64:
      format_float_scalar<D>(t, float_parts_of(d, v[0]));
      break;
    case dtype::bfloat16:
      format_general6<D>(t, float_parts_of(d, v[0]));
      break;
    case dtype::complex64: case dtype::complex128:
      format_complex_scalar<D>(t, float_parts_of(d, v[0]), float_parts_of(d, v[1]));
      break;
    default:
      put_integer<D>(t, d, v[0]);
      break;
  }
  s.put(t.view());
}

}  // namespace ctff::detail
