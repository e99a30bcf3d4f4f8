// The protobuf wire format, read by hand for hostile input (read/reader.hpp): every length is
// checked against what is left, the nesting depth and the input size are limited
// (ctff::read_limits), and every failure throws ctff::read_error naming the path from the root
// and the byte offset. The base of the Type, Array and Computation readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/read/error.hpp"
#include "ctff/read/path.hpp"

namespace ctff {

struct read_limits {
  std::size_t max_depth = 1000;          // nested Computation and Type messages, together
  std::size_t max_bytes = 256u << 20;    // size of the input
};

namespace detail {

class wire_reader {
 protected:
  using ptr = const unsigned char*;

  wire_reader(const unsigned char* data, std::size_t size, read_limits limits)
      : base_(data), size_(size), lim_(limits) {}

  [[noreturn]] void fail(ptr at, const std::string& problem) const {
    fail(static_cast<std::size_t>(at - base_), problem);
  }
  [[noreturn]] void fail(std::size_t offset, const std::string& problem) const {
    throw read_error(path_string(path_), offset, problem);
  }

  // The input's size against read_limits::max_bytes, before anything is read.
  void check_size() const {
    if (size_ > lim_.max_bytes)
      fail(std::size_t{0}, "the input has " + std::to_string(size_) + " bytes; the limit is " +
                               std::to_string(lim_.max_bytes) + " (ctff::read_limits::max_bytes)");
  }

  void push(const char* what, std::int64_t index = -1, std::string_view name = {}) {
    if (path_.size() >= lim_.max_depth)
      fail(path_.empty() ? base_ : at_, "nesting deeper than " + std::to_string(lim_.max_depth) +
                                            " messages (ctff::read_limits::max_depth)");
    path_.push_back(path_frame{what, index, name});
  }
  void pop() { path_.pop_back(); }

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

  ptr base_;
  std::size_t size_;
  read_limits lim_;
  ptr at_ = nullptr;  // the Computation being read (for the depth limit's offset)
  std::vector<path_frame> path_;
};

}  // namespace detail
}  // namespace ctff
