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
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/intrinsic_steps.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

// An intrinsic as a function value: its uri and its type in the tree.
class intrinsic_fn final : public function_impl {
 public:
  intrinsic_fn(std::string_view uri, typed type) : uri_(uri), what_(uri), type_(type) {}
  std::string describe() const override { return std::string(uri_); }
  std::string_view intrinsic_uri() const override { return uri_; }

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
        if (n != 0) check_bound_leaves(bound, what.c_str());  // no clients: the zero, as TFF gives
        for (std::size_t i = 0; i != n; ++i) check_bounds(member(v, i), bound, what.c_str(), i);
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
