// Tensor element types: the numbers of federated_language's DataType enum and their printed names.
#pragma once

#include <cstdint>
#include <string_view>

#include "ctff/core/enum_is.hpp"

namespace ctff {

enum class dtype : std::uint8_t {
  invalid = 0,
  float32 = 1,
  float64 = 2,
  int32 = 3,
  uint8 = 4,
  int16 = 5,
  int8 = 6,
  str = 7,
  complex64 = 8,
  int64 = 9,
  bool_ = 10,
  bfloat16 = 14,
  uint16 = 17,
  complex128 = 18,
  float16 = 19,
  uint32 = 22,
  uint64 = 23,
};

constexpr std::string_view dtype_name(dtype d) {
  switch (d) {
    case dtype::float32: return "float32";
    case dtype::float64: return "float64";
    case dtype::int32: return "int32";
    case dtype::uint8: return "uint8";
    case dtype::int16: return "int16";
    case dtype::int8: return "int8";
    case dtype::str: return "str";
    case dtype::complex64: return "complex64";
    case dtype::int64: return "int64";
    case dtype::bool_: return "bool";
    case dtype::bfloat16: return "bfloat16";
    case dtype::uint16: return "uint16";
    case dtype::complex128: return "complex128";
    case dtype::float16: return "float16";
    case dtype::uint32: return "uint32";
    case dtype::uint64: return "uint64";
    case dtype::invalid: break;
  }
  return "invalid";
}

// Whether a wire number names one of the 16 dtypes.
constexpr bool is_valid_dtype(std::uint64_t n) {
  switch (n) {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10: case 14:
    case 17: case 18: case 19: case 22: case 23:
      return true;
    default:
      return false;
  }
}

constexpr bool is_integer(dtype d) {
  switch (d) {
    case dtype::int8: case dtype::int16: case dtype::int32: case dtype::int64:
    case dtype::uint8: case dtype::uint16: case dtype::uint32: case dtype::uint64:
      return true;
    default:
      return false;
  }
}
constexpr bool is_floating(dtype d) {
  return detail::is(d, dtype::float16, dtype::float32, dtype::float64, dtype::bfloat16);
}
constexpr bool is_complex(dtype d) { return detail::is(d, dtype::complex64, dtype::complex128); }
// numpy's np.number plus bfloat16: what federated_sum accepts.
constexpr bool is_numeric(dtype d) { return is_integer(d) || is_floating(d) || is_complex(d); }

}  // namespace ctff
