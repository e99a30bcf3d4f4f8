// Executor values as C++ values, for a static TFF type (run/convert.hpp): `detail::from_value`,
// which checks the value is of that type.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <ranges>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/accepts.hpp"
#include "ctff/run/convert_parts.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

[[noreturn]] inline void result_mismatch(const std::string& path, const std::string& what) {
  throw execution_error(path, "the result does not convert: " + what);
}

template <class U, class T>
U from_value(const dynamic_value& v, const std::string& path);
template <class U, class T>
void from_value_into(const dynamic_value& v, U& out, const std::string& path);

template <class U>
concept growable = requires(U u, typename U::value_type e) { u.push_back(std::move(e)); };

// out = the elements [offset, offset + count of T) of a tensor; `out` is default-constructed.
template <class U, class T>
void tensor_into(const tensor_data& t, std::size_t& offset, std::size_t depth, const std::string& path, U& out) {
  using P = tensor_parts<T>;
  if constexpr (P::rank == 0) {
    const auto& s = t.get<P::dt>();
    if (offset >= s.size()) result_mismatch(path, "too few elements");
    if constexpr (P::dt == dtype::str) out = U(s[offset++]);
    else out = static_cast<U>(s[offset++]);
  } else {
    if (depth >= t.shape.size()) result_mismatch(path, "rank lower than the type's");
    const auto dim = static_cast<std::size_t>(t.shape[depth]);
    if constexpr (block_copy_v<T, U>) {  // copied once, where it goes
      std::vector<std::int64_t> dims;
      using S = typename stored_t<P::dt>::value_type;
      array_dims<U, S>(dims);
      if (t.shape.size() != depth + dims.size() ||
          !std::equal(dims.begin(), dims.end(), t.shape.begin() + static_cast<std::ptrdiff_t>(depth)))
        result_mismatch(path, "the tensor's shape does not fit the array");
      const auto& s = t.get<P::dt>();
      if (offset + sizeof(U) / sizeof(S) > s.size()) result_mismatch(path, "too few elements");
      std::memcpy(out.data(), s.data() + offset, sizeof(U));
      offset += sizeof(U) / sizeof(S);
    } else if constexpr (is_array_v<U>) {
      if (dim != std::tuple_size_v<U>)
        result_mismatch(path, "dimension " + std::to_string(dim) + ", the array holds " +
                                  std::to_string(std::tuple_size_v<U>));
      for (std::size_t k = 0; k != dim; ++k)
        tensor_into<typename U::value_type, typename tensor_tail<T>::type>(t, offset, depth + 1, path, out[k]);
    } else {
      static_assert(growable<U>, "ctff: run: a result tensor converts to std::array or a container with push_back");
      for (std::size_t k = 0; k != dim; ++k) {
        typename U::value_type e{};
        tensor_into<typename U::value_type, typename tensor_tail<T>::type>(t, offset, depth + 1, path, e);
        out.push_back(std::move(e));
      }
    }
  }
}

// The elements of v, a struct of T's size.
template <class T>
const std::vector<dynamic_value>& struct_elements(const dynamic_value& v, const std::string& path) {
  if (!v.is(value_kind::struct_) || v.structure().elements.size() != struct_parts<T>::size)
    result_mismatch(path, "not a struct of " + std::to_string(struct_parts<T>::size) + " elements");
  return v.structure().elements;
}

// The elements of a struct value, each checked against T's and converted where it goes.
template <class U, class T, std::size_t... I>
void struct_into(const dynamic_value& v, U& out, const std::string& path, std::index_sequence<I...>) {
  using S = struct_parts<T>;
  const auto& e = struct_elements<T>(v, path);
  if constexpr (tuple_like<U>)
    (from_value_into<std::tuple_element_t<I, U>, typename S::template type<I>>(e[I], std::get<I>(out),
                                                                              element_path<T>(path, I)),
     ...);
  else
    (from_value_into<pfr_elem_t<U, I>, typename S::template type<I>>(e[I], member_ref<I>(out), element_path<T>(path, I)),
     ...);
}

template <class U, class T>
void from_value_into(const dynamic_value& v, U& out, const std::string& path) {
  if constexpr (std::is_same_v<U, dynamic_value>) {
    out = v;
  } else if constexpr (is_tensor_v<T>) {
    if (!v.is(value_kind::tensor) || v.tensor().dt != tensor_parts<T>::dt)
      result_mismatch(path, std::string("not a ") + std::string(dtype_name(tensor_parts<T>::dt)) + " tensor");
    if (v.tensor().shape.size() != tensor_parts<T>::rank) result_mismatch(path, "another rank");
    std::size_t offset = 0;
    tensor_into<U, T>(v.tensor(), offset, 0, path, out);
  } else if constexpr (is_struct_v<T> && std::is_default_constructible_v<U>) {
    struct_into<U, T>(v, out, path, std::make_index_sequence<struct_parts<T>::size>{});
  } else {
    out = from_value<U, T>(v, path);
  }
}

template <class U, class T>
U from_value(const dynamic_value& v, const std::string& path) {
  if constexpr (std::is_same_v<U, dynamic_value>) {
    return v;
  } else if constexpr (is_federated_v<T>) {
    using F = federated_parts<T>;
    if (!v.is(value_kind::federated)) result_mismatch(path, "not a federated value");
    const federated_data& f = v.federated();
    if constexpr (F::listed) {
      static_assert(growable<U>, "ctff: run: a {T}@CLIENTS result converts to a container with push_back");
      U out{};
      for (std::size_t i = 0; i != f.members.size(); ++i)
        out.push_back(from_value<typename U::value_type, typename F::member>(
            f.members[i], path + "[" + std::to_string(i) + "]"));
      return out;
    } else {
      if (f.members.size() != 1) result_mismatch(path, "not one member");
      return from_value<U, typename F::member>(f.members.front(), path);
    }
  } else if constexpr (is_sequence_v<T>) {
    static_assert(growable<U>, "ctff: run: a sequence result converts to a container with push_back");
    if (!v.is(value_kind::sequence)) result_mismatch(path, "not a sequence");
    U out{};
    std::size_t k = 0;
    for (const dynamic_value& e : v.sequence().elements)
      out.push_back(from_value<typename U::value_type, typename sequence_parts<T>::element>(
          e, path + "[" + std::to_string(k++) + "]"));
    return out;
  } else if constexpr (is_struct_v<T> && !std::is_default_constructible_v<U>) {
    // A tuple of elements with no default: made from its converted elements.
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      const auto& e = struct_elements<T>(v, path);
      return U(from_value<std::tuple_element_t<I, U>, typename struct_parts<T>::template type<I>>(
          e[I], element_path<T>(path, I))...);
    }(std::make_index_sequence<struct_parts<T>::size>{});
  } else if constexpr (std::is_trivially_default_constructible_v<U>) {
    U out;  // not zeroed first: from_value_into writes every element (a model's arrays)
    from_value_into<U, T>(v, out, path);
    return out;
  } else {
    U out{};
    from_value_into<U, T>(v, out, path);
    return out;
  }
}

}  // namespace ctff::detail
