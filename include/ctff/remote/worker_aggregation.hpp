// Aggregations of CLIENTS values the workers hold (remote_options::aggregate_on_workers), as
// TFF's composing executor runs them: each worker aggregates its slice, the partial results come
// back and are merged here in worker order, so results do not depend on timing.
//   - federated_sum, federated_mean: the slices' sums (federated_sum), added from the zero in
//     worker order; the mean divides by N as the local executor does;
//   - federated_min, federated_max: the slices' extremes, compared in worker order (the same
//     result as a local run, ties and NaN included);
//   - federated_secure_sum(_bitwidth): the bounds checked on each worker, the sums added;
//   - federated_weighted_mean: each slice's weighted mean and total weight (federated_sum of the
//     weights), merged as the local executor merges clients: sum of mean * weight over the sum
//     of weights. A slice whose weights sum to zero (its mean 0/0) is fetched and its clients'
//     terms added instead;
//   - federated_aggregate: each slice folded from the zero with accumulate, reporting the
//     accumulator; the partials merged with merge in worker order, report run here.
// Integer results are those of a local run; float sums are regrouped (per slice, then across).
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/remote/held_clients.hpp"
#include "ctff/remote/shipped_computations.hpp"
#include "ctff/remote/slice_requests.hpp"
#include "ctff/run/aggregation.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/intrinsic_steps.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Zeros of the structure, dtypes and shapes of v (a partial aggregate: tensors and structs).
inline dynamic_value zeros_like(const dynamic_value& v) {
  if (v.is(value_kind::tensor)) return dynamic_value(zero_tensor(v.tensor().dt, v.tensor().shape));
  if (!v.is(value_kind::struct_)) throw run_fault("a partial aggregate that is not a tensor or struct");
  std::vector<dynamic_value> e;
  for (const dynamic_value& x : v.structure().elements) e.push_back(zeros_like(x));
  return make_struct_value(std::move(e), v.structure().names);
}

// f(requests, slice, what) on every slice's worker at once; the results in worker order. A
// worker that no longer has the executor holding the slice cannot be given it again.
template <class F>
auto per_slice(const held_clients& h, std::string_view uri, const F& f) {
  return on_each_worker(h.slices().size(), [&](std::size_t k) {
    const held_slice& s = h.slices()[k];
    slice_requests rq(*s.link, s.executor);
    // Errors of the worker's run (a secure sum's bound) number its clients from 0.
    const std::string what = "CreateCall (" + std::string(uri) + " of clients " + std::to_string(s.begin) + " to " +
                             std::to_string(s.end - 1) + ", numbered from 0 there)";
    try {
      return f(rq, s, what.c_str());
    } catch (const executor_gone&) {
      lost_values(*s.link, s.executor, "CreateCall");
    }
  });
}

inline dynamic_value sum_partials(const std::vector<dynamic_value>& parts) {
  leaf_accumulator acc(zeros_like(parts.front()));
  for (const dynamic_value& p : parts) acc.update(p, add_leaf);
  return acc.result();
}

inline bool all_zero(const tensor_data& t) {
  for (double x : load_as<dtype::float64>(t))
    if (x != 0) return false;
  return true;
}

// The aggregation `uri` (the intrinsic fn, called with arg) run on the workers holding its
// CLIENTS operand; nullopt when that operand is not held by them (or the call cannot be shipped):
// the executor then runs it here.
inline std::optional<dynamic_value> aggregate_held(std::string_view uri, const dynamic_value& fn,
                                                   const dynamic_value& arg, std::size_t n, run_context& c) {
  const bool plain = uri == "federated_sum" || uri == "federated_mean" || uri == "federated_min" || uri == "federated_max";
  const bool secure = uri == "federated_secure_sum" || uri == "federated_secure_sum_bitwidth";
  const bool weighted = uri == "federated_weighted_mean", aggregate = uri == "federated_aggregate";
  if (!plain && !secure && !weighted && !aggregate) return std::nullopt;
  const std::size_t arity = plain ? 0 : aggregate ? 5 : 2;
  if (arity && (!arg.is(value_kind::struct_) || arg.structure().elements.size() != arity)) return std::nullopt;
  const held_clients* h = held_clients::of(arity ? arg.structure().elements[0] : arg);
  if (!h || h->clients() != n || n == 0) return std::nullopt;
  std::optional<federated_language::Computation> ic = shipped_intrinsic(fn);
  if (!ic) return std::nullopt;
  const std::string create_intrinsic = "CreateValue (" + std::string(uri) + ")";

  if (plain) {
    if (uri == "federated_mean") ic->mutable_intrinsic()->set_uri("federated_sum");  // the same type
    const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what) {
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      return rq.compute_at_server(rq.call(f, s.ref, what), "Compute (a partial aggregate)");
    });
    if (uri == "federated_min" || uri == "federated_max") {
      const bool min = uri == "federated_min";
      leaf_accumulator acc(parts.front());
      for (std::size_t k = 1; k != parts.size(); ++k)
        acc.update(parts[k], [min](tensor_data& a, const tensor_data& x) { extreme_of(a, x, min); });
      return at(placement_kind::server, acc.result());
    }
    dynamic_value s = sum_partials(parts);
    if (uri == "federated_mean") s = divide_leaves(s, {}, true, static_cast<double>(n));
    return at(placement_kind::server, std::move(s));
  }

  const std::vector<dynamic_value>& e = arg.structure().elements;
  if (secure) {
    tensorflow_federated::v0::Value bound;
    try {
      bound = to_message(e[1]);
    } catch (const std::exception&) {
      return std::nullopt;  // (the executor's own checks then say what is wrong with it)
    }
    const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what) {
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      const std::string a = rq.structure({s.ref, rq.value(bound, "CreateValue (the bound)")}, "CreateStruct");
      return rq.compute_at_server(rq.call(f, a, what), "Compute (a partial sum)");
    });
    return at(placement_kind::server, sum_partials(parts));
  }

  if (weighted) {
    const held_clients* hw = held_clients::of(e[1]);
    const auto& param = ic->type().function().parameter();
    if (!hw || !h->aligned(*hw) || !param.has_struct_() || param.struct_().element_size() != 2 ||
        !param.struct_().element(1).value().has_federated())
      return std::nullopt;
    const federated_language::Computation weight_sum =
        federated_sum_of(param.struct_().element(1).value(), ic->type().function().result());
    struct part {
      dynamic_value mean, weight;
    };
    const std::vector<part> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what) {
      const std::string& w = hw->slices()[static_cast<std::size_t>(&s - h->slices().data())].ref;
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      const std::string g = rq.computation(weight_sum, "CreateValue (federated_sum of the weights)");
      part p;
      p.mean = rq.compute_at_server(rq.call(f, rq.structure({s.ref, w}, "CreateStruct"), what), "Compute (a partial mean)");
      p.weight = rq.compute_at_server(rq.call(g, w, "CreateCall (federated_sum of the weights)"), "Compute (a partial weight)");
      return p;
    });
    leaf_accumulator num(zeros_like(parts.front().mean)), den(zeros_like(parts.front().weight));
    auto add = [&](const dynamic_value& x, const dynamic_value& w) {
      const tensor_data& wt = tensor_of(w, "federated_weighted_mean");
      num.update(x, [&](tensor_data& acc, const tensor_data& y) { tensor_op_into(binary_op::plus, acc, y, &wt); });
      den.update(w, add_leaf);
    };
    for (std::size_t k = 0; k != parts.size(); ++k) {
      if (!all_zero(tensor_of(parts[k].weight, "federated_weighted_mean"))) {
        add(parts[k].mean, parts[k].weight);
        continue;
      }
      const std::vector<dynamic_value> xs = h->fetch_slice(k), ws = hw->fetch_slice(k);
      for (std::size_t i = 0; i != xs.size(); ++i) add(xs[i], ws[i]);
    }
    return at(placement_kind::server, divide_leaves(num.result(), den.result(), false, 0));
  }

  // federated_aggregate
  // (accumulate runs there: the run's taps inside it go with it.)
  const std::optional<function_writer::written> accumulate_written = written_function(e[2]);
  std::optional<federated_language::Computation> partial = partial_aggregate(*ic), accumulate = shipped_function(e[2]),
                                                 merge = shipped_function(e[3]);
  if (!partial || !accumulate || !merge || !accumulate_written) return std::nullopt;
  const shipped_taps accumulate_taps = taps_in(accumulate_written->closures, c);
  tensorflow_federated::v0::Value zero;
  try {
    zero = to_message(e[1]);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const federated_language::Computation report = identity_of(partial->type().function().parameter().struct_().element(1).value());
  const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what) {
    rq.tap_for(&c, s.begin);
    const std::string f = rq.computation(*partial, create_intrinsic.c_str());
    const std::string a = rq.structure({s.ref, rq.value(zero, "CreateValue (the zero)"),
                                        rq.computation(*accumulate, "CreateValue (accumulate)", &accumulate_taps),
                                        rq.computation(*merge, "CreateValue (merge)"),
                                        rq.computation(report, "CreateValue (the identity report)")},
                                       "CreateStruct");
    return rq.compute_at_server(rq.call(f, a, what), "Compute (a partial aggregate)");
  });
  dynamic_value acc = parts.front();
  for (std::size_t k = 1; k != parts.size(); ++k) acc = detail::call(e[3], make_struct_value({acc, parts[k]}), c);
  return at(placement_kind::server, detail::call(e[4], acc, c));
}

}  // namespace ctff::detail
