// Reading a federated_language.Array message (a Literal's value) into a computation_tree's pools
// (read/reader.hpp reads the rest). Rejected with a read_error: values out of range of their dtype
// or not matching the shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/ast/array_writer.hpp"
#include "ctff/read/type_message.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

class array_message_reader : public type_message_reader {
 protected:
  using type_message_reader::type_message_reader;

  void literal(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::literal;
    bool seen = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "Literal");
      once(seen, f, "Literal.value");
      ptr e = delimited(f, p, end, "Literal.value");
      push("literal.value");
      n.b = array(p, e);
      pop();
      p = e;
    }
    if (!seen) fail(end, "the Literal has no value");
  }

  std::uint32_t array(ptr p, ptr end) {
    graph& g = tree_access::pool(t_);
    lit l{};
    std::uint64_t dt = 0;
    bool seen_dtype = false, seen_shape = false, seen_list = false;
    std::uint32_t list = 0;
    ptr list_at = p;
    l.dim_begin = static_cast<std::uint32_t>(g.dims.size());
    l.val_begin = static_cast<std::uint32_t>(g.vals.size());
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_dtype, f, "Array.dtype");
        dt = scalar(f, p, end, "Array.dtype");
      } else if (f.number == 2) {
        once(seen_shape, f, "Array.shape");
        ptr e = delimited(f, p, end, "Array.shape");
        shape(p, e, l);
        p = e;
      } else if (f.number >= 3 && f.number <= 19 && f.number != 18) {
        if (seen_list) fail(f.at, "a second value list (field " + std::to_string(f.number) + "): the Array's `kind` oneof is already set");
        seen_list = true;
        list = f.number;
        list_at = f.at;
        ptr e = delimited(f, p, end, "the Array's value list");
        values(f.number, p, e);
        p = e;
      } else if (f.number == 18) {
        fail(f.at, "Array.content (raw bytes) is not supported; federated_language writes the typed lists");
      } else {
        unknown(f, "Array");
      }
    }
    if (!seen_shape) fail(end, "the Array has no shape (federated_language always writes one)");
    if (!seen_list) fail(end, "the Array has no value list (federated_language always writes one)");
    if (!is_valid_dtype(dt))
      fail(end, "unknown dtype number " + std::to_string(dt) + (dt == 0 ? " (DT_INVALID)" : "") +
                    "; federated_language knows 1-10, 14, 17-19, 22 and 23");
    l.dt = static_cast<dtype>(dt);
    l.val_count = static_cast<std::uint32_t>(g.vals.size() - l.val_begin);
    if (list != list_field(l.dt))
      fail(list_at, "the Array's dtype is " + std::string(dtype_name(l.dt)) + " but its values are in field " +
                        std::to_string(list) + " (expected " + std::to_string(list_field(l.dt)) + ")");
    check_values(l, list_at);
    // Elements must fill the shape exactly.
    std::uint64_t count = 1;
    for (std::uint32_t k = 0; k != l.dim_count; ++k) {
      const std::int64_t d = g.dims[l.dim_begin + k];
      if (d < 0) fail(end, "Array.shape.dim[" + std::to_string(k) + "] is " + std::to_string(d) + "; a literal's dimensions are known and >= 0");
      if (d != 0 && count > (std::uint64_t{1} << 40) / static_cast<std::uint64_t>(d)) count = (std::uint64_t{1} << 40) + 1;
      else count *= static_cast<std::uint64_t>(d);
    }
    const std::uint64_t have = l.val_count / slots_per_value(l.dt);
    if ((l.dt == dtype::complex64 || l.dt == dtype::complex128) && (g.vals.size() - l.val_begin) % 2)
      fail(end, "a complex Array holds an odd number of parts (" + std::to_string(l.val_count) + ")");
    if (count != have)
      fail(end, "the Array holds " + std::to_string(have) + " values; its shape needs " + std::to_string(count));
    g.lits.push_back(l);
    return static_cast<std::uint32_t>(g.lits.size() - 1);
  }

  void shape(ptr p, ptr end, lit& l) {
    graph& g = tree_access::pool(t_);
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        if (f.wire == 2) {
          ptr e = delimited(f, p, end, "ArrayShape.dim");
          while (p != e) {
            g.dims.push_back(static_cast<std::int64_t>(varint(p, e)));
          }
        } else {
          g.dims.push_back(static_cast<std::int64_t>(scalar(f, p, end, "ArrayShape.dim")));
        }
      } else if (f.number == 2) {
        if (scalar(f, p, end, "ArrayShape.unknown_rank"))
          fail(f.at, "a literal's shape has unknown rank");
      } else {
        unknown(f, "ArrayShape");
      }
    }
    l.dim_count = static_cast<std::uint32_t>(g.dims.size() - l.dim_begin);
  }

  // The values of list message `kind` (Array field number), pushed to pool.vals as stored slots.
  void values(std::uint32_t kind, ptr p, ptr end) {
    graph& g = tree_access::pool(t_);
    // Wire type of one unpacked value: 0 varint, 5 fixed32, 1 fixed64, 2 bytes.
    const std::uint32_t wire = kind == 13 || kind == 15 ? 5 : kind == 14 || kind == 16 ? 1 : kind == 17 ? 2 : 0;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "the Array's value list");
      if (wire == 2) {
        ptr e = delimited(f, p, end, "a string value");
        const std::string_view s(reinterpret_cast<const char*>(p), static_cast<std::size_t>(e - p));
        g.vals.push_back(add_chars(s));
        g.vals.push_back(s.size());
        p = e;
      } else if (f.wire == 2) {  // packed
        ptr e = delimited(f, p, end, "packed values");
        while (p != e) one(wire, p, e);
      } else {
        if (f.wire != wire) wrong_wire(f, "a value", wire);
        one(wire, p, end);
      }
    }
  }
  void one(std::uint32_t wire, ptr& p, ptr end) {
    graph& g = tree_access::pool(t_);
    if (wire == 0) {
      g.vals.push_back(varint(p, end));
      return;
    }
    const std::size_t w = wire == 5 ? 4 : 8;
    if (static_cast<std::size_t>(end - p) < w) fail(p, "truncated fixed-size value");
    std::uint64_t v = 0;
    for (std::size_t k = 0; k != w; ++k) v |= static_cast<std::uint64_t>(p[k]) << (8 * k);
    p += w;
    g.vals.push_back(v);
  }
  // Integer values within their dtype's range; int8/16/32 normalised to the sign extension of
  // their low 32 bits (as an int32 field reads them), bools to 0/1.
  void check_values(const lit& l, ptr at) {
    graph& g = tree_access::pool(t_);
    if (l.dt == dtype::str || is_floating(l.dt) || is_complex(l.dt)) {
      if (l.dt == dtype::float16 || l.dt == dtype::bfloat16) {
        for (std::uint32_t k = 0; k != l.val_count; ++k)
          if (g.vals[l.val_begin + k] > 0xffff)
            fail(at, "value " + std::to_string(k) + " of a " + std::string(dtype_name(l.dt)) + " Array is not a 16-bit pattern");
      }
      return;
    }
    std::int64_t lo = 0, hi = 0;
    switch (l.dt) {
      case dtype::bool_: lo = 0; hi = 1; break;
      case dtype::int8: lo = -128; hi = 127; break;
      case dtype::int16: lo = -32768; hi = 32767; break;
      case dtype::int32: lo = INT32_MIN; hi = INT32_MAX; break;
      case dtype::uint8: hi = 255; break;
      case dtype::uint16: hi = 65535; break;
      case dtype::uint32: hi = 0xffffffffll; break;
      default: return;  // int64, uint64: every pattern
    }
    for (std::uint32_t k = 0; k != l.val_count; ++k) {
      std::uint64_t& v = g.vals[l.val_begin + k];
      if (l.dt == dtype::bool_) {
        v = v != 0;
        continue;
      }
      if (l.dt == dtype::int8 || l.dt == dtype::int16 || l.dt == dtype::int32)
        v = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))));
      const bool is_signed = lo < 0;
      const bool ok = is_signed ? (static_cast<std::int64_t>(v) >= lo && static_cast<std::int64_t>(v) <= hi)
                                : v <= static_cast<std::uint64_t>(hi);
      if (!ok)
        fail(at, "value " + std::to_string(k) + " (" +
                     (is_signed ? std::to_string(static_cast<std::int64_t>(v)) : std::to_string(v)) +
                     ") is out of range for " + std::string(dtype_name(l.dt)));
    }
  }
};

}  // namespace ctff::detail
