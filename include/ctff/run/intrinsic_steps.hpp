// Steps the intrinsics share: per-client calls on the workers, the secure sums' bounds, the mean's
// division, the extremes' start values, zips.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

inline dynamic_value at(placement_kind where, dynamic_value m) {
  return make_federated(where, true, {std::move(m)});
}

// n per-client results of f(i), computed on the workers.
template <class F>
dynamic_value per_client(run_context& c, std::string_view what, const F& f) {
  const std::size_t n = c.clients();
  std::vector<dynamic_value> out(n);
  c.for_each_client(n, [&](std::size_t i) { out[i] = f(i); }, what);
  return make_federated(placement_kind::clients, false, std::move(out));
}

// The secure sums' bound: a scalar for every leaf, or a struct leaf by leaf. Each checked once
// per call (check_bound_leaves), then every client's value against it (check_bounds), a value
// outside its bound named by client, place and value.
inline void check_bound_leaves(const dynamic_value& bound, const char* what) {
  if (!bound.is(value_kind::struct_)) return check_bound(tensor_of(bound, what), what);
  for (const dynamic_value& b : bound.structure().elements) check_bound_leaves(b, what);
}
// Whether every leaf of v lies within its bound; if not, `miss` says where (from v) and what.
inline bool leaves_within(const dynamic_value& v, const dynamic_value& bound, const char* what, std::string& miss) {
  if (v.is(value_kind::struct_)) {
    const struct_data& s = v.structure();
    for (std::size_t k = 0; k != s.elements.size(); ++k)
      if (!leaves_within(s.elements[k], bound.is(value_kind::struct_) ? element(bound, k, what) : bound, what,
                         miss)) {
        miss.insert(0, step_text(s.name(k), k));
        return false;
      }
    return true;
  }
  const tensor_data& t = tensor_of(v, what);
  const tensor_data& b = tensor_of(bound, what);
  const std::size_t k = outside_bound(t, b);
  if (k == npos_element) return true;
  std::vector<std::size_t> index(t.shape.size());  // the element's, row-major
  for (std::size_t d = t.shape.size(), r = k; d-- != 0;) {
    const auto dim = static_cast<std::size_t>(t.shape[d]);
    index[d] = r % dim;
    r /= dim;
  }
  std::string at;
  for (std::size_t i : index) at += step_text({}, i);
  miss = at + " = " + element_text(t, k) + " lies outside [0, " + element_text(b, 0) + "]";
  return false;
}
inline void check_bounds(const dynamic_value& v, const dynamic_value& bound, const char* what, std::size_t client) {
  if (std::string miss; !leaves_within(v, bound, what, miss))
    throw run_fault(std::string(what) + ": client " + std::to_string(client) + ": value" + miss);
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

// The means take float or complex members only.
inline void check_mean_member(dtype d) {
  if (!is_floating(d) && !is_complex(d))
    throw run_fault(std::string("a mean of ") + std::string(dtype_name(d)) + " members (float or complex only)");
}
// The mean's division: every leaf divided by a scalar of its own dtype.
inline dynamic_value divide_leaves(const dynamic_value& v, const dynamic_value& by_w, bool by_count, double count) {
  switch (v.kind()) {
    case value_kind::tensor: {
      const tensor_data& t = v.tensor();
      check_mean_member(t.dt);
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
