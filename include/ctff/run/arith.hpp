// Tensor arithmetic of the executor (reference/execution.md §3): plus, multiply and divide of
// tensors of any numeric dtype, each computing in itself (run/numeric.hpp), broadcasting as numpy
// does, and casts between dtypes; bool and string operands are errors.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/budget.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/numeric.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Elements of a shape of known dimensions, saturating at 2^62 (more than any budget allows).
inline std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) {
    if (d != 0 && n > (std::int64_t{1} << 62) / d) return std::int64_t{1} << 62;
    n *= d;
  }
  return n;
}

// A tensor's elements in the computation type of dtype To (the second operand cast to the first's
// dtype, a weight cast to a member's).
template <dtype To>
std::vector<compute_t<To>> load_as(const tensor_data& t) {
  std::vector<compute_t<To>> out;
  out.reserve(t.size());
  visit_dtype(t.dt, [&](auto from) {
    constexpr dtype F = decltype(from)::value;
    if constexpr (F == dtype::str) {
      throw run_fault("a string tensor is not a number");
    } else {
      for (const auto& s : std::get<stored_t<F>>(t.elements))
        out.push_back(convert_element<compute_t<To>>(numeric<F>::load(s)));
    }
  });
  return out;
}

// numpy broadcasting of two shapes; throws when they do not broadcast.
inline std::vector<std::int64_t> broadcast_shape(const std::vector<std::int64_t>& a,
                                                 const std::vector<std::int64_t>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<std::int64_t> out(n);
  for (std::size_t i = 0; i != n; ++i) {
    const std::int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      throw run_fault("shapes that do not broadcast: dimension " + std::to_string(x) + " and " +
                      std::to_string(y));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// For each element of `out` (row-major), the index of the element of `in` it reads.
inline std::vector<std::int64_t> broadcast_index(const std::vector<std::int64_t>& in,
                                                 const std::vector<std::int64_t>& out) {
  const std::int64_t total = element_count(out);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(total));
  const std::size_t off = out.size() - in.size();
  std::vector<std::int64_t> pos(out.size(), 0);
  for (std::int64_t k = 0; k != total; ++k) {
    std::int64_t at = 0;
    for (std::size_t d = 0; d != in.size(); ++d) at = at * in[d] + (in[d] == 1 ? 0 : pos[d + off]);
    idx[static_cast<std::size_t>(k)] = at;
    for (std::size_t d = out.size(); d-- > 0;) {
      if (++pos[d] < out[d]) break;
      pos[d] = 0;
    }
  }
  return idx;
}

enum class binary_op : std::uint8_t { plus, multiply, divide };

// op(a, b) elementwise in compute type C; Op a constant, so that loops over it vectorize.
template <binary_op Op, class C>
C apply_op(const C& a, const C& b) {
  if constexpr (std::is_integral_v<C>) {
    if constexpr (Op == binary_op::plus) return wrap_add(a, b);
    else if constexpr (Op == binary_op::multiply) return wrap_mul(a, b);
    else return int_div(a, b);
  } else {
    if constexpr (Op == binary_op::plus) return a + b;
    else if constexpr (Op == binary_op::multiply) return a * b;
    else return a / b;
  }
}
// f(std::integral_constant<binary_op, op>{}).
template <class F>
decltype(auto) with_op(binary_op op, F&& f) {
  switch (op) {
    case binary_op::plus: return f(std::integral_constant<binary_op, binary_op::plus>{});
    case binary_op::multiply: return f(std::integral_constant<binary_op, binary_op::multiply>{});
    case binary_op::divide: break;
  }
  return f(std::integral_constant<binary_op, binary_op::divide>{});
}

inline tensor_data tensor_op(binary_op op, const tensor_data& a, const tensor_data& b);
inline tensor_data cast_tensor(const tensor_data& t, dtype to);

// Calls f with an accessor of b's elements in D's computation type: b's own elements when b has
// dtype D (no copy), else b converted once.
template <dtype D, class F>
decltype(auto) with_elements_as(const tensor_data& b, F&& f) {
  if (b.dt == D) {
    const auto& ys = b.get<D>();
    return f([&ys](std::size_t j) { return numeric<D>::load(ys[j]); });
  }
  const std::vector<compute_t<D>> conv = load_as<D>(b);
  return f([&conv](std::size_t j) { return conv[j]; });
}

// a op b for tensors of dtype D (b cast to D), broadcasting; the result has dtype D.
template <dtype D>
tensor_data tensor_op_in(binary_op op, const tensor_data& a, const tensor_data& b) {
  using N = numeric<D>;
  const auto& x = a.get<D>();
  return with_elements_as<D>(b, [&](auto y) {
    tensor_data r{D, a.shape, stored_t<D>{}};
    auto& out = r.template get<D>();
    // The common cases without index tables: equal shapes, and a one-element b of no higher rank.
    const bool one = b.size() == 1 && b.shape.size() <= a.shape.size();
    if (a.shape == b.shape || one) {
      charge_elements(x.size(), sizeof(typename stored_t<D>::value_type));
      out.resize(x.size());
      with_op(op, [&](auto o) {
        constexpr binary_op O = decltype(o)::value;
        if (one && a.shape != b.shape) {
          const auto y0 = y(0);
          for (std::size_t i = 0; i != x.size(); ++i) out[i] = N::store(apply_op<O>(N::load(x[i]), y0));
        } else {
          for (std::size_t i = 0; i != x.size(); ++i) out[i] = N::store(apply_op<O>(N::load(x[i]), y(i)));
        }
      });
      return r;
    }
    r.shape = broadcast_shape(a.shape, b.shape);
    charge_elements(static_cast<std::uint64_t>(element_count(r.shape)), 3 * sizeof(std::int64_t));
    const auto ia = broadcast_index(a.shape, r.shape);
    const auto ib = broadcast_index(b.shape, r.shape);
    out.resize(ia.size());
    with_op(op, [&](auto o) {
      constexpr binary_op O = decltype(o)::value;
      for (std::size_t i = 0; i != ia.size(); ++i)
        out[i] = N::store(apply_op<O>(N::load(x[static_cast<std::size_t>(ia[i])]),
                                      y(static_cast<std::size_t>(ib[i]))));
    });
    return r;
  });
}

// x[i] = x[i] op (y(i) * w), the product rounded in D first: the weighted mean's step, for a
// member (tensor_op_into) and for a column's row (run/intrinsics.hpp).
template <dtype D, binary_op O, class Y>
void scaled_op_into(stored_t<D>& x, Y y, compute_t<D> w) {
  using N = numeric<D>;
  for (std::size_t i = 0; i != x.size(); ++i)
    x[i] = N::store(apply_op<O>(N::load(x[i]), N::load(N::store(apply_op<binary_op::multiply>(y(i), w)))));
}

// acc = acc op b in place when b (cast to acc's dtype) has acc's shape or one element; else
// through tensor_op. `scale`, when given, multiplies b first (rounded in acc's dtype):
// acc + b * scale, the weighted mean's step.
inline void tensor_op_into(binary_op op, tensor_data& acc, const tensor_data& b,
                           const tensor_data* scale = nullptr) {
  if (!arithmetic_dtype(acc.dt) || !arithmetic_dtype(b.dt) || (scale && !arithmetic_dtype(scale->dt)))
    throw run_fault(std::string("arithmetic on ") +
                    std::string(dtype_name(arithmetic_dtype(acc.dt) ? b.dt : acc.dt)) + " tensors");
  const bool one = b.size() == 1 && b.shape.size() <= acc.shape.size();
  if (acc.shape != b.shape && !one) {
    acc = tensor_op(op, acc, scale ? tensor_op(binary_op::multiply, cast_tensor(b, acc.dt), *scale) : b);
    return;
  }
  visit_dtype(acc.dt, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D != dtype::str && D != dtype::bool_) {
      using N = numeric<D>;
      auto& x = acc.get<D>();
      compute_t<D> w{};
      if (scale) {
        if (scale->size() != 1) throw run_fault("a weight that is not a scalar");
        w = load_as<D>(*scale)[0];
      }
      with_elements_as<D>(b, [&](auto y) {
        with_op(op, [&](auto o) {
          constexpr binary_op O = decltype(o)::value;
          constexpr binary_op M = binary_op::multiply;
          if (one && acc.shape != b.shape) {
            const auto y0 = scale ? N::load(N::store(apply_op<M>(y(0), w))) : y(0);
            for (std::size_t i = 0; i != x.size(); ++i) x[i] = N::store(apply_op<O>(N::load(x[i]), y0));
          } else if (scale) {
            scaled_op_into<D, O>(x, y, w);
          } else {
            for (std::size_t i = 0; i != x.size(); ++i) x[i] = N::store(apply_op<O>(N::load(x[i]), y(i)));
          }
        });
        return 0;
      });
    }
  });
}

inline tensor_data tensor_op(binary_op op, const tensor_data& a, const tensor_data& b) {
  if (!arithmetic_dtype(a.dt) || !arithmetic_dtype(b.dt))
    throw run_fault(std::string("arithmetic on ") +
                    std::string(dtype_name(arithmetic_dtype(a.dt) ? b.dt : a.dt)) + " tensors");
  return visit_dtype(a.dt, [&](auto d) -> tensor_data {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D == dtype::str || D == dtype::bool_) {
      throw run_fault("unreachable");
    } else {
      return tensor_op_in<D>(op, a, b);
    }
  });
}

// A tensor of dtype D from computation-type elements.
template <dtype D>
tensor_data store_tensor(const std::vector<compute_t<D>>& c, std::vector<std::int64_t> shape) {
  stored_t<D> s;
  charge_elements(c.size(), sizeof(typename stored_t<D>::value_type));
  s.reserve(c.size());
  for (const auto& x : c) s.push_back(numeric<D>::store(x));
  return tensor_data{D, std::move(shape), tensor_elements(std::move(s))};
}

// A tensor converted to dtype `to` (generic_divide's result type).
inline tensor_data cast_tensor(const tensor_data& t, dtype to) {
  if (t.dt == to) return t;
  if (to == dtype::str || t.dt == dtype::str)
    throw run_fault("a string tensor cannot be cast");
  return visit_dtype(to, [&](auto d) -> tensor_data {
    constexpr dtype D = decltype(d)::value;
    if constexpr (D == dtype::str) {
      throw run_fault("unreachable");
    } else {
      return store_tensor<D>(load_as<D>(t), t.shape);
    }
  });
}

// generic_divide with result dtype u (reference §3).
inline tensor_data divide_tensor(const tensor_data& a, const tensor_data& b, dtype u) {
  if (!arithmetic_dtype(a.dt) || !arithmetic_dtype(b.dt))
    throw run_fault(std::string("arithmetic on ") +
                    std::string(dtype_name(arithmetic_dtype(a.dt) ? b.dt : a.dt)) + " tensors");
  if (is_integer(a.dt) && (is_floating(u) || is_complex(u))) {
    const bool narrow = a.dt == dtype::int8 || a.dt == dtype::uint8 || a.dt == dtype::int16 ||
                        a.dt == dtype::uint16;
    const dtype via = narrow ? dtype::float32 : dtype::float64;
    return cast_tensor(tensor_op(binary_op::divide, cast_tensor(a, via), b), u);
  }
  return cast_tensor(tensor_op(binary_op::divide, a, b), u);
}

}  // namespace ctff::detail
