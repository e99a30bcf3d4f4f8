// The element work of the federated aggregations besides plus and multiply (run/arith.hpp):
// identities (zeros, of a dtype or of a whole type; the extremes federated_min/max start from),
// pointwise min and max, and the secure sums' bound check.
#pragma once

#include <charconv>
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
#include "ctff/run/typed.hpp"
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

// The zero of a type (generic_zero, federated_sum of no clients): n members for {T}@CLIENTS
// (one zero, shared).
inline dynamic_value zero_of(typed t, std::size_t n) {
  const type_node& tn = t.node();
  switch (tn.kind) {
    case type_kind::tensor: {
      if (tn.unknown_rank) throw run_fault("the zero of a tensor of unknown rank");
      std::vector<std::int64_t> shape(t.d->dims.begin() + tn.dim_begin,
                                      t.d->dims.begin() + tn.dim_begin + tn.dim_count);
      for (auto d : shape)
        if (d < 0) throw run_fault("the zero of a tensor with an unknown dimension");
      return dynamic_value(zero_tensor(tn.dt, std::move(shape)));
    }
    case type_kind::struct_: {
      std::vector<dynamic_value> e;
      for (std::uint32_t k = 0; k != t.kids(); ++k) e.push_back(zero_of(t.kid(k), n));
      return make_struct_value(std::move(e), struct_names(t));
    }
    case type_kind::federated: {
      dynamic_value m = zero_of(t.member(), n);
      if (tn.where == placement_kind::clients && !tn.all_equal)
        return make_federated(tn.where, false, std::vector<dynamic_value>(n, m));
      return make_federated(tn.where, true, {std::move(m)});
    }
    default: throw run_fault("no zero for this type");
  }
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

// x = pointwise min (or max) of x and the x.size() elements at y; NaN propagates. The one rule of
// federated_min/max, for members and for a column's rows.
template <dtype D>
void extreme_into(stored_t<D>& x, const typename stored_t<D>::value_type* y, bool min) {
  using N = numeric<D>;
  for (std::size_t i = 0; i != x.size(); ++i) {
    const auto p = N::load(x[i]), q = N::load(y[i]);
    bool pick_p;
    if constexpr (std::is_floating_point_v<compute_t<D>>) {
      pick_p = std::isnan(p) || (!std::isnan(q) && (min ? p <= q : p >= q));
    } else {
      pick_p = min ? p <= q : p >= q;
    }
    if (!pick_p) x[i] = y[i];
  }
}
// Whether federated_min/max takes tensors of dtype D.
template <dtype D>
inline constexpr bool has_extremes = !(D == dtype::str || D == dtype::bool_ || is_complex(D));

// a = pointwise min (or max) of a and b, tensors of one dtype and shape.
inline void extreme_of(tensor_data& a, const tensor_data& b, bool min) {
  if (a.dt != b.dt || a.shape != b.shape)
    throw run_fault("federated_min/max of members of different shapes");
  visit_dtype(a.dt, [&](auto t) {
    constexpr dtype D = decltype(t)::value;
    if constexpr (!has_extremes<D>) throw run_fault(std::string("federated_min/max of ") + std::string(dtype_name(D)));
    else extreme_into<D>(a.get<D>(), b.get<D>().data(), min);
  });
}

// Element k of a numeric tensor as text, for messages: integers exactly, floats shortest.
inline std::string element_text(const tensor_data& t, std::size_t k) {
  return visit_dtype(t.dt, [&](auto d) -> std::string {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D == dtype::str || D == dtype::bool_ || is_complex(D)) {
      return std::string(dtype_name(D));
    } else {
      const auto x = numeric<D>::load(t.get<D>()[k]);
      if constexpr (std::is_integral_v<decltype(x)>) {
        return std::to_string(x);
      } else {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(x));
        return std::string(buf, r.ptr);
      }
    }
  });
}

// A secure sum's bound: a scalar of any numeric dtype, not negative (nor NaN).
inline void check_bound(const tensor_data& bound, const char* what) {
  const std::string op(what);
  if (bound.size() != 1) throw run_fault(op + ": the bound is not a scalar");
  if (bound.dt == dtype::str || bound.dt == dtype::bool_ || is_complex(bound.dt))
    throw run_fault(op + ": a bound of " + std::string(dtype_name(bound.dt)));
  const double fb = load_as<dtype::float64>(bound)[0];
  if (!(fb >= 0)) throw run_fault(op + ": the bound " + element_text(bound, 0) + " is negative or NaN");
}

// The first element outside [0, bound] (a bound that passed check_bound), or npos. Integers
// compare exactly, in 128 bits' worth of range (sign and magnitude); floats through double.
inline constexpr std::size_t npos_element = static_cast<std::size_t>(-1);
inline std::size_t outside_bound(const tensor_data& t, const tensor_data& bound) {
  const bool int_bound = is_integer(bound.dt);
  std::uint64_t ub = 0;  // integer bound
  const double fb = load_as<dtype::float64>(bound)[0];
  if (int_bound) {
    visit_dtype(bound.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      if constexpr (is_integer(D)) ub = static_cast<std::uint64_t>(numeric<D>::load(bound.get<D>()[0]));
    });
  }
  return visit_dtype(t.dt, [&](auto d) -> std::size_t {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D == dtype::str || D == dtype::bool_ || is_complex(D)) {
      throw run_fault(std::string("a secure sum of ") + std::string(dtype_name(D)));
    } else {
      const auto& e = t.get<D>();
      for (std::size_t k = 0; k != e.size(); ++k) {
        const auto x = numeric<D>::load(e[k]);
        if constexpr (std::is_integral_v<decltype(x)>) {
          if (int_bound) {
            if constexpr (std::is_signed_v<decltype(x)>) {
              if (x < 0) return k;
            }
            if (static_cast<std::uint64_t>(x) > ub) return k;
            continue;
          }
        }
        const double v = static_cast<double>(x);
        if (!(v >= 0 && v <= fb)) return k;
      }
      return npos_element;
    }
  });
}

}  // namespace ctff::detail
