// C++ values as executor values, for a static TFF type (run/convert.hpp): `detail::to_value`,
// with its checks of a tensor's shape.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <ranges>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/accepts.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/convert_parts.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// Appends a tensor's elements (row-major) and checks the shape is rectangular.
template <class T, class U>
void flatten(const U& x, stored_t<tensor_parts<T>::dt>& out, std::vector<std::int64_t>& shape,
             std::size_t depth, const std::string& path) {
  using P = tensor_parts<T>;
  if constexpr (P::rank == 0) {
    using S = typename stored_t<P::dt>::value_type;
    if constexpr (P::dt == dtype::str) out.emplace_back(std::string_view(x));
    else out.push_back(static_cast<S>(x));
  } else if constexpr (block_copy_v<T, U>) {
    std::vector<std::int64_t> dims;
    array_dims<U, typename stored_t<P::dt>::value_type>(dims);
    for (std::size_t l = 0; l != dims.size(); ++l) {
      if (tensor_parts<T>::dims[l] != unknown_dim && tensor_parts<T>::dims[l] != dims[l])
        throw argument_error(path, "dimension " + std::to_string(dims[l]) + ", the type says " +
                                       std::to_string(tensor_parts<T>::dims[l]));
      if (shape.size() == depth + l) shape.push_back(dims[l]);
      else if (shape[depth + l] != dims[l])
        throw argument_error(path, "a ragged tensor: " + std::to_string(dims[l]) + " elements where " +
                                       std::to_string(shape[depth + l]) + " were before");
    }
    using S = typename stored_t<P::dt>::value_type;
    const std::size_t at = out.size();
    out.resize(at + sizeof(U) / sizeof(S));
    std::memcpy(out.data() + at, x.data(), sizeof(U));
  } else {
    const auto size = static_cast<std::int64_t>(std::ranges::size(x));
    if (shape.size() == depth) shape.push_back(size);
    else if (shape[depth] != size)
      throw argument_error(path, "a ragged tensor: " + std::to_string(size) + " elements where " +
                                     std::to_string(shape[depth]) + " were before");
    if (P::dims[0] != unknown_dim && P::dims[0] != size)
      throw argument_error(path, "dimension " + std::to_string(size) + ", the type says " +
                                     std::to_string(P::dims[0]));
    std::size_t k = 0;
    for (const auto& e : x)
      flatten<typename tensor_tail<T>::type>(e, out, shape, depth + 1,
                                             path + "[" + std::to_string(k++) + "]");
  }
}

template <class T, class U>
dynamic_value to_value(const U& x, const std::string& path);

// Whether a list of U for {T}@CLIENTS is held as one column (run/client_column.hpp): numeric
// tensors whose every element converts without a shape to check (scalars, nested std::arrays).
template <class T, class U>
inline constexpr bool column_members_v = [] {
  if constexpr (!is_tensor_v<T>) {
    return false;
  } else {
    return tensor_parts<T>::dt != dtype::str && (tensor_parts<T>::rank == 0 || block_copy_v<T, U>);
  }
}();

// The clients' tensors x as one column (none: no clients, or a member that needs its own path in
// an error, which the member-by-member conversion then reports).
template <class T, class U>
std::optional<dynamic_value> to_column(const U& x) {
  constexpr dtype D = tensor_parts<T>::dt;
  const std::size_t n = std::ranges::size(x);
  if (n == 0) return std::nullopt;
  stored_t<D> out;
  std::vector<std::int64_t> shape{static_cast<std::int64_t>(n)};
  using S = typename stored_t<D>::value_type;
  if constexpr (tensor_parts<T>::rank == 0) {  // a scalar per client: one converting copy
    out.resize(n);
    std::size_t i = 0;
    for (const auto& e : x) out[i++] = static_cast<S>(e);
  } else {
    out.reserve(n * sizeof(std::ranges::range_value_t<U>) / sizeof(S));
    try {
      for (const auto& e : x) flatten<T>(e, out, shape, 1, std::string());
    } catch (const argument_error&) {
      return std::nullopt;
    }
  }
  return make_column_value(tensor_data{D, std::move(shape), tensor_elements(std::move(out))});
}

template <class T, class U, std::size_t... I>
dynamic_value struct_to_value(const U& x, const std::string& path, std::index_sequence<I...>) {
  using S = struct_parts<T>;
  std::vector<dynamic_value> e;
  if constexpr (tuple_like<U>) {
    (e.push_back(to_value<typename S::template type<I>>(std::get<I>(x), element_path<T>(path, I))), ...);
  } else {
    (e.push_back(to_value<typename S::template type<I>>(member_ref<I>(x), element_path<T>(path, I))), ...);
  }
  std::vector<std::string> names;
  if (((!S::names[I].empty()) || ...)) names = {std::string(S::names[I])...};
  return make_struct_value(std::move(e), std::move(names));
}

template <class T, class U>
dynamic_value to_value(const U& x, const std::string& path) {
  if constexpr (std::is_same_v<U, dynamic_value>) {
    return x;
  } else if constexpr (is_federated_v<T>) {
    using F = federated_parts<T>;
    if constexpr (F::listed) {
      if constexpr (column_members_v<typename F::member, std::ranges::range_value_t<U>>) {
        if (std::optional<dynamic_value> c = to_column<typename F::member>(x)) return std::move(*c);
      }
      std::vector<dynamic_value> m;
      m.reserve(std::ranges::size(x));
      for (const auto& e : x)
        m.push_back(to_value<typename F::member>(e, path + "[" + std::to_string(m.size()) + "]"));
      return make_federated(F::where, false, std::move(m));
    } else {
      return make_federated(F::where, true, {to_value<typename F::member>(x, path)});
    }
  } else if constexpr (is_tensor_v<T>) {
    constexpr dtype D = tensor_parts<T>::dt;
    stored_t<D> out;
    std::vector<std::int64_t> shape;
    flatten<T>(x, out, shape, 0, path);
    // Empty: the dimensions below the empty one are the type's where it has them (float32[?,2]
    // from an empty vector of arrays is [0,2]), else 0.
    for (std::size_t k = shape.size(); k < tensor_parts<T>::rank; ++k)
      shape.push_back(tensor_parts<T>::dims[k] == unknown_dim ? 0 : tensor_parts<T>::dims[k]);
    return make_tensor<D>(std::move(out), std::move(shape));
  } else if constexpr (is_struct_v<T>) {
    return struct_to_value<T>(x, path, std::make_index_sequence<struct_parts<T>::size>{});
  } else {
    static_assert(is_sequence_v<T>);
    std::vector<dynamic_value> e;
    for (const auto& y : x)
      e.push_back(to_value<typename sequence_parts<T>::element>(y, path + "[" + std::to_string(e.size()) + "]"));
    return make_sequence(std::move(e));
  }
}

}  // namespace ctff::detail
