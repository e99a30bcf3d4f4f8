// Reading serialized federated_language.Computation bytes into a ctff::computation_tree. The wire
// format is decoded here directly, not through protobuf, so that hostile input is bounded: the
// nesting depth (Computation and Type messages together) and the input size are limited
// (ctff::read_limits), every length is checked against what is left, and every failure throws
// ctff::read_error naming the path from the root and the byte offset. Nothing recurses deeper
// than max_depth, and memory stays proportional to the input.
//
// Accepted: what protobuf accepts of the canonical encoding (fields in any order, packed or
// unpacked repeated scalars). Rejected with a read_error: unknown fields, a singular field given
// twice, a Type or Computation whose oneof is empty or given twice, unknown dtypes, placement
// URIs other than `clients` and `server` inside federated types, placement labels, invalid
// UTF-8 in string fields, Array values out of range of their dtype or not matching its shape.
// Everything else (types that do not fit, unresolved references, ...) is the checker's business
// (ctff/read/checker.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/ast/literal.hpp"
#include "ctff/core/byte_view.hpp"
#include "ctff/read/error.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

struct read_limits {
  std::size_t max_depth = 1000;          // nested Computation and Type messages, together
  std::size_t max_bytes = 256u << 20;    // size of the input
};

namespace detail {

class tree_reader {
 public:
  tree_reader(const unsigned char* data, std::size_t size, read_limits limits)
      : base_(data), size_(size), lim_(limits) {}

  computation_tree run() {
    if (size_ > lim_.max_bytes)
      fail(std::size_t{0}, "the input has " + std::to_string(size_) + " bytes; the limit is " +
                  std::to_string(lim_.max_bytes) + " (ctff::read_limits::max_bytes)");
    // Rough sizes from the input (a node takes at least a few bytes), capped: a guess, not a limit.
    const std::size_t guess = size_ < (std::size_t{1} << 24) ? size_ : (std::size_t{1} << 24);
    t_.nodes.reserve(guess / 16 + 4);
    t_.types.nodes.reserve(guess / 8 + 4);
    t_.types.kids.reserve(guess / 8 + 4);
    t_.root = computation(base_, base_ + size_);
    return std::move(t_);
  }

 private:
  using ptr = const unsigned char*;

  [[noreturn]] void fail(ptr at, const std::string& problem) const {
    fail(static_cast<std::size_t>(at - base_), problem);
  }
  [[noreturn]] void fail(std::size_t offset, const std::string& problem) const {
    throw read_error(path_string(path_), offset, problem);
  }

  void push(const char* what, std::int64_t index = -1, std::string_view name = {}) {
    if (path_.size() >= lim_.max_depth)
      fail(path_.empty() ? base_ : at_, "nesting deeper than " + std::to_string(lim_.max_depth) +
                                            " messages (ctff::read_limits::max_depth)");
    path_.push_back(path_frame{what, index, name});
  }
  void pop() { path_.pop_back(); }

  // ---- wire primitives -------------------------------------------------------------------
  std::uint64_t varint(ptr& p, ptr end) {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p == end) fail(p, "truncated varint");
      const unsigned char b = *p++;
      if (shift == 63 && b > 1) fail(p - 1, "varint longer than 64 bits");
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail(p, "varint longer than 10 bytes");
  }
  struct field {
    std::uint32_t number;
    std::uint32_t wire;
    ptr at;  // where its tag starts
  };
  field tag(ptr& p, ptr end) {
    ptr at = p;
    const std::uint64_t v = varint(p, end);
    const std::uint64_t number = v >> 3;
    if (number == 0 || number > 536870911u) fail(at, "invalid field number " + std::to_string(number));
    return field{static_cast<std::uint32_t>(number), static_cast<std::uint32_t>(v & 7), at};
  }
  // The payload of a length-delimited field: [p, returned end).
  ptr delimited(const field& f, ptr& p, ptr end, const char* what) {
    if (f.wire != 2) wrong_wire(f, what, 2);
    const std::uint64_t n = varint(p, end);
    if (n > static_cast<std::uint64_t>(end - p))
      fail(f.at, std::string(what) + ": length " + std::to_string(n) + " runs past the end of the enclosing message (" +
                     std::to_string(end - p) + " bytes left)");
    ptr e = p + n;
    return e;
  }
  std::uint64_t scalar(const field& f, ptr& p, ptr end, const char* what) {
    if (f.wire != 0) wrong_wire(f, what, 0);
    return varint(p, end);
  }
  [[noreturn]] void wrong_wire(const field& f, const char* what, std::uint32_t expected) const {
    static constexpr const char* names[] = {"varint", "64-bit", "length-delimited", "start-group",
                                            "end-group", "32-bit", "6", "7"};
    fail(f.at, std::string(what) + " (field " + std::to_string(f.number) + ") has wire type " +
                   names[f.wire] + "; expected " + names[expected]);
  }
  [[noreturn]] void unknown(const field& f, const char* message) const {
    fail(f.at, std::string("unknown field ") + std::to_string(f.number) + " (wire type " +
                   std::to_string(f.wire) + ") in " + message);
  }
  void once(bool& seen, const field& f, const char* what) {
    if (seen) fail(f.at, std::string(what) + " is given twice");
    seen = true;
  }
  static bool utf8_ok(ptr p, ptr e) {
    while (p != e) {
      const unsigned char c = *p;
      if (c < 0x80) {
        ++p;
        continue;
      }
      int n = 0;
      std::uint32_t cp = 0;
      if ((c & 0xe0) == 0xc0) {
        n = 1;
        cp = c & 0x1f;
      } else if ((c & 0xf0) == 0xe0) {
        n = 2;
        cp = c & 0x0f;
      } else if ((c & 0xf8) == 0xf0) {
        n = 3;
        cp = c & 0x07;
      } else {
        return false;
      }
      if (e - p <= n) return false;
      for (int k = 1; k <= n; ++k) {
        if ((p[k] & 0xc0) != 0x80) return false;
        cp = (cp << 6) | (p[k] & 0x3f);
      }
      static constexpr std::uint32_t min_cp[] = {0, 0x80, 0x800, 0x10000};
      if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
      p += n + 1;
    }
    return true;
  }
  // A string field's text, checked as UTF-8 (protobuf rejects proto3 strings that are not).
  std::string_view string(const field& f, ptr& p, ptr end, const char* what) {
    ptr e = delimited(f, p, end, what);
    if (!utf8_ok(p, e)) fail(f.at, std::string(what) + " is not valid UTF-8");
    std::string_view s(reinterpret_cast<const char*>(p), static_cast<std::size_t>(e - p));
    p = e;
    return s;
  }
  std::uint32_t add_chars(std::string_view s) {
    auto& chars = t_.pool.chars;
    const auto at = static_cast<std::uint32_t>(chars.size());
    chars.append(s.data(), s.size());
    return at;
  }

  // ---- Computation -----------------------------------------------------------------------
  std::uint32_t computation(ptr p, ptr end) {
    block_node n{};
    bool has_type = false, has_block = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(has_type, f, "Computation.type");
        ptr e = delimited(f, p, end, "Computation.type");
        push("type");
        n.type = type(p, e);
        pop();
        p = e;
        continue;
      }
      if (f.number > 14 || f.number == 13) unknown(f, "Computation");
      if (has_block)
        fail(f.at, "a second building block (field " + std::to_string(f.number) +
                       "): the Computation's `computation` oneof is already set");
      has_block = true;
      ptr e = delimited(f, p, end, "the building block");
      body(f, n, p, e);
      p = e;
    }
    if (!has_block) fail(end, "the Computation holds no building block (its `computation` oneof is empty)");
    t_.nodes.push_back(n);
    return static_cast<std::uint32_t>(t_.nodes.size() - 1);
  }

  // A nested Computation in field f of the message being read.
  std::uint32_t child(const field& f, ptr& p, ptr end, const char* what, std::int64_t index = -1,
                      std::string_view name = {}) {
    ptr e = delimited(f, p, end, what);
    push(what, index, name);
    const std::uint32_t c = computation(p, e);
    pop();
    p = e;
    return c;
  }

  void body(const field& f, block_node& n, ptr p, ptr end) {
    switch (f.number) {
      case 2: opaque(n, block_kind::tensorflow, p, end); return;
      case 3: uri_only(n, block_kind::intrinsic, "Intrinsic", p, end); return;
      case 4: lambda(n, p, end); return;
      case 5: block(n, p, end); return;
      case 6: uri_only(n, block_kind::reference, "Reference", p, end); return;
      case 7: call(n, p, end); return;
      case 8: struct_(n, p, end); return;
      case 9: selection(n, p, end); return;
      case 10: opaque(n, block_kind::data, p, end); return;
      case 11: uri_only(n, block_kind::placement, "Placement", p, end); return;
      case 12: opaque(n, block_kind::xla, p, end); return;
      case 14: literal(n, p, end); return;
      default: unknown(f, "Computation");
    }
  }

  // TensorFlow, Xla, Data: kept as their serialized message, checked to be well-formed wire data.
  void opaque(block_node& n, block_kind k, ptr p, ptr end) {
    n.kind = k;
    n.text_off = add_chars(std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(end - p)));
    n.text_len = static_cast<std::uint32_t>(end - p);
    skim(p, end);
  }
  // Walks a message's fields (no groups) to check its framing; length-delimited payloads are
  // not looked into (they may be bytes).
  void skim(ptr p, ptr end) {
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      switch (f.wire) {
        case 0: varint(p, end); break;
        case 1:
          if (end - p < 8) fail(p, "truncated 64-bit field");
          p += 8;
          break;
        case 5:
          if (end - p < 4) fail(p, "truncated 32-bit field");
          p += 4;
          break;
        case 2: {
          p = delimited(f, p, end, "a field");
          break;
        }
        default:
          fail(f.at, "wire type " + std::to_string(f.wire) + " (groups are not used by federated_language)");
      }
    }
  }

  // Intrinsic, Reference, Placement: `uri`/`name` = 1 only.
  void uri_only(block_node& n, block_kind k, const char* message, ptr p, ptr end) {
    n.kind = k;
    bool seen = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, message);
      once(seen, f, message);
      const std::string_view s = string(f, p, end, message);
      n.text_off = add_chars(s);
      n.text_len = static_cast<std::uint32_t>(s.size());
    }
  }

  void lambda(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::lambda;
    bool seen_name = false, seen_result = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_name, f, "Lambda.parameter_name");
        const std::string_view s = string(f, p, end, "Lambda.parameter_name");
        n.text_off = add_chars(s);
        n.text_len = static_cast<std::uint32_t>(s.size());
      } else if (f.number == 2) {
        once(seen_result, f, "Lambda.result");
        n.a = child(f, p, end, "lambda.result");
      } else {
        unknown(f, "Lambda");
      }
    }
    if (!seen_result) fail(end, "the Lambda has no result");
  }

  // Struct elements and Block locals: {name = 1, value = 2}; collected on a scratch stack shared
  // by all nesting levels, then appended to elems in one piece.
  void element(ptr p, ptr end, const char* what, std::int64_t k) {
    block_elem el{};
    std::string_view name;
    bool seen_name = false, seen_value = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_name, f, "the element's name");
        name = string(f, p, end, "the element's name");
        el.name_off = add_chars(name);
        el.name_len = static_cast<std::uint32_t>(name.size());
      } else if (f.number == 2) {
        once(seen_value, f, "the element's value");
        el.value = child(f, p, end, what, k, name);
      } else {
        unknown(f, what);
      }
    }
    if (!seen_value) {
      push(what, k, name);
      fail(end, "the element has no value");
    }
    scratch_.push_back(el);
  }
  void finish_elems(block_node& n, std::size_t mark) {
    n.first = static_cast<std::uint32_t>(t_.elems.size());
    n.count = static_cast<std::uint32_t>(scratch_.size() - mark);
    t_.elems.insert(t_.elems.end(), scratch_.begin() + static_cast<std::ptrdiff_t>(mark), scratch_.end());
    scratch_.resize(mark);
  }

  void block(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::block;
    const std::size_t mark = scratch_.size();
    bool seen_result = false;
    std::int64_t k = 0;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        ptr e = delimited(f, p, end, "Block.local");
        element(p, e, "block.local", k++);
        p = e;
      } else if (f.number == 2) {
        once(seen_result, f, "Block.result");
        n.a = child(f, p, end, "block.result");
      } else {
        unknown(f, "Block");
      }
    }
    if (!seen_result) fail(end, "the Block has no result");
    finish_elems(n, mark);
  }

  void struct_(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::struct_;
    const std::size_t mark = scratch_.size();
    std::int64_t k = 0;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "Struct");
      ptr e = delimited(f, p, end, "Struct.element");
      element(p, e, "struct", k++);
      p = e;
    }
    finish_elems(n, mark);
  }

  void call(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::call;
    bool seen_fn = false, seen_arg = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_fn, f, "Call.function");
        n.a = child(f, p, end, "call.function");
      } else if (f.number == 2) {
        once(seen_arg, f, "Call.argument");
        n.b = child(f, p, end, "call.argument");
      } else {
        unknown(f, "Call");
      }
    }
    if (!seen_fn) fail(end, "the Call has no function");
  }

  void selection(block_node& n, ptr p, ptr end) {
    n.kind = block_kind::selection;
    bool seen_src = false, seen_index = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_src, f, "Selection.source");
        n.a = child(f, p, end, "selection.source");
      } else if (f.number == 3) {
        once(seen_index, f, "Selection.index");
        n.index = static_cast<std::int32_t>(static_cast<std::uint32_t>(scalar(f, p, end, "Selection.index")));
      } else {
        unknown(f, f.number == 2 ? "Selection (field 2, the old `name`, is no longer read)" : "Selection");
      }
    }
    if (!seen_src) fail(end, "the Selection has no source");
  }

  // ---- Literal / Array ---------------------------------------------------------------------
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
    graph& g = t_.pool;
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
    graph& g = t_.pool;
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
    graph& g = t_.pool;
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
    graph& g = t_.pool;
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
    graph& g = t_.pool;
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

  // ---- Type --------------------------------------------------------------------------------
  // Reads a Type message into t_.types (children before parents, names after the elements: the
  // layout of ctff::describe<T>()).
  std::uint32_t type(ptr p, ptr end) {
    std::uint32_t id = no_index;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number < 1 || f.number > 7) unknown(f, "Type");
      if (id != no_index) fail(f.at, "a second kind (field " + std::to_string(f.number) + "): the Type's `type` oneof is already set");
      ptr e = delimited(f, p, end, "the Type's kind");
      switch (f.number) {
        case 1: id = function_type(p, e); break;
        case 2: id = struct_type(p, e); break;
        case 3: id = sequence_type(p, e); break;
        case 4: id = tensor_type(p, e); break;
        case 5: id = abstract_type(p, e); break;
        case 6: id = placement_type(p, e); break;
        default: id = federated_type(p, e); break;
      }
      p = e;
    }
    if (id == no_index) fail(end, "the Type has no kind (its `type` oneof is empty)");
    return id;
  }
  std::uint32_t nested_type(const field& f, ptr& p, ptr end, const char* what) {
    ptr e = delimited(f, p, end, what);
    push(what);
    const std::uint32_t id = type(p, e);
    pop();
    p = e;
    return id;
  }

  std::uint32_t function_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::function;
    std::uint32_t k[2] = {no_index, no_index};
    bool seen_param = false, seen_result = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_param, f, "FunctionType.parameter");
        k[0] = nested_type(f, p, end, "function.parameter");
      } else if (f.number == 2) {
        once(seen_result, f, "FunctionType.result");
        k[1] = nested_type(f, p, end, "function.result");
      } else {
        unknown(f, "FunctionType");
      }
    }
    if (!seen_result) fail(end, "the function type has no result type");
    n.has_param = seen_param;
    const std::uint32_t id = t_.types.add(n);
    if (seen_param) {
      t_.types.set_kids(id, k, 2);
    } else {
      const std::uint32_t r[1] = {k[1]};
      t_.types.set_kids(id, r, 1);
    }
    return id;
  }

  std::uint32_t struct_type(ptr p, ptr end) {
    struct el {
      std::uint32_t id;
      std::string_view name;
    };
    const std::size_t mark = type_scratch_.size();
    std::int64_t k = 0;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "StructType");
      ptr e = delimited(f, p, end, "StructType.element");
      std::string_view name;
      std::uint32_t id = no_index;
      bool seen_name = false;
      ptr q = p;
      while (q != e) {
        at_ = q;
        const field g = tag(q, e);
        if (g.number == 1) {
          once(seen_name, g, "the element's name");
          name = string(g, q, e, "the element's name");
        } else if (g.number == 2) {
          if (id != no_index) fail(g.at, "the element's value is given twice");
          ptr ve = delimited(g, q, e, "the element's type");
          push("struct", k, name);
          id = type(q, ve);
          pop();
          q = ve;
        } else {
          unknown(g, "StructType.Element");
        }
      }
      if (id == no_index) {
        push("struct", k, name);
        fail(e, "the struct element has no type");
      }
      type_scratch_.push_back(id);
      name_scratch_.push_back(name);
      p = e;
      ++k;
    }
    const std::size_t count = type_scratch_.size() - mark;
    for (std::size_t j = 0; j != count; ++j)
      if (!name_scratch_[mark + j].empty()) t_.types.set_name(type_scratch_[mark + j], name_scratch_[mark + j]);
    type_node n{};
    n.kind = type_kind::struct_;
    const std::uint32_t id = t_.types.add(n);
    t_.types.nodes[id].kid_begin = static_cast<std::uint32_t>(t_.types.kids.size());
    t_.types.nodes[id].kid_count = static_cast<std::uint32_t>(count);
    t_.types.kids.insert(t_.types.kids.end(), type_scratch_.begin() + static_cast<std::ptrdiff_t>(mark), type_scratch_.end());
    type_scratch_.resize(mark);
    name_scratch_.resize(mark);
    return id;
  }

  std::uint32_t sequence_type(ptr p, ptr end) {
    std::uint32_t k[1] = {no_index};
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "SequenceType");
      if (k[0] != no_index) fail(f.at, "SequenceType.element is given twice");
      k[0] = nested_type(f, p, end, "sequence.element");
    }
    if (k[0] == no_index) fail(end, "the sequence type has no element type");
    type_node n{};
    n.kind = type_kind::sequence;
    const std::uint32_t id = t_.types.add(n);
    t_.types.set_kids(id, k, 1);
    return id;
  }

  std::uint32_t tensor_type(ptr p, ptr end) {
    type_desc& d = t_.types;
    type_node n{};
    n.kind = type_kind::tensor;
    n.dim_begin = static_cast<std::uint32_t>(d.dims.size());
    std::uint64_t dt = 0;
    bool seen_dtype = false, seen_rank = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_dtype, f, "TensorType.dtype");
        dt = scalar(f, p, end, "TensorType.dtype");
      } else if (f.number == 2) {
        if (f.wire == 2) {
          ptr e = delimited(f, p, end, "TensorType.dims");
          while (p != e) d.dims.push_back(static_cast<std::int64_t>(varint(p, e)));
        } else {
          d.dims.push_back(static_cast<std::int64_t>(scalar(f, p, end, "TensorType.dims")));
        }
      } else if (f.number == 3) {
        once(seen_rank, f, "TensorType.unknown_rank");
        n.unknown_rank = scalar(f, p, end, "TensorType.unknown_rank") != 0;
      } else {
        unknown(f, "TensorType");
      }
    }
    if (!is_valid_dtype(dt)) {
      push("tensor.dtype");
      fail(end, "unknown dtype number " + std::to_string(dt) + (dt == 0 ? " (DT_INVALID)" : "") +
                    "; federated_language knows 1-10, 14, 17-19, 22 and 23");
    }
    n.dt = static_cast<dtype>(dt);
    n.dim_count = static_cast<std::uint32_t>(d.dims.size() - n.dim_begin);
    if (n.dim_count == 0) n.dim_begin = 0;
    return d.add(n);
  }

  std::uint32_t abstract_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::abstract;
    bool seen = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "AbstractType");
      once(seen, f, "AbstractType.label");
      const std::string_view s = string(f, p, end, "AbstractType.label");
      n.label_begin = t_.types.add_chars(s);
      n.label_len = static_cast<std::uint32_t>(s.size());
    }
    return t_.types.add(n);
  }

  std::uint32_t placement_type(ptr p, ptr end) {
    if (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        push("placement");
        fail(f.at, "PlacementType.instance_label is set; federated_language writes the placement type empty");
      }
      unknown(f, "PlacementType");
    }
    type_node n{};
    n.kind = type_kind::placement;
    return t_.types.add(n);
  }

  std::uint32_t federated_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::federated;
    std::uint32_t k[1] = {no_index};
    bool seen_placement = false, seen_all_equal = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_placement, f, "FederatedType.placement");
        ptr e = delimited(f, p, end, "FederatedType.placement");
        push("federated.placement");
        n.where = placement_spec(p, e);
        pop();
        p = e;
      } else if (f.number == 2) {
        once(seen_all_equal, f, "FederatedType.all_equal");
        n.all_equal = scalar(f, p, end, "FederatedType.all_equal") != 0;
      } else if (f.number == 3) {
        if (k[0] != no_index) fail(f.at, "FederatedType.member is given twice");
        k[0] = nested_type(f, p, end, "federated.member");
      } else {
        unknown(f, "FederatedType");
      }
    }
    if (!seen_placement) {
      push("federated.placement");
      fail(end, "the federated type has no placement");
    }
    if (k[0] == no_index) {
      push("federated.member");
      fail(end, "the federated type has no member type");
    }
    const std::uint32_t id = t_.types.add(n);
    t_.types.set_kids(id, k, 1);
    return id;
  }

  placement_kind placement_spec(ptr p, ptr end) {
    bool seen = false;
    placement_kind where = placement_kind::clients;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) fail(f.at, "the placement is given by a label; federated_language reads only PlacementSpec.value");
      if (f.number != 2) unknown(f, "PlacementSpec");
      once(seen, f, "PlacementSpec.value");
      ptr e = delimited(f, p, end, "PlacementSpec.value");
      std::string_view uri;
      while (p != e) {
        at_ = p;
        const field g = tag(p, e);
        if (g.number != 1) unknown(g, "Placement");
        uri = string(g, p, e, "Placement.uri");
      }
      if (uri == "clients") {
        where = placement_kind::clients;
      } else if (uri == "server") {
        where = placement_kind::server;
      } else {
        fail(e, "unknown placement URI `" + std::string(uri) + "`; federated_language knows `clients` and `server`");
      }
    }
    if (!seen) fail(end, "the PlacementSpec is empty");
    return where;
  }

  ptr base_;
  std::size_t size_;
  read_limits lim_;
  ptr at_ = nullptr;
  computation_tree t_;
  std::vector<path_frame> path_;
  std::vector<block_elem> scratch_;
  std::vector<std::uint32_t> type_scratch_;
  std::vector<std::string_view> name_scratch_;
};

}  // namespace detail

// Reads serialized Computation bytes. Throws ctff::read_error.
inline computation_tree read_computation(byte_view bytes, read_limits limits = {}) {
  return detail::tree_reader(bytes.data(), bytes.size(), limits).run();
}
inline computation_tree read_computation(std::string_view bytes, read_limits limits = {}) {
  return read_computation(byte_view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()), limits);
}

}  // namespace ctff
