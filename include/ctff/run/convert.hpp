// C++ values as executor values and back, for a static TFF type T, checked at compile time:
//   tensor      a scalar of T's dtype (ctff's mapping: float -> float32, std::string -> str, ...);
//               rank >= 1: std::array<E, N> (N the dimension) or any sized range (any dimension,
//               `?` included) of what the remaining dimensions take; unknown rank: ctff::value
//   struct      std::tuple / std::pair, or an aggregate (Boost.PFR), element by element; an
//               aggregate's member names must be T's names where T has them
//   sequence    a range of what the element takes
//   {M}@CLIENTS a range with one member per client (results: a container with push_back)
//   M@SERVER, M@CLIENTS all_equal: what M takes
//   any T       ctff::value itself (checked at run time instead)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <iterator>
#include <ranges>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/reflect/reflect.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff {
namespace detail {

template <class T> struct tensor_parts;
template <dtype D, std::int64_t... N> struct tensor_parts<tensor<D, N...>> {
  static constexpr dtype dt = D;
  static constexpr std::size_t rank = sizeof...(N);
  static constexpr std::array<std::int64_t, sizeof...(N) + 1> dims{N..., 0};
  static constexpr bool unknown_rank = sizeof...(N) == 1 && ((N == ctff::unknown_rank) && ...);
};
// The tensor type without its first dimension.
template <class T> struct tensor_tail;
template <dtype D, std::int64_t N0, std::int64_t... N> struct tensor_tail<tensor<D, N0, N...>> {
  using type = tensor<D, N...>;
};

template <class T> struct struct_parts;
template <class... E> struct struct_parts<struct_t<E...>> {
  static constexpr std::size_t size = sizeof...(E);
  template <std::size_t I> using type = typename elem<std::tuple_element_t<I, std::tuple<E...>>>::type;
  static constexpr std::array<std::string_view, sizeof...(E) + 1> names{elem<E>::name...,
                                                                       std::string_view{}};
};
template <class T> struct federated_parts;
template <class M, placement_kind P, bool A> struct federated_parts<federated_t<M, P, A>> {
  using member = M;
  static constexpr bool listed = P == placement_kind::clients && !A;
  static constexpr placement_kind where = P;
};
template <class T> struct sequence_parts;
template <class E> struct sequence_parts<sequence_t<E>> { using element = E; };

template <class U> inline constexpr bool is_string_like_v =
    std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view> ||
    std::is_same_v<U, const char*>;
template <class U> inline constexpr bool is_array_v = false;
template <class E, std::size_t N> inline constexpr bool is_array_v<std::array<E, N>> = true;
template <class U>
concept value_range = std::ranges::sized_range<const U> && !is_string_like_v<U>;
template <class U>
concept tuple_like = !is_array_v<U> && requires { std::tuple_size<U>::value; };
template <class U> using range_elem_t = std::ranges::range_value_t<const U>;

// An aggregate member's type (reflect/aggregate.hpp: counted without Boost.PFR's count).
template <class U, std::size_t I> using pfr_elem_t = member_type_t<U, I>;

// Whether the C++ type U converts to the TFF type T (and back).
template <class T, class U>
consteval bool accepts();

template <class T, class U, std::size_t... I>
consteval bool accepts_tuple(std::index_sequence<I...>) {
  return (accepts<typename struct_parts<T>::template type<I>, std::tuple_element_t<I, U>>() && ...);
}
template <class T, class U, std::size_t... I>
consteval bool accepts_aggregate(std::index_sequence<I...>) {
  if constexpr (!(accepts<typename struct_parts<T>::template type<I>, pfr_elem_t<U, I>>() && ...)) {
    return false;
  } else {
    using S = tff_t<U>;  // the aggregate's names
    for (std::size_t i = 0; i != sizeof...(I); ++i)
      if (!struct_parts<T>::names[i].empty() && struct_parts<T>::names[i] != struct_parts<S>::names[i])
        return false;
    return true;
  }
}

template <class T, class U>
consteval bool accepts() {
  if constexpr (std::is_same_v<U, dynamic_value>) {
    return true;
  } else if constexpr (is_federated_v<T>) {
    using F = federated_parts<T>;
    if constexpr (F::listed) {
      if constexpr (value_range<U>) return accepts<typename F::member, range_elem_t<U>>();
      else return false;
    } else {
      return accepts<typename F::member, U>();
    }
  } else if constexpr (is_tensor_v<T>) {
    using P = tensor_parts<T>;
    if constexpr (P::unknown_rank) {
      return false;
    } else if constexpr (P::rank == 0) {
      if constexpr (P::dt == dtype::float16) return std::is_same_v<U, half_bits>;
      else if constexpr (P::dt == dtype::bfloat16) return std::is_same_v<U, bfloat16_bits>;
      else if constexpr (scalar<U>) return dtype_of<U>() == P::dt;
      else return false;
    } else if constexpr (is_array_v<U>) {
      return (P::dims[0] == unknown_dim || P::dims[0] == static_cast<std::int64_t>(std::tuple_size_v<U>)) &&
             accepts<typename tensor_tail<T>::type, typename U::value_type>();
    } else if constexpr (value_range<U>) {
      return accepts<typename tensor_tail<T>::type, range_elem_t<U>>();
    } else {
      return false;
    }
  } else if constexpr (is_struct_v<T>) {
    constexpr std::size_t n = struct_parts<T>::size;
    if constexpr (tuple_like<U>) {
      if constexpr (std::tuple_size_v<U> != n) return false;
      else return accepts_tuple<T, U>(std::make_index_sequence<n>{});
    } else if constexpr (plain_aggregate<U>) {
      if constexpr (slot_count<U> != n) return false;
      else return accepts_aggregate<T, U>(std::make_index_sequence<n>{});
    } else {
      return false;
    }
  } else if constexpr (is_sequence_v<T>) {
    if constexpr (value_range<U>) return accepts<typename sequence_parts<T>::element, range_elem_t<U>>();
    else return false;
  } else {
    return false;
  }
}

// Nested std::arrays of S with no padding: their elements can be copied as one block.
template <class U, class S>
consteval bool flat_array_of() {
  if constexpr (std::is_same_v<U, S>) return true;
  else if constexpr (is_array_v<U>)
    return sizeof(U) == std::tuple_size_v<U> * sizeof(typename U::value_type) &&
           flat_array_of<typename U::value_type, S>();
  else return false;
}
template <class U, class S>
void array_dims(std::vector<std::int64_t>& out) {
  if constexpr (!std::is_same_v<U, S>) {
    out.push_back(static_cast<std::int64_t>(std::tuple_size_v<U>));
    array_dims<typename U::value_type, S>(out);
  }
}
template <class T, class U>
inline constexpr bool block_copy_v = [] {
  constexpr dtype D = tensor_parts<T>::dt;
  if constexpr (D == dtype::str || D == dtype::bool_ || D == dtype::float16 || D == dtype::bfloat16) {
    return false;
  } else {
    return is_array_v<U> && flat_array_of<U, typename stored_t<D>::value_type>();
  }
}();

// ---- C++ -> value ---------------------------------------------------------------------------

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

template <class T, class U, std::size_t... I>
dynamic_value struct_to_value(const U& x, const std::string& path, std::index_sequence<I...>) {
  using S = struct_parts<T>;
  std::vector<dynamic_value> e;
  auto at = [&](std::size_t i) {
    return S::names[i].empty() ? path + "[" + std::to_string(i) + "]"
                               : path + "." + std::string(S::names[i]);
  };
  if constexpr (tuple_like<U>) {
    (e.push_back(to_value<typename S::template type<I>>(std::get<I>(x), at(I))), ...);
  } else {
    (e.push_back(to_value<typename S::template type<I>>(member_ref<I>(x), at(I))), ...);
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
    if (shape.size() < tensor_parts<T>::rank) shape.resize(tensor_parts<T>::rank, 0);  // empty
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

// ---- value -> C++ ---------------------------------------------------------------------------

[[noreturn]] inline void result_mismatch(const std::string& path, const std::string& what) {
  throw execution_error(path, "the result does not convert: " + what);
}

template <class U, class T>
U from_value(const dynamic_value& v, const std::string& path);

template <class U>
concept growable = requires(U u, typename U::value_type e) { u.push_back(std::move(e)); };

// The elements [offset, offset + count of T) of a tensor as U.
template <class U, class T>
U from_tensor(const tensor_data& t, std::size_t& offset, std::size_t depth, const std::string& path) {
  using P = tensor_parts<T>;
  if constexpr (P::rank == 0) {
    const auto& s = t.get<P::dt>();
    if (offset >= s.size()) result_mismatch(path, "too few elements");
    if constexpr (P::dt == dtype::str) return U(s[offset++]);
    else return static_cast<U>(s[offset++]);
  } else {
    if (depth >= t.shape.size()) result_mismatch(path, "rank lower than the type's");
    const auto dim = static_cast<std::size_t>(t.shape[depth]);
    U out{};
    if constexpr (block_copy_v<T, U>) {
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
      return out;
    }
    if constexpr (is_array_v<U>) {
      if (dim != std::tuple_size_v<U>)
        result_mismatch(path, "dimension " + std::to_string(dim) + ", the array holds " +
                                  std::to_string(std::tuple_size_v<U>));
      for (std::size_t k = 0; k != dim; ++k)
        out[k] = from_tensor<typename U::value_type, typename tensor_tail<T>::type>(t, offset, depth + 1, path);
    } else {
      static_assert(growable<U>, "ctff: run: a result tensor converts to std::array or a container with push_back");
      for (std::size_t k = 0; k != dim; ++k)
        out.push_back(from_tensor<typename U::value_type, typename tensor_tail<T>::type>(t, offset, depth + 1, path));
    }
    return out;
  }
}

template <class U, class T, std::size_t... I>
U struct_from_value(const dynamic_value& v, const std::string& path, std::index_sequence<I...>) {
  using S = struct_parts<T>;
  if (!v.is(value_kind::struct_) || v.structure().elements.size() != S::size)
    result_mismatch(path, "not a struct of " + std::to_string(S::size) + " elements");
  const auto& e = v.structure().elements;
  if constexpr (tuple_like<U>) {
    return U(from_value<std::tuple_element_t<I, U>, typename S::template type<I>>(
        e[I], path + "[" + std::to_string(I) + "]")...);
  } else {
    U out{};
    ((member_ref<I>(out) = from_value<pfr_elem_t<U, I>, typename S::template type<I>>(
          e[I], path + "[" + std::to_string(I) + "]")),
     ...);
    return out;
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
  } else if constexpr (is_tensor_v<T>) {
    if (!v.is(value_kind::tensor) || v.tensor().dt != tensor_parts<T>::dt)
      result_mismatch(path, std::string("not a ") + std::string(dtype_name(tensor_parts<T>::dt)) + " tensor");
    if (v.tensor().shape.size() != tensor_parts<T>::rank) result_mismatch(path, "another rank");
    std::size_t offset = 0;
    return from_tensor<U, T>(v.tensor(), offset, 0, path);
  } else if constexpr (is_struct_v<T>) {
    return struct_from_value<U, T>(v, path, std::make_index_sequence<struct_parts<T>::size>{});
  } else {
    static_assert(is_sequence_v<T>);
    static_assert(growable<U>, "ctff: run: a sequence result converts to a container with push_back");
    if (!v.is(value_kind::sequence)) result_mismatch(path, "not a sequence");
    U out{};
    std::size_t k = 0;
    for (const dynamic_value& e : v.sequence().elements)
      out.push_back(from_value<typename U::value_type, typename sequence_parts<T>::element>(
          e, path + "[" + std::to_string(k++) + "]"));
    return out;
  }
}

}  // namespace detail

// Whether the C++ type U converts to and from the static TFF type T (see the top of this file).
template <class T, class U>
inline constexpr bool converts_v = detail::accepts<T, std::remove_cvref_t<U>>();

// x as a value of the static TFF type T. Throws argument_error for a ragged tensor or a
// dimension the type does not allow; `path` names x in messages.
template <tff_type T, class U>
  requires converts_v<T, U>
dynamic_value to_value(const U& x, const std::string& path = "arg") {
  return detail::to_value<T>(x, path);
}

// v (of the static TFF type T) as U. Throws execution_error when v is not of type T.
template <class U, tff_type T>
  requires converts_v<T, U>
U from_value(const dynamic_value& v, const std::string& path = "result") {
  return detail::from_value<U, T>(v, path);
}

}  // namespace ctff
