// The 27 intrinsics of federated_language, and TFF's federated_secure_modular_sum, as the executor
// runs them (reference/execution.md §3).
// Every fold is a left fold in client order from the zero or identity, so results do not depend
// on the number of threads; per-client calls run on the workers.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/aggregation_rule.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/intrinsic_steps.hpp"
#include "ctff/run/modular_sum.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// An intrinsic function value finds its row (types/intrinsic_facts.hpp) once, when its program
// is prepared, and dispatches on the row's facts and identity.
// An intrinsic as a function value: its uri and its type in the tree.
class intrinsic_fn final : public function_impl {
 public:
  intrinsic_fn(std::string_view uri, typed type)
      : uri_(uri), what_(uri), type_(type), row_(intrinsic_row_of(uri)), facts_(intrinsic_entries[row_].facts),
        aggregation_(aggregation_of(uri)) {}
  std::string describe() const override { return std::string(uri_); }
  std::string_view intrinsic_uri() const override { return uri_; }
  // (Those whose calls below go through per_client.)
  bool runs_per_client() const override { return facts_.per_client; }

  dynamic_value call(const dynamic_value* arg, run_context& c) const override {
    if (arg && holds_column(*arg)) {
      if (std::optional<dynamic_value> r = call_columns(*arg, c)) return std::move(*r);
      const dynamic_value m = with_members(*arg);
      return call_members(&m, c);
    }
    return call_members(arg, c);
  }

 private:
  // The intrinsics that read a column as it is (run/client_column.hpp); nullopt: this call needs
  // the members.
  std::optional<dynamic_value> call_columns(const dynamic_value& arg, run_context& c) const {
    const std::size_t n = c.clients();
    const std::size_t r = row_;
    if (r == row_index<row::federated_map>) {
      if (!arg.is(value_kind::struct_) || arg.structure().elements.size() != 2) return std::nullopt;
      const dynamic_value& fn = arg.structure().elements[0];
      const dynamic_value& v = arg.structure().elements[1];
      if (!fn.is(value_kind::function) || !column_of(&v, n)) return std::nullopt;
      return fn.function().impl->call_rows(v.federated().column, c);
    }
    if (aggregation_ && *aggregation_ != aggregation_kind::secure_sum && *aggregation_ != aggregation_kind::aggregate) {
      const bool weighted = *aggregation_ == aggregation_kind::weighted_mean;
      if (weighted && (!arg.is(value_kind::struct_) || arg.structure().elements.size() != 2)) return std::nullopt;
      const tensor_data* col = column_of(weighted ? &arg.structure().elements[0] : &arg, n);
      const tensor_data* wcol = weighted ? column_of(&arg.structure().elements[1], n) : nullptr;
      if (!col || (weighted && (!wcol || wcol->size() != n))) return std::nullopt;
      const aggregation_rule rule(*aggregation_, n);
      const typed p = type_.param(), wt = weighted ? p.kid(1).member() : p;
      aggregation_rule::state s = rule.start(weighted ? p.kid(0).member() : p.member(), weighted ? &wt : nullptr);
      if (!rule.accumulate_rows(s, *col, wcol)) return std::nullopt;  // the members' way names the dtype
      return at(placement_kind::server, rule.report(s));
    }
    return std::nullopt;
  }

  // The column v holds for all n clients, or null.
  static const tensor_data* column_of(const dynamic_value* v, std::size_t n) {
    if (!v->is(value_kind::federated) || !v->federated().column) return nullptr;
    const tensor_data* col = v->federated().column.get();
    return column_rows(*col) == n ? col : nullptr;
  }
  dynamic_value call_members(const dynamic_value* arg, run_context& c) const {
    const std::size_t n = c.clients();
    const std::size_t r = row_;
    const std::string& what = what_;
    auto need = [&]() -> const dynamic_value& {
      if (!arg || !*arg) throw run_fault(what + ": called without its argument");
      return *arg;
    };
    if (r == row_index<row::federated_broadcast>) {
      const federated_data& f = federated_of(need(), what.c_str());
      return at(placement_kind::clients, f.members.front());
    }
    if (facts_.kind == intrinsic_kind::value) return at(facts_.where, need());
    if (facts_.kind == intrinsic_kind::map && facts_.placed) {  // map, map_all_equal, apply
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const federated_data& v = federated_of(element(need(), 1, what.c_str()), what.c_str());
      if (v.where == placement_kind::server) return at(v.where, detail::call(fn, v.members.front(), c));
      if (r == row_index<row::federated_map_all_equal>) {
        if (!v.all_equal) throw run_fault(what + ": its argument is not all_equal");
        return at(v.where, detail::call(fn, v.members.front(), c));
      }
      clients_of(element(need(), 1, what.c_str()), n, what.c_str());
      if (fn.is(value_kind::function) && fn.function().impl->pure() && n != 0 && !c.taps()) {
        // A function of its argument alone: once for clients that share it, and over all the
        // clients' tensors at once where they have one dtype and shape (with taps: client by
        // client, each client's values given to them).
        if (v.all_equal)
          return make_federated(v.where, false, std::vector<dynamic_value>(n, detail::call(fn, v.members.front(), c)));
        if (const auto col = as_column(v, n))
          if (std::optional<dynamic_value> r = fn.function().impl->call_rows(col, c)) return std::move(*r);
      }
      return per_client(c, uri_, [&](std::size_t i) { return detail::call(fn, member(v, i), c); });
    }
    if (facts_.kind == intrinsic_kind::eval && facts_.per_client)
      return per_client(c, uri_, [&](std::size_t) { return detail::call(need(), nullptr, c); });
    if (facts_.kind == intrinsic_kind::eval) return at(facts_.where, detail::call(need(), nullptr, c));
    if (aggregation_ == aggregation_kind::sum || aggregation_ == aggregation_kind::mean ||
        aggregation_ == aggregation_kind::secure_sum) {
      const bool secure = aggregation_ == aggregation_kind::secure_sum;
      const dynamic_value& vv = secure ? element(need(), 0, what.c_str()) : need();
      const federated_data& v = clients_of(vv, n, what.c_str());
      const typed mt = (secure ? type_.param().kid(0) : type_.param()).member();
      if (secure) {
        const dynamic_value& b = element(need(), 1, what.c_str());
        const dynamic_value bound = r == row_index<row::federated_secure_sum> ? b : bitwidth_bound(b, what.c_str());
        if (n != 0) check_bound_leaves(bound, what.c_str());  // no clients: the zero, as TFF gives
        for (std::size_t i = 0; i != n; ++i) check_bounds(member(v, i), bound, what.c_str(), i);
      }
      return at(placement_kind::server, aggregation_rule(*aggregation_, n).fold(v, nullptr, mt));
    }
    if (r == row_index<row::federated_secure_modular_sum>) {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      return at(placement_kind::server, modular_sum(v, n, element(need(), 1, what.c_str()),
                                                    type_.param().kid(0).member(), what.c_str()));
    }
    if (aggregation_ == aggregation_kind::weighted_mean) {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const federated_data& wt = clients_of(element(need(), 1, what.c_str()), n, what.c_str());
      const typed wtt = type_.param().kid(1).member();
      return at(placement_kind::server, aggregation_rule(*aggregation_, n).fold(v, &wt, type_.param().kid(0).member(), &wtt));
    }
    if (aggregation_ == aggregation_kind::min || aggregation_ == aggregation_kind::max) {
      const federated_data& v = clients_of(need(), n, what.c_str());
      return at(placement_kind::server, aggregation_rule(*aggregation_, n).fold(v, nullptr, type_.param().member()));
    }
    if (aggregation_ == aggregation_kind::aggregate) {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const aggregation_rule rule({&element(need(), 1, what.c_str()), &element(need(), 2, what.c_str()),
                                   &element(need(), 3, what.c_str()), &element(need(), 4, what.c_str())},
                                  n, c);
      return at(placement_kind::server, rule.fold(v, nullptr, type_.param()));
    }
    if (facts_.kind == intrinsic_kind::broadcast && facts_.per_client) {  // the selects
      const federated_data& keys = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const dynamic_value& server = federated_of(element(need(), 2, what.c_str()), what.c_str()).members.front();
      const dynamic_value& fn = element(need(), 3, what.c_str());
      return per_client(c, uri_, [&](std::size_t i) {
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
    if (facts_.kind == intrinsic_kind::zip) {
      const placement_kind where = facts_.where;
      const dynamic_value& v = need();
      zip_check(v, n, where);
      if (where == placement_kind::server || zip_all_equal(v)) return at(where, zip_member(v, 0));
      std::vector<dynamic_value> out(n);
      for (std::size_t i = 0; i != n; ++i) out[i] = zip_member(v, i);
      return make_federated(where, false, std::move(out));
    }
    if (r == row_index<row::generic_plus> || r == row_index<row::generic_multiply>) {
      const binary_op op = r == row_index<row::generic_plus> ? binary_op::plus : binary_op::multiply;
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [op](const tensor_data& x, const tensor_data& y, typed) {
                         return tensor_op(op, x, y);
                       });
    }
    if (r == row_index<row::generic_divide>) {
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [](const tensor_data& x, const tensor_data& y, typed r) {
                         const dtype to = r.node().kind == type_kind::tensor ? r.node().dt : x.dt;
                         return divide_tensor(x, y, to);
                       });
    }
    if (r == row_index<row::sequence_map>) {
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const dynamic_value& s = element(need(), 1, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      std::vector<dynamic_value> out;
      for (const dynamic_value& e : s.sequence().elements) out.push_back(detail::call(fn, e, c));
      return make_sequence(std::move(out));
    }
    if (r == row_index<row::sequence_reduce>) {
      const dynamic_value& s = element(need(), 0, what.c_str());
      const dynamic_value& op = element(need(), 2, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      dynamic_value acc = element(need(), 1, what.c_str());
      for (const dynamic_value& e : s.sequence().elements) acc = detail::call(op, make_struct_value({acc, e}), c);
      return acc;
    }
    if (r == row_index<row::sequence_sum>) {
      const dynamic_value& s = need();
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      const typed et = type_.param().member();
      leaf_accumulator acc(zero_of(et, n));
      for (const dynamic_value& e : s.sequence().elements) acc.update(e, add_leaf);
      return acc.result();
    }
    throw run_fault("unknown intrinsic " + what);
  }

  std::string_view uri_;
  std::string what_;  // the uri, for messages
  typed type_;
  std::size_t row_;  // in intrinsic_entries
  intrinsic_facts facts_;
  std::optional<aggregation_kind> aggregation_;  // (run/aggregation_rule.hpp)
};

// The intrinsics that are values, not functions: generic_zero.
inline bool is_value_intrinsic(std::string_view uri) {
  return intrinsic_facts_of(uri).kind == intrinsic_kind::constant;
}

}  // namespace ctff::detail
