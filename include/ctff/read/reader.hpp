// Reading serialized federated_language.Computation bytes into a ctff::computation_tree: the
// Computation messages here, Arrays in read/array_message.hpp, Types in read/type_message.hpp,
// the wire primitives in read/wire_reader.hpp. The wire format is decoded directly, not through
// protobuf, so that hostile input is bounded: the nesting depth (Computation and Type messages
// together) and the input size are limited (ctff::read_limits), every length is checked against
// what is left, and every failure throws ctff::read_error naming the path from the root and the
// byte offset. Nothing recurses deeper than max_depth, and memory stays proportional to the input.
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

#include "ctff/core/byte_view.hpp"
#include "ctff/read/array_message.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {
namespace detail {

class tree_reader : public array_message_reader {
 public:
  tree_reader(const unsigned char* data, std::size_t size, read_limits limits)
      : array_message_reader(data, size, limits) {}

  computation_tree run() {
    check_size();
    // Rough sizes from the input (a node takes at least a few bytes), capped: a guess, not a limit.
    const std::size_t guess = size_ < (std::size_t{1} << 24) ? size_ : (std::size_t{1} << 24);
    t_.nodes.reserve(guess / 16 + 4);
    t_.types.nodes.reserve(guess / 8 + 4);
    t_.types.kids.reserve(guess / 8 + 4);
    t_.root = computation(base_, base_ + size_);
    return std::move(t_);
  }

 private:
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

  std::vector<block_elem> scratch_;
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
