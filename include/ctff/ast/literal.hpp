// Literals on the wire: the `Array` message (dtype, shape, the typed value list Python reads back).
#pragma once

#include <bit>
#include <cstdint>

#include "ctff/ast/graph.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

// The Array field holding values of dtype d.
constexpr std::uint32_t list_field(dtype d) {
  switch (d) {
    case dtype::bool_: return 3;
    case dtype::int8: return 4;
    case dtype::int16: return 5;
    case dtype::int32: return 6;
    case dtype::int64: return 7;
    case dtype::uint8: return 8;
    case dtype::uint16: return 9;
    case dtype::uint32: return 10;
    case dtype::uint64: return 11;
    case dtype::float16: return 12;
    case dtype::float32: return 13;
    case dtype::float64: return 14;
    case dtype::complex64: return 15;
    case dtype::complex128: return 16;
    case dtype::str: return 17;
    case dtype::bfloat16: return 19;
    case dtype::invalid: break;
  }
  return 0;
}

// Values stored per element: two for complex numbers and strings (offset, length).
constexpr std::uint32_t slots_per_value(dtype d) {
  return (d == dtype::complex64 || d == dtype::complex128 || d == dtype::str) ? 2 : 1;
}

// Bytes of one stored slot inside the packed list.
constexpr std::size_t slot_size(dtype d, std::uint64_t v) {
  switch (d) {
    case dtype::float32: case dtype::complex64: return 4;
    case dtype::float64: case dtype::complex128: return 8;
    default: return varint_size(v);
  }
}

constexpr std::size_t list_body_size(const graph& g, const lit& l) {
  if (l.dt == dtype::str) {
    std::size_t n = 0;
    for (std::uint32_t k = 0; k < l.val_count; k += 2) n += field_size(g.vals[l.val_begin + k + 1]);
    return n;
  }
  std::size_t packed = 0;
  for (std::uint32_t k = 0; k != l.val_count; ++k) packed += slot_size(l.dt, g.vals[l.val_begin + k]);
  return packed ? field_size(packed) : 0;
}

constexpr std::size_t shape_body_size(const graph& g, const lit& l) {
  std::size_t packed = 0;
  for (std::uint32_t k = 0; k != l.dim_count; ++k)
    packed += varint_size(static_cast<std::uint64_t>(g.dims[l.dim_begin + k]));
  return packed ? field_size(packed) : 0;
}

// Size of the Array message.
constexpr std::size_t array_size(const graph& g, const lit& l) {
  return 1 + varint_size(static_cast<std::uint64_t>(l.dt)) + field_size(shape_body_size(g, l)) +
         field_size(list_body_size(g, l));
}

constexpr void write_array(const graph& g, const lit& l, byte_sink& s) {
  s.tag(1, 0);
  s.varint(static_cast<std::uint64_t>(l.dt));
  s.tag(2, 2);
  auto shape = shape_body_size(g, l);
  s.varint(shape);
  if (l.dim_count) {
    std::size_t packed = 0;
    for (std::uint32_t k = 0; k != l.dim_count; ++k)
      packed += varint_size(static_cast<std::uint64_t>(g.dims[l.dim_begin + k]));
    s.tag(1, 2);
    s.varint(packed);
    for (std::uint32_t k = 0; k != l.dim_count; ++k)
      s.varint(static_cast<std::uint64_t>(g.dims[l.dim_begin + k]));
  }
  s.tag(list_field(l.dt), 2);
  s.varint(list_body_size(g, l));
  if (l.dt == dtype::str) {
    for (std::uint32_t k = 0; k < l.val_count; k += 2) {
      auto off = static_cast<std::uint32_t>(g.vals[l.val_begin + k]);
      auto len = static_cast<std::uint32_t>(g.vals[l.val_begin + k + 1]);
      s.tag(1, 2);
      s.varint(len);
      s.chars(g.chars_at(off, len));
    }
    return;
  }
  if (l.val_count == 0) return;
  std::size_t packed = 0;
  for (std::uint32_t k = 0; k != l.val_count; ++k) packed += slot_size(l.dt, g.vals[l.val_begin + k]);
  s.tag(1, 2);
  s.varint(packed);
  for (std::uint32_t k = 0; k != l.val_count; ++k) {
    auto v = g.vals[l.val_begin + k];
    auto sz = slot_size(l.dt, v);
    if (l.dt == dtype::float32 || l.dt == dtype::complex64) {
      s.fixed32(static_cast<std::uint32_t>(v));
    } else if (sz == 8 && (l.dt == dtype::float64 || l.dt == dtype::complex128)) {
      s.fixed64(v);
    } else {
      s.varint(v);
    }
  }
}

}  // namespace ctff::detail
