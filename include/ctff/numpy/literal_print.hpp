// Literals as text: numpy 1.24's str() of the value. Scalars as numpy's scalar str (`10`, `2.5`,
// `True`, `b'hi'`, `(1+2j)`); arrays as array2string with numpy's defaults: precision 8,
// floatmode 'maxprec', linewidth 75, threshold 1000, edgeitems 3, separator ' '. Also the
// structural drawing's label of a literal, which differs for float and complex scalars.
#pragma once

#include <cstdint>
#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/numpy/float_format.hpp"
#include "ctff/ast/array_writer.hpp"
#include "ctff/numpy/python_repr.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// A numpy bytes value as Python's repr writes it: b'...' (b"..." when it holds ' and no "). numpy
// drops trailing NUL bytes of an 'S' value; a Python bytes object keeps them (`keep_nuls`).
CTFF_DEFER
constexpr void put_bytes_repr(text_sink& s, std::string_view text, bool keep_nuls = false) {
  while (!keep_nuls && !text.empty() && text.back() == '\0') text.remove_suffix(1);
  bool has_single = false, has_double = false;
  for (char c : text) {
    has_single |= c == '\'';
    has_double |= c == '"';
  }
  const char q = has_single && !has_double ? '"' : '\'';
  s.put('b');
  s.put(q);
  constexpr char hex[] = "0123456789abcdef";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == q) {
      s.put('\\');
      s.put(c);
    } else if (c == '\n') {
      s.put("\\n");
    } else if (c == '\r') {
      s.put("\\r");
    } else if (c == '\t') {
      s.put("\\t");
    } else if (u < 0x20 || u >= 0x7f) {
      s.put("\\x");
      s.put(hex[u >> 4]);
      s.put(hex[u & 15]);
    } else {
      s.put(c);
    }
  }
  s.put(q);
}

CTFF_DEFER
constexpr bool is_signed_int(dtype d) {
  return d == dtype::int8 || d == dtype::int16 || d == dtype::int32 || d == dtype::int64;
}

CTFF_DEFER
constexpr void put_integer(small_text& t, dtype d, std::uint64_t v) {
  text_sink s{t.c + t.n};
  if (is_signed_int(d)) {
    s.put_int(static_cast<std::int64_t>(v));
  } else {
    s.put_uint(v);
  }
  t.n += static_cast<int>(s.n);
}

// str() of a numpy complex scalar: `(1+2j)`, `(1.5-0.5j)`, `2j` (real part +0), `(nan+infj)`.
CTFF_DEFER
constexpr void format_complex_scalar(small_text& t, const float_parts& re, const float_parts& im) {
  constexpr auto dpt = trim_mode::dpt_zeros;
  if (!re.nan && !re.inf && re.mant == 0 && !re.neg) {
    format_float_either(t, im, dpt, dpt, false);
    t.put('j');
    return;
  }
  t.put('(');
  if (re.nan) {
    t.put("nan");
  } else if (re.inf) {
    t.put(re.neg ? "-inf" : "inf");
  } else {
    format_float_either(t, re, dpt, dpt, false);
  }
  if (im.nan) {
    t.put("+nan");
  } else if (im.inf) {
    t.put(im.neg ? "-inf" : "+inf");
  } else {
    format_float_either(t, im, dpt, dpt, true);
  }
  t.put("j)");
}

// One element as numpy's str() prints a scalar (or a 0-d array) of dtype d.
CTFF_DEFER
constexpr void print_scalar(const graph_view& g, dtype d, const std::uint64_t* v, text_sink& s) {
  small_text t;
  switch (d) {
    case dtype::bool_:
      s.put(v[0] ? "True" : "False");
      return;
    case dtype::str:  // the bytes object read from the proto: its trailing NULs stay
      put_bytes_repr(s, g.chars_at(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1])),
                     true);
      return;
    case dtype::float16: case dtype::float32: case dtype::float64:
      format_float_scalar(t, float_parts_of(d, v[0]));
      break;
    case dtype::bfloat16:
      format_general6(t, float_parts_of(d, v[0]));
      break;
    case dtype::complex64: case dtype::complex128:
      format_complex_scalar(t, float_parts_of(d, v[0]), float_parts_of(d, v[1]));
      break;
    default:
      put_integer(t, d, v[0]);
      break;
  }
  s.put(t.view());
}

// numpy's FloatingFormat: one layout for all the shown elements of a float array (or for the real
// or imaginary parts of a complex one).
struct float_layout {
  bool exp_format = false;  // scientific for the whole array
  bool sign = false;        // '+' before non-negative values (imaginary parts)
  int precision = 8, min_digits = 0, pad_left = 0, pad_right = 0, exp_size = -1;
  trim_mode trim = trim_mode::zeros;
};

// numpy computes max/min in the array's dtype; is that quotient, rounded so, above 1000? (Exactly:
// float32 rounds quotients within 2^-15 of 1000 down to it; float16 divides in float32, then rounds
// to half, where the next value above 1000 is 1000.5. These products are exact in a double.)
CTFF_DEFER
constexpr bool ratio_above_1000(dtype d, double max_val, double min_val) {
  switch (d) {
    case dtype::float16: return max_val > min_val * (1000.25 + 1.0 / 32768);
    case dtype::float32: case dtype::complex64: return max_val > min_val * (1000.0 + 1.0 / 32768);
    default: return max_val / min_val > 1000.0;
  }
}

// Fills the layout from the shown elements: part 0 of each (floats, real parts) or part 1
// (imaginary parts).
CTFF_DEFER
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
    f.exp_format = max_val >= 1e8 || min_val < 1e-4 || ratio_above_1000(dt, max_val, min_val);
  if (!any_finite) {
    f.pad_left = f.pad_right = 0;
  } else {
    // A first pass with the shortest digits (at most 8 after the point) sizes the columns.
    float_options o;
    o.scientific = f.exp_format;
    o.mode = cutoff_mode::fraction;
    o.precision = 8;
    o.sign = sign;
    o.trim = trim_mode::zeros;
    int int_len = 0, frac_len = 0, exp_len = 0;
    for (std::uint32_t i : shown) {
      const float_parts p = parts_at(i);
      if (p.nan || p.inf) continue;
      small_text t;
      format_float(t, p, o);
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
      f.trim = trim_mode::none;
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

CTFF_DEFER
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
  float_options o;
  o.scientific = f.exp_format;
  o.mode = cutoff_mode::fraction;
  o.precision = f.precision;
  o.min_digits = f.min_digits;
  o.sign = f.sign;
  o.trim = f.trim;
  o.pad_left = f.pad_left;
  if (f.exp_format) {
    o.exp_digits = f.exp_size;
  } else {
    o.pad_right = f.pad_right;
  }
  format_float(t, p, o);
}

// array2string of an array literal (rank >= 1). (Hot paths index raw pointers and avoid small
// helper calls: each call is costly in g++'s constant evaluation.)
template <class = void>  // (a template as basic_printer in ast/print.hpp)
class array_printer {
 public:
  constexpr array_printer(const graph_view& g, const lit& l, text_sink& s)
      : g_(g), dt_(l.dt), s_(s), w_(slots_per_value(l.dt)), rank_(l.dim_count),
        vals_(g.vals.data() + l.val_begin), dims_(g.dims.data() + l.dim_begin) {}

  constexpr void print() {
    std::uint64_t size = 1;
    for (std::uint32_t k = 0; k != rank_; ++k) size *= dim(k);
    if (size == 0) {
      s_.put("[]");
      return;
    }
    // Elements shown along each axis: all, or edge items at each end when summarising.
    strides_.assign(rank_, 1);
    shown_n_.assign(rank_, 0);
    for (std::uint32_t k = rank_; k-- > 0;) {
      if (k + 1 < rank_) strides_[k] = strides_[k + 1] * dim(k + 1);
      shown_n_[k] = size > threshold && dim(k) > 2 * edge ? 2 * edge : dim(k);
    }
    collect_shown(0, 0);
    switch (dt_) {
      case dtype::float16: case dtype::float32: case dtype::float64:
        real_ = make_float_layout(dt_, vals_, shown_, 0, false);
        break;
      case dtype::complex64: case dtype::complex128:
        real_ = make_float_layout(dt_, vals_, shown_, 0, false);
        imag_ = make_float_layout(dt_, vals_, shown_, 1, true);
        break;
      default:
        if (is_integer(dt_)) {
          for (std::uint32_t i : shown_) {
            const int n = integer_length(vals_[i]);
            if (n > int_width_) int_width_ = n;
          }
        }
        break;
    }
    put('[');
    print_axis(0, 0);
  }

 private:
  static constexpr std::uint64_t threshold = 1000, edge = 3, line_width = 75;

  constexpr std::uint64_t dim(std::uint32_t k) const { return static_cast<std::uint64_t>(dims_[k]); }
  // The j-th shown index along axis k.
  constexpr std::uint64_t shown_index(std::uint32_t k, std::uint64_t j) const {
    return shown_n_[k] == dim(k) || j < edge ? j : dim(k) - 2 * edge + j;
  }
  constexpr std::string_view bytes_at(std::uint64_t i) const {
    const std::uint64_t* v = vals_ + i * w_;
    return g_.chars_at(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]));
  }
  // numpy sizes the columns from the shown elements only.
  constexpr void collect_shown(std::uint32_t k, std::uint64_t offset) {
    for (std::uint64_t j = 0; j != shown_n_[k]; ++j) {
      const std::uint64_t at = offset + shown_index(k, j) * strides_[k];
      if (k + 1 == rank_) {
        shown_.push_back(static_cast<std::uint32_t>(at));
      } else {
        collect_shown(k + 1, at);
      }
    }
  }
  constexpr int integer_length(std::uint64_t v) const {
    int n = 1;
    if (is_signed_int(dt_) && static_cast<std::int64_t>(v) < 0) {
      ++n;
      v = std::uint64_t{0} - v;
    }
    for (; v >= 10; v /= 10) ++n;
    return n;
  }

  // Output with line tracking: spaces are held back, so a line that wraps loses its trailing ones
  // (numpy's rstrip).
  constexpr void flush_spaces() {
    constexpr std::string_view blanks = "                                ";
    while (pending_) {
      const std::size_t k = pending_ < blanks.size() ? pending_ : blanks.size();
      s_.put(blanks.substr(0, k));
      pending_ -= k;
    }
  }
  constexpr void put(char c) {
    if (c == ' ') {
      ++pending_;
    } else {
      flush_spaces();
      s_.put(c);
    }
    ++col_;
  }
  constexpr void put(std::string_view text) {
    std::size_t i = 0;
    while (i != text.size()) {
      if (text[i] == ' ') {
        ++pending_;
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j != text.size() && text[j] != ' ') ++j;
      flush_spaces();
      s_.put(text.substr(i, j - i));
      i = j;
    }
    col_ += text.size();
  }
  constexpr void new_line() {
    pending_ = 0;
    s_.break_in_literal();
    col_ = 0;
  }

  constexpr void element(std::uint64_t i, small_text& t) const {
    const std::uint64_t* v = vals_ + i * w_;
    switch (dt_) {
      case dtype::bool_:
        t.put(v[0] ? " True" : "False");
        return;
      case dtype::float16: case dtype::float32: case dtype::float64:
        format_with_layout(t, real_, float_parts_of(dt_, v[0]));
        return;
      case dtype::bfloat16:  // not a numpy floating type: each element is its repr
        format_general6(t, float_parts_of(dt_, v[0]));
        return;
      case dtype::complex64: case dtype::complex128: {
        format_with_layout(t, real_, float_parts_of(dt_, v[0]));
        small_text im;
        format_with_layout(im, imag_, float_parts_of(dt_, v[1]));
        int end = im.n;  // 'j' goes before the imaginary part's padding
        while (end > 0 && im.c[end - 1] == ' ') --end;
        for (int k = 0; k < end; ++k) t.put(im.c[k]);
        t.put('j');
        for (int k = end; k < im.n; ++k) t.put(im.c[k]);
        return;
      }
      default: {  // integers, right-aligned
        std::uint64_t u = v[0];
        const bool neg = is_signed_int(dt_) && static_cast<std::int64_t>(u) < 0;
        if (neg) u = std::uint64_t{0} - u;
        const int len = integer_length(v[0]);
        t.spaces(int_width_ - len);
        if (neg) t.put('-');
        t.n += len - (neg ? 1 : 0);
        for (int k = t.n - 1; k >= t.n - len + (neg ? 1 : 0); --k, u /= 10)
          t.c[k] = static_cast<char>('0' + u % 10);
        return;
      }
    }
  }

  // Starts a new line when a word of len characters would pass the row's width (and the line
  // holds more than its indent).
  constexpr void word(std::size_t len) {
    const std::size_t limit = line_width - rank_;  // room left for the closing brackets
    if (col_ + len > limit && col_ > rank_) {
      new_line();
      pending_ = rank_;
      col_ = rank_;
    }
  }
  constexpr void element_word(std::uint64_t i) {
    if (dt_ == dtype::str) {  // no copy: measured, then written straight out (it starts with 'b')
      text_sink t{};
      put_bytes_repr(t, bytes_at(i));
      word(t.n);
      flush_spaces();
      put_bytes_repr(s_, bytes_at(i));
      col_ += t.n;
      return;
    }
    small_text t;
    element(i, t);
    word(static_cast<std::size_t>(t.n));
    put(t.view());
  }

  // Axis k of the subarray at flat offset; its '[' is already written.
  constexpr void print_axis(std::uint32_t k, std::uint64_t offset) {
    const std::uint64_t n = shown_n_[k], st = strides_[k];
    const bool summary = n != dim(k);
    if (k + 1 == rank_) {
      for (std::uint64_t j = 0; j != n; ++j) {
        if (summary && j == edge) {
          word(3);
          put("... ");
        }
        element_word(offset + shown_index(k, j));
        if (j + 1 != n) put(' ');
      }
      put(']');
      return;
    }
    // Rows of higher axes: a line break per axis left below this one, then the indent.
    auto separate = [&] {
      for (std::uint32_t a = k + 1; a != rank_; ++a) new_line();
      pending_ = k + 1;
      col_ = k + 1;
    };
    for (std::uint64_t j = 0; j != n; ++j) {
      if (j) separate();
      if (summary && j == edge) {
        put("...");
        separate();
      }
      put('[');
      print_axis(k + 1, offset + shown_index(k, j) * st);
    }
    put(']');
  }

  const graph_view& g_;
  dtype dt_;
  text_sink& s_;
  std::uint32_t w_, rank_;
  const std::uint64_t* vals_;
  const std::int64_t* dims_;
  scratch<std::uint64_t> strides_, shown_n_;
  scratch<std::uint32_t> shown_;
  float_layout real_{}, imag_{};
  int int_width_ = 0;
  std::size_t col_ = 0, pending_ = 0;
};

// numpy's str() of a literal. A line break inside a literal is kept as is, even in the compact
// form (Python prints the same).
template <class V = void>
constexpr void print_literal(const graph_view& g, const lit& l, text_sink& s) {
  if (l.dim_count == 0) {
    print_scalar(g, l.dt, &g.vals[l.val_begin], s);
    return;
  }
  array_printer<V>(g, l, s).print();
}

// A literal's label in the structural drawing, `Lit(<value>)`: federated_language writes it with
// an f-string, and numpy's __format__ turns a float or complex scalar into Python's float or
// complex first (float16 and float32 widened to a double), so those print as Python's repr
// (`0.10000000149011612`, `1.0`, `(1+2j)`). Every other value (arrays included) as its str(). (A
// bfloat16 scalar is no numpy floating type, and ml_dtypes before 0.6, which federated_language
// 0.5.3 requires, gives it no __format__: numpy's falls back to its str(), ml_dtypes' text.)
template <class V = void>
constexpr void put_literal_label(const graph_view& g, const lit& l, text_sink& s) {
  s.put("Lit(");
  if (l.dim_count != 0) {
    print_literal<V>(g, l, s);
  } else if (l.dt == dtype::float16 || l.dt == dtype::float32 || l.dt == dtype::float64) {
    small_text t;
    put_python_float(t, float_parts_of(l.dt, g.vals[l.val_begin]), true, false);
    s.put(t.view());
  } else if (l.dt == dtype::complex64 || l.dt == dtype::complex128) {
    const std::uint64_t* v = &g.vals[l.val_begin];
    small_text t;
    put_python_complex(t, float_parts_of(l.dt, v[0]), float_parts_of(l.dt, v[1]));
    s.put(t.view());
  } else {
    print_scalar(g, l.dt, &g.vals[l.val_begin], s);
  }
  s.put(')');
}

}  // namespace ctff::detail
