// The element work of the federated aggregations besides plus and multiply (run/arith.hpp):
// identities (zeros; the extremes federated_min/max start from), pointwise min and max, and the
// secure sums' bound check.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/arith.hpp"
#include "ctff/run/budget.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/numeric.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Zeros of dtype d and a fully known shape.
inline tensor_data zero_tensor(dtype d, std::vector<std::int64_t> shape) {
  const auto n = static_cast<std::size_t>(element_count(shape));
  charge_elements(n, 16);
  return visit_dtype(d, [&](auto t) -> tensor_data {
    constexpr dtype D = decltype(t)::value;
    return tensor_data{D, std::move(shape), tensor_elements(stored_t<D>(n))};
  });
}

// The identity of federated_min (largest finite value) or federated_max (lowest finite value).
inline tensor_data extreme_tensor(dtype d, std::vector<std::int64_t> shape, bool largest) {
  const auto n = static_cast<std::size_t>(element_count(shape));
  charge_elements(n, 16);
  return visit_dtype(d, [&](auto t) -> tensor_data {
    constexpr dtype D = decltype(t)::value;
    if constexpr (D == dtype::str || D == dtype::bool_ || is_complex(D)) {
      throw run_fault(std::string("federated_min/max of ") + std::string(dtype_name(D)));
    } else {
      using C = compute_t<D>;
      C x;
      if constexpr (D == dtype::float16) x = largest ? 65504.0f : -65504.0f;
      else if constexpr (D == dtype::bfloat16) x = bfloat16_to_float(largest ? 0x7f7f : 0xff7f);
      else x = largest ? std::numeric_limits<C>::max() : std::numeric_limits<C>::lowest();
      return tensor_data{D, std::move(shape),
                          tensor_elements(stored_t<D>(n, numeric<D>::store(x)))};
    }
  });
}

// Pointwise min (or max) of two tensors of one dtype and shape; NaN propagates.
inline tensor_data extreme_of(const tensor_data& a, const tensor_data& b, bool min) {
  if (a.dt != b.dt || a.shape != b.shape)
    throw run_fault("federated_min/max of members of different shapes");
  return visit_dtype(a.dt, [&](auto t) -> tensor_data {
    constexpr dtype D = decltype(t)::value;
    if constexpr (D == dtype::str || D == dtype::bool_ || is_complex(D)) {
      throw run_fault(std::string("federated_min/max of ") + std::string(dtype_name(D)));
    } else {
      using N = numeric<D>;
      const auto& x = a.get<D>();
      const auto& y = b.get<D>();
      stored_t<D> out;
      out.reserve(x.size());
      for (std::size_t i = 0; i != x.size(); ++i) {
        const auto p = N::load(x[i]), q = N::load(y[i]);
        bool pick_p;
        if constexpr (std::is_floating_point_v<compute_t<D>>) {
          pick_p = std::isnan(p) || (!std::isnan(q) && (min ? p <= q : p >= q));
        } else {
          pick_p = min ? p <= q : p >= q;
        }
        out.push_back(pick_p ? x[i] : y[i]);
      }
      return tensor_data{D, a.shape, tensor_elements(std::move(out))};
    }
  });
}

// Whether every element lies in [0, bound] (bound: a scalar of any numeric dtype). Integers
// compare exactly, in 128 bits' worth of range (sign and magnitude); floats through double.
inline bool within_bound(const tensor_data& t, const tensor_data& bound) {
  if (bound.size() != 1) throw run_fault("a secure-sum bound is not a scalar");
  const bool int_bound = is_integer(bound.dt);
  std::uint64_t ub = 0;  // integer bound, when >= 0
  bool negative_bound = false;
  if (int_bound) {
    visit_dtype(bound.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      if constexpr (is_integer(D)) {
        const auto v = numeric<D>::load(bound.get<D>()[0]);
        if constexpr (std::is_signed_v<decltype(v)>) negative_bound = v < 0;
        ub = negative_bound ? 0 : static_cast<std::uint64_t>(v);
      }
    });
  }
  const double fb = load_as<dtype::float64>(bound)[0];
  return visit_dtype(t.dt, [&](auto d) -> bool {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D == dtype::str || D == dtype::bool_ || is_complex(D)) {
      throw run_fault(std::string("a secure sum of ") + std::string(dtype_name(D)));
    } else {
      for (const auto& s : t.get<D>()) {
        const auto x = numeric<D>::load(s);
        if constexpr (std::is_integral_v<decltype(x)>) {
          if (int_bound) {
            if constexpr (std::is_signed_v<decltype(x)>) {
              if (x < 0) return false;
            }
            if (negative_bound || static_cast<std::uint64_t>(x) > ub) return false;
            continue;
          }
        }
        const double v = static_cast<double>(x);
        if (!(v >= 0 && v <= fb)) return false;
      }
      return true;
    }
  });
}

}  // namespace ctff::detail
