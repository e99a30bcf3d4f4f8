// Element arithmetic of the executor (reference/execution.md §3): every dtype computes in itself
// (float16 and bfloat16 widen to float and round back after each operation, as TF's kernels do;
// integers wrap), tensors broadcast as numpy does, and bool and string operands are errors.
#pragma once

#include <atomic>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ctff/run/value.hpp"

namespace ctff::detail {

// An error without its place; the evaluator adds the path of the building block that ran it.
class run_fault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The bytes of tensors a run may still make (run_limits::max_value_bytes), charged before a tensor
// is allocated; found through the running thread, so that arithmetic needs no context argument.
class byte_budget {
 public:
  explicit byte_budget(std::uint64_t max) : max_(max) {}
  void charge(std::uint64_t bytes) {
    const std::uint64_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
    if (bytes > max_ || before > max_ - bytes)
      throw run_fault("the run made more than run_limits::max_value_bytes (" +
                      std::to_string(max_) + ") bytes of tensors");
  }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  static byte_budget*& current() {
    thread_local byte_budget* b = nullptr;
    return b;
  }

 private:
  std::uint64_t max_;
  std::atomic<std::uint64_t> used_{0};
};

// Charges n elements of `size` bytes each to the running thread's budget (none: not running).
inline void charge_elements(std::uint64_t n, std::uint64_t size) {
  if (byte_budget* b = byte_budget::current())
    b->charge(n > (std::uint64_t{1} << 62) / size ? std::uint64_t{1} << 62 : n * size);
}

// IEEE binary16 <-> float, rounding to nearest even.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    const float f = std::ldexp(static_cast<float>(man), -24);
    return sign ? -f : f;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}
inline std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)  // inf or NaN (NaN stays quiet NaN)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (ax < 0x38800000u) {  // below the smallest normal half: a multiple of 2^-24
    const float a = std::bit_cast<float>(ax);
    const float q = std::nearbyint(a * 16777216.0f);  // exact scaling; round to nearest even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  const std::uint32_t man = ax & 0x7fffffu;
  std::uint32_t h = ((((ax >> 23) - 112) << 10) | (man >> 13));
  const std::uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: right
  return static_cast<std::uint16_t>(sign | h);
}
inline float bfloat16_to_float(std::uint16_t b) {
  return std::bit_cast<float>(std::uint32_t{b} << 16);
}
inline std::uint16_t float_to_bfloat16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  const std::uint32_t round = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + round) >> 16);
}

// What a dtype computes in, and the conversions between storage and computation.
template <dtype D> struct numeric {
  using stored = typename stored_t<D>::value_type;
  using compute = element_t<D>;
  static compute load(const stored& s) { return static_cast<compute>(s); }
  static stored store(const compute& c) { return static_cast<stored>(c); }
};
template <> struct numeric<dtype::float16> {
  using stored = half_bits;
  using compute = float;
  static float load(half_bits s) { return half_to_float(s.bits); }
  static half_bits store(float c) { return {float_to_half(c)}; }
};
template <> struct numeric<dtype::bfloat16> {
  using stored = bfloat16_bits;
  using compute = float;
  static float load(bfloat16_bits s) { return bfloat16_to_float(s.bits); }
  static bfloat16_bits store(float c) { return {float_to_bfloat16(c)}; }
};
template <dtype D> using compute_t = typename numeric<D>::compute;

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;

// Integers wrap: compute in uint64 and keep the low bits (modular conversion, C++20).
template <class T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
template <class T>
T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
template <class T>
T int_div(T a, T b) {
  if (b == 0) throw run_fault("integer division by zero");
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(0 - static_cast<std::uint64_t>(a));  // MIN / -1 == MIN
  }
  return static_cast<T>(a / b);
}

// One value converted to another computation type: numeric conversions, a complex number's real
// part, and float -> integer saturating (NaN -> 0) instead of undefined behaviour.
template <class To, class From>
To convert_element(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      return To(static_cast<typename To::value_type>(x.real()),
                static_cast<typename To::value_type>(x.imag()));
    } else {
      return convert_element<To>(x.real());
    }
  } else if constexpr (is_complex_v<To>) {
    return To(convert_element<typename To::value_type>(x), 0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    if (std::isnan(x)) return 0;
    if (x <= static_cast<From>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (x >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

inline bool arithmetic_dtype(dtype d) { return d != dtype::bool_ && d != dtype::str; }

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
            for (std::size_t i = 0; i != x.size(); ++i)
              x[i] = N::store(apply_op<O>(N::load(x[i]), N::load(N::store(apply_op<M>(y(i), w)))));
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
