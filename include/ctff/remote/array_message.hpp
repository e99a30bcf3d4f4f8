// federated_language.Array messages as tensors and back, on TFF's remote-execution wire: typed
// lists (as Python writes them) or raw row-major `content` (as TFF's C++ writes them) read; written
// as TFF's C++ writes them. Counts are checked against the shape and the bytes before anything is
// allocated.
#pragma once

#include <bit>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <federated_language/proto/array.pb.h>

#include "ctff/remote/remote_error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// The number of elements of a shape (dims checked non-negative, the product bounded).
inline std::size_t shape_elements(const std::vector<std::int64_t>& shape, const value_path& where) {
  std::size_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) remote_fail(where, "a dimension of " + std::to_string(d) + " (Array.shape)");
    if (d != 0 && n > (std::size_t{1} << 48) / static_cast<std::size_t>(d))
      remote_fail(where, "the shape has more than 2^48 elements");
    n *= static_cast<std::size_t>(d);
  }
  return n;
}

// `[2,3]` (appended piece by piece: g++ -O3 warns -Wrestrict on `s + "," + ...`).
inline std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k != shape.size(); ++k) {
    if (k) s += ',';
    s += std::to_string(shape[k]);
  }
  s += ']';
  return s;
}

// One Array's typed list, as the repeated field that holds dtype D's elements.
template <dtype D>
auto& array_list(const federated_language::Array& a) {
  using enum dtype;
  if constexpr (D == bool_) return a.bool_list().value();
  else if constexpr (D == int8) return a.int8_list().value();
  else if constexpr (D == int16) return a.int16_list().value();
  else if constexpr (D == int32) return a.int32_list().value();
  else if constexpr (D == int64) return a.int64_list().value();
  else if constexpr (D == uint8) return a.uint8_list().value();
  else if constexpr (D == uint16) return a.uint16_list().value();
  else if constexpr (D == uint32) return a.uint32_list().value();
  else if constexpr (D == uint64) return a.uint64_list().value();
  else if constexpr (D == float16) return a.float16_list().value();
  else if constexpr (D == bfloat16) return a.bfloat16_list().value();
  else if constexpr (D == float32) return a.float32_list().value();
  else if constexpr (D == float64) return a.float64_list().value();
  else if constexpr (D == complex64) return a.complex64_list().value();
  else if constexpr (D == complex128) return a.complex128_list().value();
  else return a.string_list().value();
}
template <dtype D>
auto* mutable_array_list(federated_language::Array& a) {
  using enum dtype;
  if constexpr (D == bool_) return a.mutable_bool_list()->mutable_value();
  else if constexpr (D == int8) return a.mutable_int8_list()->mutable_value();
  else if constexpr (D == int16) return a.mutable_int16_list()->mutable_value();
  else if constexpr (D == int32) return a.mutable_int32_list()->mutable_value();
  else if constexpr (D == int64) return a.mutable_int64_list()->mutable_value();
  else if constexpr (D == uint8) return a.mutable_uint8_list()->mutable_value();
  else if constexpr (D == uint16) return a.mutable_uint16_list()->mutable_value();
  else if constexpr (D == uint32) return a.mutable_uint32_list()->mutable_value();
  else if constexpr (D == uint64) return a.mutable_uint64_list()->mutable_value();
  else if constexpr (D == float16) return a.mutable_float16_list()->mutable_value();
  else if constexpr (D == bfloat16) return a.mutable_bfloat16_list()->mutable_value();
  else if constexpr (D == float32) return a.mutable_float32_list()->mutable_value();
  else if constexpr (D == float64) return a.mutable_float64_list()->mutable_value();
  else if constexpr (D == complex64) return a.mutable_complex64_list()->mutable_value();
  else if constexpr (D == complex128) return a.mutable_complex128_list()->mutable_value();
  else return a.mutable_string_list()->mutable_value();
}
// The oneof case that holds dtype D's list.
template <dtype D>
constexpr federated_language::Array::KindCase array_kind() {
  using K = federated_language::Array;
  using enum dtype;
  if constexpr (D == bool_) return K::kBoolList;
  else if constexpr (D == int8) return K::kInt8List;
  else if constexpr (D == int16) return K::kInt16List;
  else if constexpr (D == int32) return K::kInt32List;
  else if constexpr (D == int64) return K::kInt64List;
  else if constexpr (D == uint8) return K::kUint8List;
  else if constexpr (D == uint16) return K::kUint16List;
  else if constexpr (D == uint32) return K::kUint32List;
  else if constexpr (D == uint64) return K::kUint64List;
  else if constexpr (D == float16) return K::kFloat16List;
  else if constexpr (D == bfloat16) return K::kBfloat16List;
  else if constexpr (D == float32) return K::kFloat32List;
  else if constexpr (D == float64) return K::kFloat64List;
  else if constexpr (D == complex64) return K::kComplex64List;
  else if constexpr (D == complex128) return K::kComplex128List;
  else return K::kStringList;
}

// The bytes one element takes in Array.content (row-major, little-endian, as TFF's C++ writes).
template <dtype D>
constexpr std::size_t content_size() {
  return sizeof(typename stored_t<D>::value_type);
}

// A federated_language.Array as a tensor.
inline dynamic_value tensor_from_array(const federated_language::Array& a, const value_path& where) {
  static_assert(std::endian::native == std::endian::little, "ctff: Array.content is little-endian");
  if (!is_valid_dtype(static_cast<std::uint64_t>(a.dtype())))
    remote_fail(where, "Array.dtype " + std::to_string(static_cast<int>(a.dtype())) + " is not a dtype");
  if (a.shape().unknown_rank()) remote_fail(where, "an Array of unknown rank");
  std::vector<std::int64_t> shape(a.shape().dim().begin(), a.shape().dim().end());
  const std::size_t n = shape_elements(shape, where);
  return visit_dtype(static_cast<dtype>(a.dtype()), [&](auto d) -> dynamic_value {
    constexpr dtype D = decltype(d)::value;
    using E = typename stored_t<D>::value_type;
    stored_t<D> out;
    if (a.has_content()) {
      if constexpr (D == dtype::str) {
        remote_fail(where, "a string Array in raw content (strings travel in string_list)");
      } else {
        const std::string& c = a.content();
        if (c.size() != n * content_size<D>())
          remote_fail(where, "Array.content has " + std::to_string(c.size()) + " bytes; the shape needs " +
                                 std::to_string(n * content_size<D>()));
        out.resize(n);
        if (n != 0) std::memcpy(static_cast<void*>(out.data()), c.data(), c.size());
        if constexpr (D == dtype::bool_)
          for (E& b : out) b = b != 0;
      }
    } else {
      if (a.kind_case() != federated_language::Array::KIND_NOT_SET && a.kind_case() != array_kind<D>())
        remote_fail(where, "the Array's value list is not the one of its dtype " + std::string(dtype_name(D)));
      const auto& list = array_list<D>(a);
      constexpr std::size_t per = D == dtype::complex64 || D == dtype::complex128 ? 2 : 1;
      const auto got = static_cast<std::size_t>(list.size());
      if (got != n * per)
        remote_fail(where, "the Array holds " + std::to_string(got / per) + " values; its shape " +
                               shape_text(shape) + " needs " + std::to_string(n));
      out.reserve(n);
      for (std::size_t k = 0; k != n; ++k) {
        if constexpr (D == dtype::complex64 || D == dtype::complex128) {
          out.emplace_back(list[static_cast<int>(2 * k)], list[static_cast<int>(2 * k + 1)]);
        } else if constexpr (D == dtype::float16 || D == dtype::bfloat16) {
          const auto bits = list[static_cast<int>(k)];
          if (bits < 0 || bits > 0xffff) remote_fail(where, "a 16-bit float's bits out of range");
          out.push_back(E{static_cast<std::uint16_t>(bits)});
        } else if constexpr (D == dtype::str) {
          out.push_back(list[static_cast<int>(k)]);
        } else if constexpr (D == dtype::bool_) {
          out.push_back(list[static_cast<int>(k)] ? 1 : 0);
        } else if constexpr (std::is_floating_point_v<E>) {
          out.push_back(list[static_cast<int>(k)]);  // no range check: NaN != NaN
        } else {
          const auto x = list[static_cast<int>(k)];
          if (static_cast<decltype(x)>(static_cast<E>(x)) != x)
            remote_fail(where, "the value " + std::to_string(x) + " is out of range of " + std::string(dtype_name(D)));
          out.push_back(static_cast<E>(x));
        }
      }
    }
    return make_tensor<D>(std::move(out), std::move(shape));
  });
}

// A tensor as a federated_language.Array, as TFF's C++ writes it: a scalar or strings in the typed
// list of its dtype, any other tensor as raw row-major `content` (one copy, no per-element work;
// TFF's Python and C++ read both).
inline void array_of_tensor(const tensor_data& t, federated_language::Array& a) {
  a.set_dtype(static_cast<federated_language::DataType>(t.dt));
  auto* shape = a.mutable_shape();
  for (std::int64_t d : t.shape) shape->add_dim(d);
  visit_dtype(t.dt, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    const auto& v = t.get<D>();
    if constexpr (D != dtype::str) {
      if (!t.shape.empty()) {
        a.set_content(std::string(reinterpret_cast<const char*>(v.data()), v.size() * content_size<D>()));
        return;
      }
    }
    auto* list = mutable_array_list<D>(a);
    if constexpr (D == dtype::complex64 || D == dtype::complex128) {
      list->Reserve(static_cast<int>(2 * v.size()));
      for (const auto& x : v) list->Add(x.real()), list->Add(x.imag());
    } else if constexpr (D == dtype::str) {
      for (const auto& x : v) *list->Add() = x;
    } else {
      list->Reserve(static_cast<int>(v.size()));
      for (const auto& x : v) {
        if constexpr (D == dtype::float16 || D == dtype::bfloat16) list->Add(x.bits);
        else list->Add(x);
      }
    }
  });
}

}  // namespace ctff::detail
