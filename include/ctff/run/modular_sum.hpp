// federated_secure_modular_sum, TFF's backend intrinsic (tensorflow_federated's
// backends/mapreduce/intrinsics.py): SUM(value) % modulus at the server, leaf by leaf. Each
// client's integer is first reduced into [0, M) (a floor modulo, tf.math.floormod, as TFF's
// create_federated_secure_modular_sum does before its call), then added modulo M in client order,
// so no sum overflows. The modulus is one integer scalar for every leaf, or a struct of them leaf
// by leaf; each must lie in [1, the largest value of its leaf's dtype].
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// x mod m in [0, m) (m >= 1), rounding the quotient down as tf.math.floormod does.
template <class E>
std::uint64_t floor_mod(E x, std::uint64_t m) {
  if constexpr (std::is_signed_v<E>) {
    if (x < 0) {
      const std::uint64_t r = (std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<std::int64_t>(x))) % m;
      return r == 0 ? 0 : m - r;
    }
  }
  return static_cast<std::uint64_t>(x) % m;
}
// (a + b) mod m for a, b in [0, m), without overflow.
inline std::uint64_t add_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return a >= m - b ? a - (m - b) : a + b;
}

// The modulus of each leaf of `shape` (a value of the summed type), in leaf order.
inline void modulus_leaves(const dynamic_value& shape, const dynamic_value& modulus, const char* what,
                           std::vector<std::uint64_t>& out) {
  if (shape.is(value_kind::struct_)) {
    const auto& e = shape.structure().elements;
    for (std::size_t k = 0; k != e.size(); ++k)
      modulus_leaves(e[k], modulus.is(value_kind::struct_) ? element(modulus, k, what) : modulus, what, out);
    return;
  }
  const dtype leaf = tensor_of(shape, what).dt;
  const tensor_data& m = tensor_of(modulus, what);
  const std::string op(what);
  if (!is_integer(leaf))
    throw run_fault(op + ": a modular sum of " + std::string(dtype_name(leaf)) + " members (integers only)");
  if (!is_integer(m.dt) || m.size() != 1) throw run_fault(op + ": the modulus is not an integer scalar");
  std::uint64_t largest = 0;
  visit_dtype(leaf, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    if constexpr (is_integer(D)) largest = static_cast<std::uint64_t>(std::numeric_limits<element_t<D>>::max());
  });
  visit_dtype(m.dt, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    if constexpr (is_integer(D)) {
      const auto x = m.get<D>()[0];
      if (x < 1 || static_cast<std::uint64_t>(x) > largest)
        throw run_fault(op + ": the modulus " + element_text(m, 0) + " lies outside [1, " + std::to_string(largest) +
                        "] (the " + std::string(dtype_name(leaf)) + " values' range)");
      out.push_back(static_cast<std::uint64_t>(x));
    }
  });
}

// acc = (acc + floor_mod(x, m)) mod m, element by element (acc in [0, m)).
inline void add_mod_leaf(tensor_data& acc, const tensor_data& x, std::uint64_t m, const char* what) {
  if (x.dt != acc.dt || x.shape != acc.shape)
    throw run_fault(std::string(what) + ": a client's value of another dtype or shape than the sum's");
  visit_dtype(acc.dt, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    if constexpr (is_integer(D)) {
      auto& a = acc.get<D>();
      const auto& y = x.get<D>();
      for (std::size_t k = 0; k != a.size(); ++k)
        a[k] = static_cast<element_t<D>>(add_mod(static_cast<std::uint64_t>(a[k]), floor_mod(y[k], m), m));
    }
  });
}

// The modular sum of v's n members, each of type `member_type`, by `modulus`.
inline dynamic_value modular_sum(const federated_data& v, std::size_t n, const dynamic_value& modulus,
                                 typed member_type, const char* what) {
  const dynamic_value zero = zero_of(member_type, n);
  std::vector<std::uint64_t> moduli;
  modulus_leaves(zero, modulus, what, moduli);
  leaf_accumulator acc(zero);
  for (std::size_t i = 0; i != n; ++i) {
    std::size_t k = 0;
    acc.update(member(v, i), [&](tensor_data& a, const tensor_data& x) { add_mod_leaf(a, x, moduli[k++], what); });
  }
  return acc.result();
}

}  // namespace ctff::detail
