// numpy 1.24's array2string of an array literal (rank >= 1), with numpy's defaults: precision 8,
// floatmode 'maxprec', linewidth 75, threshold 1000, edgeitems 3, separator ' '.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/numpy/bytes_repr.hpp"
#include "ctff/numpy/float_format.hpp"
#include "ctff/numpy/float_layout.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/numpy/scalar_print.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// array2string of an array literal (rank >= 1). (Hot paths index raw pointers and avoid small
// helper calls: each call is costly in g++'s constant evaluation.)
template <class D = void>  // (a template as basic_printer in ast/print.hpp)
class array_printer {
 public:
  constexpr array_printer(const literal_ref& l, text_sink& s)
      : l_(l), dt_(l.dt), s_(s), w_(slots_per_value(l.dt)), rank_(l.rank), vals_(l.vals),
        dims_(l.dims) {}

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
        real_ = make_float_layout<D>(dt_, vals_, shown_, 0, false);
        break;
      case dtype::complex64: case dtype::complex128:
        real_ = make_float_layout<D>(dt_, vals_, shown_, 0, false);
        imag_ = make_float_layout<D>(dt_, vals_, shown_, 1, true);
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
    return l_.chars_at(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]));
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
    if (is_signed_int<D>(dt_) && static_cast<std::int64_t>(v) < 0) {
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
        format_with_layout<D>(t, real_, float_parts_of(dt_, v[0]));
        return;
      case dtype::bfloat16:  // not a numpy floating type: each element is its repr
        format_general6<D>(t, float_parts_of(dt_, v[0]));
        return;
      case dtype::complex64: case dtype::complex128: {
        format_with_layout<D>(t, real_, float_parts_of(dt_, v[0]));
        small_text im;
        format_with_layout<D>(im, imag_, float_parts_of(dt_, v[1]));
        int end = im.n;  // 'j' goes before the imaginary part's padding
        while (end > 0 && im.c[end - 1] == ' ') --end;
        for (int k = 0; k < end; ++k) t.put(im.c[k]);
        t.put('j');
        for (int k = end; k < im.n; ++k) t.put(im.c[k]);
        return;
      }
      default: {  // integers, right-aligned
        std::uint64_t u = v[0];
        const bool neg = is_signed_int<D>(dt_) && static_cast<std::int64_t>(u) < 0;
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
    if (is(dt_, dtype::str)) {  // no copy: measured, then written straight out (it starts with 'b')
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

  const literal_ref& l_;
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

}  // namespace ctff::detail
