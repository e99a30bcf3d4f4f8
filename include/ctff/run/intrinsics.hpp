// The 27 intrinsics of federated_language as the executor runs them (reference/execution.md §3).
// Every fold is a left fold in client order from the zero or identity, so results do not depend
// on the number of threads; per-client calls run on the workers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

// ---- Types the intrinsics read ---------------------------------------------------------------

struct typed {  // a type inside a tree's type_desc
  const type_desc* d;
  std::uint32_t i;
  const type_node& node() const { return d->node(i); }
  typed kid(std::uint32_t k) const { return {d, d->kid(i, k)}; }
  std::uint32_t kids() const { return node().kid_count; }
  typed param() const { return kid(0); }  // of a function type with a parameter
  typed result() const { return kid(kids() - 1); }
  typed member() const { return kid(0); }  // of a federated or sequence type
};

inline std::vector<std::string> struct_names(typed t) {
  std::vector<std::string> names;
  bool any = false;
  for (std::uint32_t k = 0; k != t.kids(); ++k) {
    names.emplace_back(t.d->name(t.d->kid(t.i, k)));
    any = any || !names.back().empty();
  }
  if (!any) names.clear();
  return names;
}

// The members of a federated value for clients 0..n-1 (an all_equal value: its one member).
inline const dynamic_value& member(const federated_data& f, std::size_t i) {
  return f.all_equal ? f.members.front() : f.members[i];
}
inline const federated_data& federated_of(const dynamic_value& v, const char* what) {
  if (!v.is(value_kind::federated)) throw run_fault(std::string(what) + ": not a federated value");
  const federated_data& f = v.federated();
  if (f.members.empty() && (f.all_equal || f.where == placement_kind::server))
    throw run_fault(std::string(what) + ": a federated value without its member");
  return f;
}
// Checks that a CLIENTS value that is not all_equal has one member per client.
inline const federated_data& clients_of(const dynamic_value& v, std::size_t n, const char* what) {
  const federated_data& f = federated_of(v, what);
  if (!f.all_equal && f.members.size() != n)
    throw run_fault(std::string(what) + ": a value with " + std::to_string(f.members.size()) +
                    " members for " + std::to_string(n) + " clients");
  return f;
}
inline const dynamic_value& element(const dynamic_value& v, std::size_t k, const char* what) {
  if (!v.is(value_kind::struct_) || v.structure().elements.size() <= k)
    throw run_fault(std::string(what) + ": its argument is not a struct of the intrinsic's arity");
  return v.structure().elements[k];
}
inline const tensor_data& tensor_of(const dynamic_value& v, const char* what) {
  if (!v.is(value_kind::tensor)) throw run_fault(std::string(what) + ": not a tensor");
  return v.tensor();
}

inline dynamic_value call(const dynamic_value& fn, const dynamic_value* arg, run_context& c) {
  if (!fn.is(value_kind::function)) throw run_fault("calling a value that is not a function");
  return fn.function().impl->call(arg, c);
}
inline dynamic_value call(const dynamic_value& fn, const dynamic_value& arg, run_context& c) { return call(fn, &arg, c); }

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

// ---- Pointwise arithmetic over structures ----------------------------------------------------

// Combines two values leaf by leaf: structs element by element, federated values member by
// member (all_equal with all_equal stays one member), tensors with `leaf(a, b, result type)`.
template <class Leaf>
dynamic_value pointwise(const dynamic_value& a, const dynamic_value& b, typed result, std::size_t n, const Leaf& leaf) {
  if (a.kind() != b.kind()) throw run_fault("operands of different kinds");
  switch (a.kind()) {
    case value_kind::tensor: return dynamic_value(leaf(a.tensor(), b.tensor(), result));
    case value_kind::struct_: {
      const auto& x = a.structure();
      const auto& y = b.structure();
      if (x.elements.size() != y.elements.size()) throw run_fault("structs of different lengths");
      const bool typed_struct = result.node().kind == type_kind::struct_ &&
                                result.kids() == x.elements.size();
      std::vector<dynamic_value> e;
      for (std::size_t k = 0; k != x.elements.size(); ++k)
        e.push_back(pointwise(x.elements[k], y.elements[k],
                              typed_struct ? result.kid(static_cast<std::uint32_t>(k)) : result, n,
                              leaf));
      return make_struct_value(std::move(e), x.names);
    }
    case value_kind::federated: {
      const auto& x = a.federated();
      const auto& y = b.federated();
      if (x.where != y.where) throw run_fault("federated operands of different placements");
      const typed m = result.node().kind == type_kind::federated ? result.member() : result;
      if ((x.all_equal && y.all_equal) || x.where == placement_kind::server)
        return make_federated(x.where, true,
                                    {pointwise(member(x, 0), member(y, 0), m, n, leaf)});
      std::vector<dynamic_value> out(n);
      for (std::size_t i = 0; i != n; ++i) out[i] = pointwise(member(x, i), member(y, i), m, n, leaf);
      return make_federated(x.where, false, std::move(out));
    }
    default: throw run_fault("arithmetic on a value that is not a tensor, struct or federated value");
  }
}

// A fold's accumulator: the tensors of a (struct) value, updated in place client after client,
// and the value rebuilt around them at the end.
class leaf_accumulator {
 public:
  explicit leaf_accumulator(dynamic_value start) : shape_(std::move(start)) { collect(shape_); }
  // f(accumulated leaf, x's leaf) for every leaf, in order.
  template <class F>
  void update(const dynamic_value& x, const F& f) {
    std::size_t k = 0;
    walk(shape_, x, k, f);
  }
  dynamic_value result() {
    std::size_t k = 0;
    return rebuild(shape_, k);
  }

 private:
  void collect(const dynamic_value& v) {
    if (v.is(value_kind::struct_)) {
      for (const dynamic_value& e : v.structure().elements) collect(e);
    } else {
      leaves_.push_back(tensor_of(v, "an aggregation"));
    }
  }
  template <class F>
  void walk(const dynamic_value& s, const dynamic_value& x, std::size_t& k, const F& f) {
    if (s.is(value_kind::struct_)) {
      const auto& se = s.structure().elements;
      if (!x.is(value_kind::struct_) || x.structure().elements.size() != se.size())
        throw run_fault("an aggregation of members of different structures");
      for (std::size_t i = 0; i != se.size(); ++i) walk(se[i], x.structure().elements[i], k, f);
    } else {
      f(leaves_[k++], tensor_of(x, "an aggregation"));
    }
  }
  dynamic_value rebuild(const dynamic_value& s, std::size_t& k) {
    if (!s.is(value_kind::struct_)) return dynamic_value(std::move(leaves_[k++]));
    std::vector<dynamic_value> e;
    for (const dynamic_value& x : s.structure().elements) e.push_back(rebuild(x, k));
    return make_struct_value(std::move(e), s.structure().names);
  }

  dynamic_value shape_;
  std::vector<tensor_data> leaves_;
};

inline void add_leaf(tensor_data& acc, const tensor_data& x) { tensor_op_into(binary_op::plus, acc, x); }

// ---- The intrinsics --------------------------------------------------------------------------

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

// An intrinsic as a function value: its uri and its type in the tree.
class intrinsic_fn final : public function_impl {
 public:
  intrinsic_fn(std::string_view uri, typed type) : uri_(uri), what_(uri), type_(type) {}
  std::string describe() const override { return std::string(uri_); }

  dynamic_value call(const dynamic_value* arg, run_context& c) const override {
    const std::size_t n = c.clients();
    const std::string_view u = uri_;
    const std::string& what = what_;
    auto need = [&]() -> const dynamic_value& {
      if (!arg || !*arg) throw run_fault(what + ": called without its argument");
      return *arg;
    };
    if (u == "federated_broadcast") {
      const federated_data& f = federated_of(need(), what.c_str());
      return at(placement_kind::clients, f.members.front());
    }
    if (u == "federated_value_at_clients") return at(placement_kind::clients, need());
    if (u == "federated_value_at_server") return at(placement_kind::server, need());
    if (u == "federated_map" || u == "federated_map_all_equal" || u == "federated_apply") {
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const federated_data& v = federated_of(element(need(), 1, what.c_str()), what.c_str());
      if (v.where == placement_kind::server) return at(v.where, detail::call(fn, v.members.front(), c));
      if (u == "federated_map_all_equal") {
        if (!v.all_equal) throw run_fault(what + ": its argument is not all_equal");
        return at(v.where, detail::call(fn, v.members.front(), c));
      }
      clients_of(element(need(), 1, what.c_str()), n, what.c_str());
      return per_client(c, [&](std::size_t i) { return detail::call(fn, member(v, i), c); });
    }
    if (u == "federated_eval_at_clients")
      return per_client(c, [&](std::size_t) { return detail::call(need(), nullptr, c); });
    if (u == "federated_eval_at_server")
      return at(placement_kind::server, detail::call(need(), nullptr, c));
    if (u == "federated_sum" || u == "federated_mean" || u == "federated_secure_sum" ||
        u == "federated_secure_sum_bitwidth") {
      const bool secure = u.starts_with("federated_secure");
      const dynamic_value& vv = secure ? element(need(), 0, what.c_str()) : need();
      const federated_data& v = clients_of(vv, n, what.c_str());
      const typed mt = (secure ? type_.param().kid(0) : type_.param()).member();
      if (secure) {
        const dynamic_value& b = element(need(), 1, what.c_str());
        const dynamic_value bound = u == "federated_secure_sum" ? b : bitwidth_bound(b, what.c_str());
        for (std::size_t i = 0; i != n; ++i) check_bounds(member(v, i), bound, what.c_str());
      }
      leaf_accumulator acc(zero_of(mt, n));
      for (std::size_t i = 0; i != n; ++i) acc.update(member(v, i), add_leaf);
      dynamic_value s = acc.result();
      if (u == "federated_mean") s = divide_leaves(s, {}, true, static_cast<double>(n));
      return at(placement_kind::server, std::move(s));
    }
    if (u == "federated_weighted_mean") {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const federated_data& wt = clients_of(element(need(), 1, what.c_str()), n, what.c_str());
      const typed mt = type_.param().kid(0).member();
      const typed wtt = type_.param().kid(1).member();
      leaf_accumulator num(zero_of(mt, n)), den(zero_of(wtt, n));
      for (std::size_t i = 0; i != n; ++i) {
        const tensor_data& wi = tensor_of(member(wt, i), what.c_str());
        num.update(member(v, i), [&](tensor_data& acc, const tensor_data& x) {
          if (!is_floating(acc.dt) && !is_complex(acc.dt))
            throw run_fault(std::string("a mean of ") + std::string(dtype_name(acc.dt)) +
                            " members (float or complex only)");
          tensor_op_into(binary_op::plus, acc, x, &wi);
        });
        den.update(member(wt, i), add_leaf);
      }
      return at(placement_kind::server, divide_leaves(num.result(), den.result(), false, 0));
    }
    if (u == "federated_min" || u == "federated_max") {
      const bool min = u == "federated_min";
      const federated_data& v = clients_of(need(), n, what.c_str());
      leaf_accumulator acc(extreme_start(type_.param().member(), min));
      for (std::size_t i = 0; i != n; ++i)
        acc.update(member(v, i), [min](tensor_data& a, const tensor_data& x) { a = extreme_of(a, x, min); });
      return at(placement_kind::server, acc.result());
    }
    if (u == "federated_aggregate") {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const dynamic_value& accumulate = element(need(), 2, what.c_str());
      const dynamic_value& report = element(need(), 4, what.c_str());
      dynamic_value acc = fold_clients(v, n, element(need(), 1, what.c_str()),
                               [&](const dynamic_value& a, const dynamic_value& x) {
                                 return detail::call(accumulate, make_struct_value({a, x}), c);
                               });
      return at(placement_kind::server, detail::call(report, acc, c));
    }
    if (u == "federated_select" || u == "federated_secure_select") {
      const federated_data& keys = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const dynamic_value& server = federated_of(element(need(), 2, what.c_str()), what.c_str()).members.front();
      const dynamic_value& fn = element(need(), 3, what.c_str());
      return per_client(c, [&](std::size_t i) {
        const tensor_data& k = tensor_of(member(keys, i), what.c_str());
        if (k.dt != dtype::int32 || k.shape.size() != 1)
          throw run_fault(what + ": client " + std::to_string(i) + "'s keys are not a rank-1 int32 tensor");
        const auto& ks = k.get<dtype::int32>();
        if (ks.empty()) throw run_fault(what + ": client " + std::to_string(i) + " has no keys");
        std::vector<dynamic_value> out;
        out.reserve(ks.size());
        for (std::int32_t key : ks)
          out.push_back(detail::call(fn, make_struct_value({server, make_scalar<dtype::int32>(key)}), c));
        return make_sequence(std::move(out));
      });
    }
    if (u == "federated_zip_at_clients" || u == "federated_zip_at_server") {
      const placement_kind where =
          u == "federated_zip_at_clients" ? placement_kind::clients : placement_kind::server;
      const dynamic_value& v = need();
      zip_check(v, n, where);
      if (where == placement_kind::server || zip_all_equal(v)) return at(where, zip_member(v, 0));
      std::vector<dynamic_value> out(n);
      for (std::size_t i = 0; i != n; ++i) out[i] = zip_member(v, i);
      return make_federated(where, false, std::move(out));
    }
    if (u == "generic_plus" || u == "generic_multiply") {
      const binary_op op = u == "generic_plus" ? binary_op::plus : binary_op::multiply;
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [op](const tensor_data& x, const tensor_data& y, typed) {
                         return tensor_op(op, x, y);
                       });
    }
    if (u == "generic_divide") {
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [](const tensor_data& x, const tensor_data& y, typed r) {
                         const dtype to = r.node().kind == type_kind::tensor ? r.node().dt : x.dt;
                         return divide_tensor(x, y, to);
                       });
    }
    if (u == "sequence_map") {
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const dynamic_value& s = element(need(), 1, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      std::vector<dynamic_value> out;
      for (const dynamic_value& e : s.sequence().elements) out.push_back(detail::call(fn, e, c));
      return make_sequence(std::move(out));
    }
    if (u == "sequence_reduce") {
      const dynamic_value& s = element(need(), 0, what.c_str());
      const dynamic_value& op = element(need(), 2, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      dynamic_value acc = element(need(), 1, what.c_str());
      for (const dynamic_value& e : s.sequence().elements) acc = detail::call(op, make_struct_value({acc, e}), c);
      return acc;
    }
    if (u == "sequence_sum") {
      const dynamic_value& s = need();
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      const typed et = type_.param().member();
      leaf_accumulator acc(zero_of(et, n));
      for (const dynamic_value& e : s.sequence().elements) acc.update(e, add_leaf);
      return acc.result();
    }
    throw run_fault("unknown intrinsic " + what);
  }

 private:
  std::string_view uri_;
  std::string what_;  // the uri, for messages
  typed type_;
};

// The intrinsics that are values, not functions: generic_zero.
inline bool is_value_intrinsic(std::string_view uri) { return uri == "generic_zero"; }

}  // namespace ctff::detail
