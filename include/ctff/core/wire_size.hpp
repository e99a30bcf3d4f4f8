// Sizes of protocol-buffer wire encodings. Every writer and sizer of ctff takes its sizes from
// here, so the size of a field and the bytes written for it cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctff::detail {

// Bytes of v as a base-128 varint (1 to 10).
constexpr std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// A field's tag: the varint (field number << 3) | wire type.
constexpr std::uint64_t tag_value(std::uint32_t field, std::uint32_t wire_type) {
  return (static_cast<std::uint64_t>(field) << 3) | wire_type;
}

// Bytes of a field's tag: one byte for field numbers 1 to 15, two from 16 to 2047, ...
constexpr std::size_t tag_size(std::uint32_t field) { return varint_size(tag_value(field, 0)); }

// Bytes of a length-delimited field (wire type 2) carrying `payload` bytes.
constexpr std::size_t field_size(std::uint32_t field, std::size_t payload) {
  return tag_size(field) + varint_size(payload) + payload;
}

}  // namespace ctff::detail
