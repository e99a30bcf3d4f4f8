// C++ constants as Literal nodes: scalars keep their dtype, std::arrays their shape.
#pragma once

#include <array>
#include <bit>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "ctff/reflect/scalar.hpp"
#include "ctff/trace/context.hpp"

namespace ctff::detail {

template <class X> struct literal_traits {
  static constexpr bool ok = scalar<X>;
  using elem = X;
};
template <class X, std::size_t N> struct literal_traits<std::array<X, N>> {
  static constexpr bool ok = literal_traits<X>::ok;
  using elem = typename literal_traits<X>::elem;
};
template <class X> inline constexpr bool is_constant_v = literal_traits<X>::ok;
// String literals arrive as char arrays.
template <std::size_t N> struct literal_traits<char[N]> {
  static constexpr bool ok = true;
  using elem = std::string_view;
};

template <class E>
constexpr void push_scalar(trace_ctx& c, const E& v) {
  if constexpr (std::is_same_v<E, bool>) {
    c.vals.push_back(v ? 1 : 0);
  } else if constexpr (std::is_integral_v<E>) {
    c.vals.push_back(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  } else if constexpr (std::is_same_v<E, float>) {
    c.vals.push_back(std::bit_cast<std::uint32_t>(v));
  } else if constexpr (std::is_same_v<E, double>) {
    c.vals.push_back(std::bit_cast<std::uint64_t>(v));
  } else if constexpr (std::is_same_v<E, std::complex<float>>) {
    c.vals.push_back(std::bit_cast<std::uint32_t>(v.real()));
    c.vals.push_back(std::bit_cast<std::uint32_t>(v.imag()));
  } else if constexpr (std::is_same_v<E, std::complex<double>>) {
    c.vals.push_back(std::bit_cast<std::uint64_t>(v.real()));
    c.vals.push_back(std::bit_cast<std::uint64_t>(v.imag()));
  } else {
    std::string_view s(v);
    c.vals.push_back(c.add_chars(s));
    c.vals.push_back(s.size());
  }
}

template <class X>
constexpr void push_values(trace_ctx& c, const X& x) {
  if constexpr (requires { std::tuple_size<X>::value; x[0]; }) {
    for (const auto& e : x) push_values(c, e);
  } else {
    push_scalar(c, x);
  }
}

template <class X>
constexpr void push_dims(trace_ctx& c) {
  if constexpr (requires { std::tuple_size<X>::value; }) {
    c.dims.push_back(static_cast<std::int64_t>(std::tuple_size<X>::value));
    push_dims<typename X::value_type>(c);
  }
}

template <class X>
constexpr std::uint32_t literal_node(trace_ctx& c, const X& x) {
  using E = typename literal_traits<X>::elem;
  lit l{.dt = dtype_of<E>(), .dim_begin = static_cast<std::uint32_t>(c.dims.size())};
  push_dims<X>(c);
  l.dim_count = static_cast<std::uint32_t>(c.dims.size()) - l.dim_begin;
  l.val_begin = static_cast<std::uint32_t>(c.vals.size());
  if constexpr (std::is_array_v<X>) {
    push_scalar(c, std::string_view(x));
  } else {
    push_values(c, x);
  }
  l.val_count = static_cast<std::uint32_t>(c.vals.size()) - l.val_begin;
  c.lits.push_back(l);
  const node n{.kind = node_kind::literal, .a = static_cast<std::uint32_t>(c.lits.size() - 1)};
  if constexpr (std::is_array_v<X>) {
    // Dependent on X: a non-dependent type here would be described when the header is read.
    return c.add_typed<std::conditional_t<sizeof(X) != 0, tensor<dtype::str>, X>>(n);
  } else {
    return c.add_typed<tff_t<X>>(n);
  }
}

}  // namespace ctff::detail
