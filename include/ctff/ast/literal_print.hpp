// Literals as text: what numpy's str() prints for the value (`10`, `2.5`, `True`, `b'hi'`,
// `[1 2 3]`).
#pragma once

#include <bit>
#include <cstdint>

#include "ctff/ast/float_format.hpp"
#include "ctff/ast/literal.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// One element as numpy's str() prints it.
constexpr void print_scalar(const graph& g, dtype d, const std::uint64_t* v, text_sink& s) {
  switch (d) {
    case dtype::bool_:
      s.put(v[0] ? "True" : "False");
      return;
    case dtype::int8: case dtype::int16: case dtype::int32: case dtype::int64:
      s.put_int(static_cast<std::int64_t>(v[0]));
      return;
    case dtype::uint8: case dtype::uint16: case dtype::uint32: case dtype::uint64:
      s.put_uint(v[0]);
      return;
    case dtype::float32:
      format_float(s, std::bit_cast<float>(static_cast<std::uint32_t>(v[0])));
      return;
    case dtype::float64:
      format_float(s, std::bit_cast<double>(v[0]));
      return;
    case dtype::complex64: case dtype::complex128: {
      // numpy: (re+imj), parts without a trailing .0
      s.put('(');
      for (int part = 0; part < 2; ++part) {
        double x = d == dtype::complex64
                       ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v[part])))
                       : std::bit_cast<double>(v[part]);
        if (part == 1 && !(x < 0)) s.put('+');
        if (x == static_cast<double>(static_cast<std::int64_t>(x)) && x < 1e16 && x > -1e16) {
          s.put_int(static_cast<std::int64_t>(x));
        } else {
          format_float(s, x);
        }
      }
      s.put("j)");
      return;
    }
    case dtype::str: {
      auto text = g.chars_at(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]));
      bool has_single = false, has_double = false;
      for (char c : text) {
        has_single |= c == '\'';
        has_double |= c == '"';
      }
      char q = has_single && !has_double ? '"' : '\'';
      s.put('b');
      s.put(q);
      constexpr char hex[] = "0123456789abcdef";
      for (char c : text) {
        auto u = static_cast<unsigned char>(c);
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
      return;
    }
    default:
      s.put_uint(v[0]);  // float16/bfloat16 bit patterns: printed raw
      return;
  }
}

// numpy's str() of a literal. Arrays: elements right-aligned to the widest, rows on new lines
// (a line break inside a literal is kept as is, even in the compact form).
constexpr void print_literal(const graph& g, const lit& l, text_sink& s) {
  const std::uint32_t w = slots_per_value(l.dt);
  if (l.dim_count == 0) {
    print_scalar(g, l.dt, &g.vals[l.val_begin], s);
    return;
  }
  const std::uint32_t count = l.val_count / w;
  std::size_t width = 0;
  for (std::uint32_t i = 0; i != count; ++i) {
    text_sink c{};
    print_scalar(g, l.dt, &g.vals[l.val_begin + i * w], c);
    if (c.n > width) width = c.n;
  }
  // Row-major walk: open brackets at each dimension boundary.
  std::uint32_t rank = l.dim_count;
  auto dim = [&](std::uint32_t k) { return static_cast<std::uint64_t>(g.dims[l.dim_begin + k]); };
  for (std::uint32_t k = 0; k != rank; ++k) s.put('[');
  for (std::uint32_t i = 0; i != count; ++i) {
    if (i) {
      // How many dimensions close at this boundary.
      std::uint32_t closed = 0;
      std::uint64_t stride = 1;
      for (std::uint32_t k = rank; k-- > 0;) {
        stride *= dim(k);
        if (i % stride == 0) ++closed;
        else break;
      }
      for (std::uint32_t k = 0; k != closed; ++k) s.put(']');
      if (closed) {
        for (std::uint32_t k = 0; k != closed; ++k) s.put('\n');
        for (std::uint32_t k = 0; k != rank - closed; ++k) s.put(' ');
        for (std::uint32_t k = 0; k != closed; ++k) s.put('[');
      } else {
        s.put(' ');
      }
    }
    text_sink c{};
    print_scalar(g, l.dt, &g.vals[l.val_begin + i * w], c);
    for (std::size_t p = c.n; p < width; ++p) s.put(' ');
    print_scalar(g, l.dt, &g.vals[l.val_begin + i * w], s);
  }
  for (std::uint32_t k = 0; k != rank; ++k) s.put(']');
}

}  // namespace ctff::detail
