// Protobuf wire bytes written front to back into a std::string: a field's payload is complete
// before its header is written (run time only; the constant-evaluated writers size first,
// core/wire_size.hpp). Fields in number order give protobuf's own, canonical bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ctff/core/wire_size.hpp"

namespace ctff::detail {

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A length-delimited field (wire type 2).
inline void put_message(std::string& out, std::uint32_t field, std::string_view payload) {
  put_varint(out, tag_value(field, 2));
  put_varint(out, payload.size());
  out.append(payload);
}

}  // namespace ctff::detail
