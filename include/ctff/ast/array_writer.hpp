// Literals on the wire: the `Array` message (dtype, shape, the typed value list Python reads back).
#pragma once

#include <cstdint>

#include "ctff/core/defer.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/numpy/literal.hpp"

namespace ctff::detail {

// The Array field holding values of dtype d.
CTFF_DEFER
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

// One stored slot of a packed numeric list: fixed 4 or 8 bytes for floating point, else a varint
// (signed values were sign-extended to 64 bits when stored, as int32/int64 fields encode them).
template <class Sink>
constexpr void write_slot(dtype d, std::uint64_t v, Sink& s) {
  switch (d) {
    case dtype::float32: case dtype::complex64: s.fixed32(static_cast<std::uint32_t>(v)); return;
    case dtype::float64: case dtype::complex128: s.fixed64(v); return;
    default: s.varint(v); return;
  }
}

// The Array message of literal l, back to front (fields last to first, see back_sink): every
// length is measured from what was written, so no size is computed separately. (Sink: back_sink
// or growing_back_sink.)
template <class Sink>
constexpr void write_array(const graph_view& g, const lit& l, Sink& s) {
  // The typed list: a set oneof member, present even when it holds no value.
  const auto list_end = s.pos;
  const std::uint64_t* v = g.vals.data() + l.val_begin;
  if (is(l.dt, dtype::str)) {  // BytesList: one `value` field per string (slots: offset, length)
    for (std::uint32_t k = l.val_count; k >= 2; k -= 2) {
      const auto e = s.pos;
      s.chars(g.chars_at(static_cast<std::uint32_t>(v[k - 2]), static_cast<std::uint32_t>(v[k - 1])));
      s.close(1, e);
    }
  } else if (l.val_count) {  // one packed `value` field
    const auto e = s.pos;
    for (std::uint32_t k = l.val_count; k-- > 0;) write_slot(l.dt, v[k], s);
    s.close(1, e);
  }
  s.close(list_field(l.dt), list_end);
  // ArrayShape{dim}: Python always sets it, `12 00` for a scalar.
  const auto shape_end = s.pos;
  if (l.dim_count) {
    const auto e = s.pos;
    for (std::uint32_t k = l.dim_count; k-- > 0;)
      s.varint(static_cast<std::uint64_t>(g.dims[l.dim_begin + k]));
    s.close(1, e);
  }
  s.close(2, shape_end);
  s.varint(static_cast<std::uint64_t>(l.dt));
  s.tag(1, 0);
}

}  // namespace ctff::detail
