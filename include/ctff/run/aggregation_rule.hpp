// The federated aggregations, each written once as a fold over the clients' members:
//   start       the state before any client: zeros of the member's type (sums, means), the
//               identity (min, max), federated_aggregate's zero;
//   accumulate  one client's member (and weight) folded in, in client order;
//   merge       a slice's partial result folded in, in slice order: the slice's sum or extreme,
//               its weighted mean with its total weight (merged as a client with that weight),
//               federated_aggregate's accumulator (the first partial starts the merge: the zero is
//               folded in once per slice, as TFF's composing executor does);
//   report      the result: the mean divides by the number of clients, federated_aggregate calls
//               its report.
// The executor folds the clients (run/intrinsics.hpp); with aggregate_on_workers the controller
// merges the workers' partial results (remote/worker_aggregation.hpp). Both orders are fixed, so
// results do not depend on timing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/intrinsic_steps.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// The aggregation an intrinsic runs (its row's fact, types/signatures.hpp), or nullopt.
inline std::optional<aggregation_kind> aggregation_of(std::string_view uri) {
  const aggregation_kind k = intrinsic_facts_of(uri).aggregation;
  if (k == aggregation_kind::none) return std::nullopt;
  return k;
}

// Zeros of the structure, dtypes and shapes of v (a partial result: tensors and structs).
inline dynamic_value zeros_like(const dynamic_value& v) {
  if (v.is(value_kind::tensor)) return dynamic_value(zero_tensor(v.tensor().dt, v.tensor().shape));
  if (!v.is(value_kind::struct_)) throw run_fault("a partial aggregate that is not a tensor or struct");
  std::vector<dynamic_value> e;
  for (const dynamic_value& x : v.structure().elements) e.push_back(zeros_like(x));
  return make_struct_value(std::move(e), v.structure().names);
}

inline bool all_zero(const tensor_data& t) {
  for (double x : load_as<dtype::float64>(t))
    if (x != 0) return false;
  return true;
}

// federated_aggregate's functions (and zero), as its argument holds them.
struct aggregate_functions {
  const dynamic_value* zero;
  const dynamic_value* accumulate;
  const dynamic_value* merge;
  const dynamic_value* report;
};

class aggregation_rule {
 public:
  // The fold's state: the leaves of the sum or extreme (a weighted mean's numerator) and of a
  // weighted mean's total weight, updated in place; federated_aggregate's accumulator.
  struct state {
    std::optional<leaf_accumulator> acc, weight;
    dynamic_value value;
  };

  // `clients`: how many the whole aggregation has (the mean's divisor).
  aggregation_rule(aggregation_kind kind, std::size_t clients) : kind_(kind), clients_(clients) {}
  aggregation_rule(const aggregate_functions& f, std::size_t clients, run_context& c)
      : kind_(aggregation_kind::aggregate), clients_(clients), f_(f), c_(&c) {}

  aggregation_kind kind() const { return kind_; }
  bool weighted() const { return kind_ == aggregation_kind::weighted_mean; }

  // Before any client; member (and weight): the clients' member types (federated_aggregate starts
  // from its zero).
  state start(typed member, const typed* weight = nullptr) const {
    state s;
    switch (kind_) {
      case aggregation_kind::min:
      case aggregation_kind::max: s.acc.emplace(extreme_start(member, kind_ == aggregation_kind::min)); break;
      case aggregation_kind::aggregate: s.value = *f_.zero; break;
      default:
        s.acc.emplace(zero_of(member, clients_));
        if (kind_ == aggregation_kind::weighted_mean) s.weight.emplace(zero_of(*weight, clients_));
    }
    return s;
  }
  // Before any slice's partial result.
  state merging() const { return {}; }

  void accumulate(state& s, const dynamic_value& x, const dynamic_value* weight = nullptr) const {
    with_step([&](const auto& step) { step(s, x, weight); });
  }

  // A slice's partial result (a weighted mean's: the slice's mean, with its total weight); false
  // when a weighted mean's slice has no weight (its mean is 0/0): nothing merged, the slice's
  // clients are to be accumulated instead.
  bool merge(state& s, const dynamic_value& partial, const dynamic_value* weight = nullptr) const {
    switch (kind_) {
      case aggregation_kind::min:
      case aggregation_kind::max:
        if (!s.acc) {
          s.acc.emplace(partial);
          return true;
        }
        accumulate(s, partial);
        return true;
      case aggregation_kind::weighted_mean:
        if (!s.acc) {
          s.acc.emplace(zeros_like(partial));
          s.weight.emplace(zeros_like(*weight));
        }
        if (all_zero(tensor_of(*weight, row::federated_weighted_mean::uri.data()))) return false;
        accumulate(s, partial, weight);
        return true;
      case aggregation_kind::aggregate:
        s.value = s.value ? detail::call(*f_.merge, make_struct_value({s.value, partial}), *c_) : partial;
        return true;
      default:
        if (!s.acc) s.acc.emplace(zeros_like(partial));
        accumulate(s, partial);
        return true;
    }
  }

  dynamic_value report(state& s) const {
    switch (kind_) {
      case aggregation_kind::mean: return divide_leaves(s.acc->result(), {}, true, static_cast<double>(clients_));
      case aggregation_kind::weighted_mean: return divide_leaves(s.acc->result(), s.weight->result(), false, 0);
      case aggregation_kind::aggregate: return detail::call(*f_.report, s.value, *c_);
      default: return s.acc->result();
    }
  }

  // The clients' members (of v, weights of w) folded in client order from start(t, weight), reported.
  dynamic_value fold(const federated_data& v, const federated_data* w, typed t, const typed* weight = nullptr) const {
    state s = start(t, weight);
    with_step([&](const auto& step) {  // (the kind chosen once, not per client)
      for (std::size_t i = 0; i != clients_; ++i) step(s, member(v, i), w ? &member(*w, i) : nullptr);
    });
    return report(s);
  }

  // A column's rows (run/client_column.hpp: one per client) folded in, in client order, as
  // accumulate folds members (the sums, extremes and weighted mean of a tensor); false where
  // this is not such a fold (s is then spent: the members' way names what is wrong).
  bool accumulate_rows(state& s, const tensor_data& col, const tensor_data* wcol) const {
    tensor_data* acc = s.acc ? s.acc->leaf() : nullptr;
    if (!acc) return false;
    switch (kind_) {
      case aggregation_kind::sum:
      case aggregation_kind::mean: return sum_rows(*acc, col);
      case aggregation_kind::min:
      case aggregation_kind::max: {
        if (!rows_fit(*acc, col)) return false;
        const bool min = kind_ == aggregation_kind::min;
        bool done = false;
        visit_dtype(acc->dt, [&](auto d) {
          constexpr dtype D = decltype(d)::value;
          if constexpr (has_extremes<D>) {
            const auto* y = col.get<D>().data();
            for (std::size_t row = 0; row != clients_; ++row) extreme_into<D>(acc->get<D>(), y + row * acc->size(), min);
            done = true;
          }
        });
        return done;
      }
      case aggregation_kind::weighted_mean: {
        tensor_data* den = s.weight->leaf();
        if (!wcol || wcol->size() != clients_ || !den || !rows_fit(*acc, col) || !arithmetic_dtype(wcol->dt) ||
            !sum_rows(*den, *wcol))
          return false;
        bool done = false;
        visit_dtype(acc->dt, [&](auto d) {
          constexpr dtype D = decltype(d)::value;
          if constexpr (is_floating(D) || is_complex(D)) {
            auto& x = acc->get<D>();
            const auto* y = col.get<D>().data();
            const std::vector<compute_t<D>> w = load_as<D>(*wcol);
            for (std::size_t row = 0; row != clients_; ++row, y += x.size())
              scaled_op_into<D, binary_op::plus>(x, [y](std::size_t k) { return numeric<D>::load(y[k]); }, w[row]);
            done = true;
          }
        });
        return done;
      }
      default: return false;
    }
  }

 private:
  // use(step), step(state&, member, weight) being this rule's accumulate.
  template <class Use>
  void with_step(const Use& use) const {
    switch (kind_) {
      case aggregation_kind::min:
      case aggregation_kind::max: {
        const bool min = kind_ == aggregation_kind::min;
        return use([min](state& s, const dynamic_value& x, const dynamic_value*) {
          s.acc->update(x, [min](tensor_data& a, const tensor_data& y) { extreme_of(a, y, min); });
        });
      }
      case aggregation_kind::weighted_mean:
        return use([](state& s, const dynamic_value& x, const dynamic_value* weight) {
          const tensor_data& w = tensor_of(*weight, row::federated_weighted_mean::uri.data());
          s.acc->update(x, [&](tensor_data& a, const tensor_data& y) {
            check_mean_member(a.dt);
            tensor_op_into(binary_op::plus, a, y, &w);
          });
          s.weight->update(*weight, add_leaf);
        });
      case aggregation_kind::aggregate:
        return use([this](state& s, const dynamic_value& x, const dynamic_value*) {
          s.value = detail::call(*f_.accumulate, make_struct_value({s.value, x}), *c_);
        });
      default: return use([](state& s, const dynamic_value& x, const dynamic_value*) { s.acc->update(x, add_leaf); });
    }
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

  aggregation_kind kind_;
  std::size_t clients_;
  aggregate_functions f_{};
  run_context* c_ = nullptr;
};

}  // namespace ctff::detail
