// Steps the intrinsics share: folds over the clients in client order, per-client calls on the
// workers, the secure sums' bounds, the mean's division, the extremes' start values, zips.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// Folds f over the clients' members of v, in client order, from `init`.
template <class F>
dynamic_value fold_clients(const federated_data& v, std::size_t n, dynamic_value init, const F& f) {
  for (std::size_t i = 0; i != n; ++i) init = f(init, member(v, i));
  return init;
}

inline dynamic_value at(placement_kind where, dynamic_value m) {
  return make_federated(where, true, {std::move(m)});
}

// n per-client results of f(i), computed on the workers.
template <class F>
dynamic_value per_client(run_context& c, const F& f) {
  const std::size_t n = c.clients();
  std::vector<dynamic_value> out(n);
  c.for_each_client(n, [&](std::size_t i) { out[i] = f(i); });
  return make_federated(placement_kind::clients, false, std::move(out));
}

// Leaf bounds of the secure sums: a scalar for every leaf, or a struct leaf by leaf.
inline void check_bounds(const dynamic_value& v, const dynamic_value& bound, const char* what) {
  if (v.is(value_kind::struct_)) {
    const auto& e = v.structure().elements;
    for (std::size_t k = 0; k != e.size(); ++k)
      check_bounds(e[k], bound.is(value_kind::struct_) ? element(bound, k, what) : bound, what);
    return;
  }
  if (!within_bound(tensor_of(v, what), tensor_of(bound, what)))
    throw run_fault(std::string(what) + ": a client's value lies outside [0, bound]");
}
// 2^b - 1 for every leaf of the bitwidth argument.
inline dynamic_value bitwidth_bound(const dynamic_value& bits, const char* what) {
  if (bits.is(value_kind::struct_)) {
    std::vector<dynamic_value> e;
    for (const dynamic_value& b : bits.structure().elements) e.push_back(bitwidth_bound(b, what));
    return make_struct_value(std::move(e), bits.structure().names);
  }
  const auto b = load_as<dtype::int64>(tensor_of(bits, what));
  if (b.size() != 1 || b[0] < 1 || b[0] > 62)
    throw run_fault(std::string(what) + ": the bitwidth must be a scalar in [1, 62]");
  return make_scalar<dtype::int64>((std::int64_t{1} << b[0]) - 1);
}

// The mean's division: every leaf divided by a scalar of its own dtype.
inline dynamic_value divide_leaves(const dynamic_value& v, const dynamic_value& by_w, bool by_count, double count) {
  switch (v.kind()) {
    case value_kind::tensor: {
      const tensor_data& t = v.tensor();
      if (!is_floating(t.dt) && !is_complex(t.dt))
        throw run_fault(std::string("a mean of ") + std::string(dtype_name(t.dt)) +
                        " members (float or complex only)");
      const tensor_data d =
          by_count ? cast_tensor(tensor_data{dtype::float64, {}, std::vector<double>{count}}, t.dt)
                   : cast_tensor(by_w.tensor(), t.dt);
      return dynamic_value(tensor_op(binary_op::divide, t, d));
    }
    case value_kind::struct_: {
      std::vector<dynamic_value> e;
      for (const dynamic_value& x : v.structure().elements) e.push_back(divide_leaves(x, by_w, by_count, count));
      return make_struct_value(std::move(e), v.structure().names);
    }
    default: throw run_fault("a mean of a value that is not a tensor or struct");
  }
}
inline dynamic_value extreme_start(typed t, bool min) {
  const type_node& tn = t.node();
  if (tn.kind == type_kind::struct_) {
    std::vector<dynamic_value> e;
    for (std::uint32_t k = 0; k != t.kids(); ++k) e.push_back(extreme_start(t.kid(k), min));
    return make_struct_value(std::move(e), struct_names(t));
  }
  const dynamic_value z = zero_of(t, 0);  // checks the shape is known
  return dynamic_value(extreme_tensor(tn.dt, z.tensor().shape, min));
}
// Zips a (nested) struct of federated values into one federated struct.
inline dynamic_value zip_member(const dynamic_value& v, std::size_t i) {
  if (v.is(value_kind::struct_)) {
    std::vector<dynamic_value> e;
    for (const dynamic_value& x : v.structure().elements) e.push_back(zip_member(x, i));
    return make_struct_value(std::move(e), v.structure().names);
  }
  return member(federated_of(v, "federated_zip"), i);
}
inline bool zip_all_equal(const dynamic_value& v) {
  if (v.is(value_kind::struct_)) {
    for (const dynamic_value& x : v.structure().elements)
      if (!zip_all_equal(x)) return false;
    return true;
  }
  return federated_of(v, "federated_zip").all_equal;
}
inline void zip_check(const dynamic_value& v, std::size_t n, placement_kind where) {
  if (v.is(value_kind::struct_)) {
    for (const dynamic_value& x : v.structure().elements) zip_check(x, n, where);
    return;
  }
  const federated_data& f = where == placement_kind::clients ? clients_of(v, n, "federated_zip")
                                                               : federated_of(v, "federated_zip");
  if (f.where != where) throw run_fault("federated_zip: a member of another placement");
}

}  // namespace ctff::detail
