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
#include "ctff/types/signatures.hpp"

namespace ctff::detail {

// The intrinsics by their row in the intrinsic table (types/signatures.hpp): an intrinsic
// function value finds its row once, when its program is prepared, and dispatches on it.
template <class... Rows>
constexpr std::array<std::string_view, sizeof...(Rows)> uris_of(intrinsic_rows<Rows...>) {
  return {Rows::uri...};
}
inline constexpr auto intrinsic_uris = uris_of(intrinsic_table{});
constexpr std::size_t intrinsic_row_of(std::string_view uri) {
  std::size_t k = 0;
  while (k != intrinsic_uris.size() && intrinsic_uris[k] != uri) ++k;
  return k;  // (intrinsic_uris.size(): none)
}
// The row of a uri the table has, at compile time.
consteval std::size_t row_at(std::string_view uri) {
  const std::size_t k = intrinsic_row_of(uri);
  if (k == intrinsic_uris.size()) throw "not an intrinsic of the table";
  return k;
}

// An intrinsic as a function value: its uri and its type in the tree.
class intrinsic_fn final : public function_impl {
 public:
  intrinsic_fn(std::string_view uri, typed type) : uri_(uri), what_(uri), type_(type), row_(intrinsic_row_of(uri)) {}
  std::string describe() const override { return std::string(uri_); }
  std::string_view intrinsic_uri() const override { return uri_; }
  // (Those whose calls below go through per_client.)
  bool runs_per_client() const override {
    return row_ == row_at("federated_map") || row_ == row_at("federated_eval_at_clients") ||
           row_ == row_at("federated_select") || row_ == row_at("federated_secure_select");
  }

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
    if (r == row_at("federated_map")) {
      if (!arg.is(value_kind::struct_) || arg.structure().elements.size() != 2) return std::nullopt;
      const dynamic_value& fn = arg.structure().elements[0];
      const dynamic_value& v = arg.structure().elements[1];
      if (!fn.is(value_kind::function) || !column_of(&v, n)) return std::nullopt;
      return fn.function().impl->call_rows(v.federated().column, c);
    }
    if (r == row_at("federated_sum") || r == row_at("federated_mean")) {
      const tensor_data* col = column_of(&arg, n);
      if (!col) return std::nullopt;
      dynamic_value zero = zero_of(type_.param().member(), n);
      if (!zero.is(value_kind::tensor)) return std::nullopt;
      tensor_data acc = zero.tensor();
      if (!sum_rows(acc, *col)) return std::nullopt;
      dynamic_value s(std::move(acc));
      if (r == row_at("federated_mean")) s = divide_leaves(s, {}, true, static_cast<double>(n));
      return at(placement_kind::server, std::move(s));
    }
    if (r == row_at("federated_min") || r == row_at("federated_max")) {
      const tensor_data* col = column_of(&arg, n);
      if (!col) return std::nullopt;
      const bool min = r == row_at("federated_min");
      const dynamic_value start = extreme_start(type_.param().member(), min);
      if (!start.is(value_kind::tensor) || !rows_fit(start.tensor(), *col)) return std::nullopt;
      tensor_data acc = start.tensor();
      bool done = false;
      visit_dtype(acc.dt, [&](auto d) {
        constexpr dtype D = decltype(d)::value;
        if constexpr (has_extremes<D>) {
          const auto* y = col->get<D>().data();
          for (std::size_t row = 0; row != n; ++row) extreme_into<D>(acc.get<D>(), y + row * acc.size(), min);
          done = true;
        }
      });
      if (!done) return std::nullopt;  // the members' way names the dtype
      return at(placement_kind::server, dynamic_value(std::move(acc)));
    }
    if (r == row_at("federated_weighted_mean")) {
      if (!arg.is(value_kind::struct_) || arg.structure().elements.size() != 2) return std::nullopt;
      const tensor_data* col = column_of(&arg.structure().elements[0], n);
      const tensor_data* wcol = column_of(&arg.structure().elements[1], n);
      if (!col || !wcol || wcol->size() != n) return std::nullopt;
      const dynamic_value zero = zero_of(type_.param().kid(0).member(), n);
      const dynamic_value wzero = zero_of(type_.param().kid(1).member(), n);
      if (!zero.is(value_kind::tensor) || !wzero.is(value_kind::tensor) || !rows_fit(zero.tensor(), *col) ||
          !arithmetic_dtype(wcol->dt))
        return std::nullopt;
      tensor_data num = zero.tensor(), den = wzero.tensor();
      if (!sum_rows(den, *wcol)) return std::nullopt;
      bool done = false;
      visit_dtype(num.dt, [&](auto d) {
        constexpr dtype D = decltype(d)::value;
        if constexpr (is_floating(D) || is_complex(D)) {
          auto& x = num.get<D>();
          const auto* y = col->get<D>().data();
          const std::vector<compute_t<D>> w = load_as<D>(*wcol);
          for (std::size_t row = 0; row != n; ++row, y += x.size())
            scaled_op_into<D, binary_op::plus>(x, [y](std::size_t k) { return numeric<D>::load(y[k]); }, w[row]);
          done = true;
        }
      });
      if (!done) return std::nullopt;  // the members' way names the dtype
      return at(placement_kind::server, divide_leaves(dynamic_value(std::move(num)), dynamic_value(std::move(den)), false, 0));
    }
    return std::nullopt;
  }

  // The column v holds for all n clients, or null.
  static const tensor_data* column_of(const dynamic_value* v, std::size_t n) {
    if (!v->is(value_kind::federated) || !v->federated().column) return nullptr;
    const tensor_data* col = v->federated().column.get();
    return column_rows(*col) == n ? col : nullptr;
  }
  // Whether col's rows are tensors of acc's dtype and shape.
  static bool rows_fit(const tensor_data& acc, const tensor_data& col) {
    return col.dt == acc.dt && col.shape.size() == acc.shape.size() + 1 &&
           std::equal(acc.shape.begin(), acc.shape.end(), col.shape.begin() + 1);
  }

  // acc + row, row after row in client order, exactly as add_leaf adds each client's tensor
  // (run/arith.hpp tensor_op_into, equal shapes); false: rows of another dtype or size.
  static bool sum_rows(tensor_data& acc, const tensor_data& col) {
    const std::size_t rows = column_rows(col), per = acc.size();
    if (col.dt != acc.dt || col.size() != rows * per || !arithmetic_dtype(acc.dt)) return false;
    visit_dtype(acc.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      if constexpr (D != dtype::str && D != dtype::bool_) {
        using N = numeric<D>;
        auto& x = acc.get<D>();
        const auto& y = col.get<D>();
        if (per == 1) {  // a scalar per client: kept in a register (integers' wrapping sum vectorizes)
          auto a = N::load(x[0]);
          for (std::size_t r = 0; r != rows; ++r) a = N::load(N::store(apply_op<binary_op::plus>(a, N::load(y[r]))));
          x[0] = N::store(a);
          return;
        }
        for (std::size_t r = 0; r != rows; ++r) {
          const auto* row = y.data() + r * per;
          for (std::size_t k = 0; k != per; ++k)
            x[k] = N::store(apply_op<binary_op::plus>(N::load(x[k]), N::load(row[k])));
        }
      }
    });
    return true;
  }

  dynamic_value call_members(const dynamic_value* arg, run_context& c) const {
    const std::size_t n = c.clients();
    const std::size_t r = row_;
    const std::string& what = what_;
    auto need = [&]() -> const dynamic_value& {
      if (!arg || !*arg) throw run_fault(what + ": called without its argument");
      return *arg;
    };
    if (r == row_at("federated_broadcast")) {
      const federated_data& f = federated_of(need(), what.c_str());
      return at(placement_kind::clients, f.members.front());
    }
    if (r == row_at("federated_value_at_clients")) return at(placement_kind::clients, need());
    if (r == row_at("federated_value_at_server")) return at(placement_kind::server, need());
    if (r == row_at("federated_map") || r == row_at("federated_map_all_equal") || r == row_at("federated_apply")) {
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const federated_data& v = federated_of(element(need(), 1, what.c_str()), what.c_str());
      if (v.where == placement_kind::server) return at(v.where, detail::call(fn, v.members.front(), c));
      if (r == row_at("federated_map_all_equal")) {
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
    if (r == row_at("federated_eval_at_clients"))
      return per_client(c, uri_, [&](std::size_t) { return detail::call(need(), nullptr, c); });
    if (r == row_at("federated_eval_at_server"))
      return at(placement_kind::server, detail::call(need(), nullptr, c));
    if (r == row_at("federated_sum") || r == row_at("federated_mean") || r == row_at("federated_secure_sum") ||
        r == row_at("federated_secure_sum_bitwidth")) {
      const bool secure = r == row_at("federated_secure_sum") || r == row_at("federated_secure_sum_bitwidth");
      const dynamic_value& vv = secure ? element(need(), 0, what.c_str()) : need();
      const federated_data& v = clients_of(vv, n, what.c_str());
      const typed mt = (secure ? type_.param().kid(0) : type_.param()).member();
      if (secure) {
        const dynamic_value& b = element(need(), 1, what.c_str());
        const dynamic_value bound = r == row_at("federated_secure_sum") ? b : bitwidth_bound(b, what.c_str());
        if (n != 0) check_bound_leaves(bound, what.c_str());  // no clients: the zero, as TFF gives
        for (std::size_t i = 0; i != n; ++i) check_bounds(member(v, i), bound, what.c_str(), i);
      }
      leaf_accumulator acc(zero_of(mt, n));
      for (std::size_t i = 0; i != n; ++i) acc.update(member(v, i), add_leaf);
      dynamic_value s = acc.result();
      if (r == row_at("federated_mean")) s = divide_leaves(s, {}, true, static_cast<double>(n));
      return at(placement_kind::server, std::move(s));
    }
    if (r == row_at("federated_secure_modular_sum")) {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      return at(placement_kind::server, modular_sum(v, n, element(need(), 1, what.c_str()),
                                                    type_.param().kid(0).member(), what.c_str()));
    }
    if (r == row_at("federated_weighted_mean")) {
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
    if (r == row_at("federated_min") || r == row_at("federated_max")) {
      const bool min = r == row_at("federated_min");
      const federated_data& v = clients_of(need(), n, what.c_str());
      leaf_accumulator acc(extreme_start(type_.param().member(), min));
      for (std::size_t i = 0; i != n; ++i)
        acc.update(member(v, i), [min](tensor_data& a, const tensor_data& x) { extreme_of(a, x, min); });
      return at(placement_kind::server, acc.result());
    }
    if (r == row_at("federated_aggregate")) {
      const federated_data& v = clients_of(element(need(), 0, what.c_str()), n, what.c_str());
      const dynamic_value& accumulate = element(need(), 2, what.c_str());
      const dynamic_value& report = element(need(), 4, what.c_str());
      dynamic_value acc = fold_clients(v, n, element(need(), 1, what.c_str()),
                               [&](const dynamic_value& a, const dynamic_value& x) {
                                 return detail::call(accumulate, make_struct_value({a, x}), c);
                               });
      return at(placement_kind::server, detail::call(report, acc, c));
    }
    if (r == row_at("federated_select") || r == row_at("federated_secure_select")) {
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
    if (r == row_at("federated_zip_at_clients") || r == row_at("federated_zip_at_server")) {
      const placement_kind where =
          r == row_at("federated_zip_at_clients") ? placement_kind::clients : placement_kind::server;
      const dynamic_value& v = need();
      zip_check(v, n, where);
      if (where == placement_kind::server || zip_all_equal(v)) return at(where, zip_member(v, 0));
      std::vector<dynamic_value> out(n);
      for (std::size_t i = 0; i != n; ++i) out[i] = zip_member(v, i);
      return make_federated(where, false, std::move(out));
    }
    if (r == row_at("generic_plus") || r == row_at("generic_multiply")) {
      const binary_op op = r == row_at("generic_plus") ? binary_op::plus : binary_op::multiply;
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [op](const tensor_data& x, const tensor_data& y, typed) {
                         return tensor_op(op, x, y);
                       });
    }
    if (r == row_at("generic_divide")) {
      return pointwise(element(need(), 0, what.c_str()), element(need(), 1, what.c_str()),
                       type_.result(), n,
                       [](const tensor_data& x, const tensor_data& y, typed r) {
                         const dtype to = r.node().kind == type_kind::tensor ? r.node().dt : x.dt;
                         return divide_tensor(x, y, to);
                       });
    }
    if (r == row_at("sequence_map")) {
      const dynamic_value& fn = element(need(), 0, what.c_str());
      const dynamic_value& s = element(need(), 1, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      std::vector<dynamic_value> out;
      for (const dynamic_value& e : s.sequence().elements) out.push_back(detail::call(fn, e, c));
      return make_sequence(std::move(out));
    }
    if (r == row_at("sequence_reduce")) {
      const dynamic_value& s = element(need(), 0, what.c_str());
      const dynamic_value& op = element(need(), 2, what.c_str());
      if (!s.is(value_kind::sequence)) throw run_fault(what + ": not a sequence");
      dynamic_value acc = element(need(), 1, what.c_str());
      for (const dynamic_value& e : s.sequence().elements) acc = detail::call(op, make_struct_value({acc, e}), c);
      return acc;
    }
    if (r == row_at("sequence_sum")) {
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
  std::size_t row_;  // in intrinsic_uris
};

// The intrinsics that are values, not functions: generic_zero.
inline bool is_value_intrinsic(std::string_view uri) { return uri == "generic_zero"; }

}  // namespace ctff::detail
