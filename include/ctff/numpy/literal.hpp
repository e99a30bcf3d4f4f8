// A literal as numpy's printers read it: its dtype, its shape and its values, laid out as the
// graph's pools hold them (ast/graph.hpp, `lit`): a 64-bit pattern per slot, two slots for a
// complex number (real, imaginary) and for a string (offset and length in a character pool).
#pragma once

#include <cstdint>
#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// Values stored per element: two for complex numbers and strings (offset, length).
CTFF_DEFER
constexpr std::uint32_t slots_per_value(dtype d) {
  return is(d, dtype::complex64, dtype::complex128, dtype::str) ? 2 : 1;
}

// The printers' view of one literal: pointers into the pools, read in place.
struct literal_ref {
  dtype dt = dtype::invalid;
  std::uint32_t rank = 0;               // 0 for a scalar
  const std::int64_t* dims = nullptr;   // rank dimensions
  const std::uint64_t* vals = nullptr;  // slots_per_value(dt) slots per element, row-major
  const char* chars = nullptr;          // the character pool that string values index

  constexpr std::string_view chars_at(std::uint32_t off, std::uint32_t len) const {
    return len ? std::string_view(chars + off, len) : std::string_view{};
  }
};

}  // namespace ctff::detail
