// Aggregations of CLIENTS values the workers hold (remote_options::aggregate_on_workers), as
// TFF's composing executor runs them: each worker computes its slice's partial result, which comes
// back and is merged here in worker order by the aggregation's rule (run/aggregation_rule.hpp, the
// rule the executor folds clients with), so results do not depend on timing. What a worker runs:
//   - federated_sum, federated_min, federated_max: the same intrinsic on its slice;
//   - federated_mean: federated_sum (the mean divides by N when reporting, as a local run does);
//   - federated_secure_sum(_bitwidth): the same, the bounds checked there;
//   - federated_weighted_mean: the slice's weighted mean and its total weight (federated_sum of
//     the weights). A slice whose weights sum to zero (its mean 0/0) is fetched and its clients
//     accumulated instead;
//   - federated_aggregate: the slice folded from the zero with accumulate, reporting the
//     accumulator; report runs here.
// Integer results are those of a local run; float sums are regrouped (per slice, then across).
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/remote/held_clients.hpp"
#include "ctff/remote/shipped_computations.hpp"
#include "ctff/remote/slice_requests.hpp"
#include "ctff/run/aggregation_rule.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/intrinsic_steps.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// f(requests, slice, what, k) on every slice k's worker at once (failing over: held_clients::with_slice);
// the results in worker order.
template <class F>
auto per_slice(const held_clients& h, std::string_view uri, const F& f) {
  return on_each_worker(h.count(), [&](std::size_t k) {
    return h.with_slice(k, [&](slice_requests& rq, const held_slice& s) {
      // Errors of the worker's run (a secure sum's bound) number its clients from 0.
      const std::string what = "CreateCall (" + std::string(uri) + " of clients " + std::to_string(s.begin) + " to " +
                               std::to_string(s.end - 1) + ", numbered from 0 there)";
      return f(rq, s, what.c_str(), k);
    });
  });
}

// The partials merged in worker order, reported.
inline dynamic_value merge_partials(const aggregation_rule& rule, const std::vector<dynamic_value>& parts) {
  aggregation_rule::state s = rule.merging();
  for (const dynamic_value& p : parts) rule.merge(s, p);
  return at(placement_kind::server, rule.report(s));
}

// The aggregation `uri` (the intrinsic fn, called with arg) run on the workers holding its
// CLIENTS operand; nullopt when that operand is not held by them (or the call cannot be shipped):
// the executor then runs it here.
inline std::optional<dynamic_value> aggregate_held(std::string_view uri, const dynamic_value& fn,
                                                   const dynamic_value& arg, std::size_t n, run_context& c) {
  const std::optional<aggregation_kind> kind = aggregation_of(uri);
  if (!kind) return std::nullopt;
  const bool plain = kind == aggregation_kind::sum || kind == aggregation_kind::mean || kind == aggregation_kind::min ||
                     kind == aggregation_kind::max;
  const std::size_t arity = plain ? 0 : kind == aggregation_kind::aggregate ? 5 : 2;
  if (arity && (!arg.is(value_kind::struct_) || arg.structure().elements.size() != arity)) return std::nullopt;
  const held_clients* h = held_clients::of(arity ? arg.structure().elements[0] : arg);
  if (!h || h->clients() != n || n == 0) return std::nullopt;
  std::optional<federated_language::Computation> ic = shipped_intrinsic(fn);
  if (!ic) return std::nullopt;
  const std::string create_intrinsic = "CreateValue (" + std::string(uri) + ")";

  if (plain) {
    if (kind == aggregation_kind::mean)  // (the same type)
      ic->mutable_intrinsic()->set_uri(std::string(row::federated_sum::uri));
    const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what, std::size_t) {
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      return rq.compute_at_server(rq.call(f, s.ref, what), "Compute (a partial aggregate)");
    });
    return merge_partials(aggregation_rule(*kind, n), parts);
  }

  const std::vector<dynamic_value>& e = arg.structure().elements;
  if (kind == aggregation_kind::secure_sum) {
    tensorflow_federated::v0::Value bound;
    try {
      bound = to_message(e[1]);
    } catch (const std::exception&) {
      return std::nullopt;  // (the executor's own checks then say what is wrong with it)
    }
    const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what, std::size_t) {
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      const std::string a = rq.structure({s.ref, rq.value(bound, "CreateValue (the bound)")}, "CreateStruct");
      return rq.compute_at_server(rq.call(f, a, what), "Compute (a partial sum)");
    });
    return merge_partials(aggregation_rule(*kind, n), parts);
  }

  if (kind == aggregation_kind::weighted_mean) {
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
    const std::vector<part> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what, std::size_t k) {
      const std::string w = hw->on(k, s.link, s.executor).ref;
      const std::string f = rq.computation(*ic, create_intrinsic.c_str());
      const std::string g = rq.computation(weight_sum, "CreateValue (federated_sum of the weights)");
      part p;
      p.mean = rq.compute_at_server(rq.call(f, rq.structure({s.ref, w}, "CreateStruct"), what), "Compute (a partial mean)");
      p.weight = rq.compute_at_server(rq.call(g, w, "CreateCall (federated_sum of the weights)"), "Compute (a partial weight)");
      return p;
    });
    const aggregation_rule rule(*kind, n);
    aggregation_rule::state s = rule.merging();
    for (std::size_t k = 0; k != parts.size(); ++k) {
      if (rule.merge(s, parts[k].mean, &parts[k].weight)) continue;
      const std::vector<dynamic_value> xs = h->fetch_slice(k), ws = hw->fetch_slice(k);
      for (std::size_t i = 0; i != xs.size(); ++i) rule.accumulate(s, xs[i], &ws[i]);
    }
    return at(placement_kind::server, rule.report(s));
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
  const std::vector<dynamic_value> parts = per_slice(*h, uri, [&](slice_requests& rq, const held_slice& s, const char* what, std::size_t) {
    rq.tap_for(&c, s.begin);
    const std::string f = rq.computation(*partial, create_intrinsic.c_str());
    const std::string a = rq.structure({s.ref, rq.value(zero, "CreateValue (the zero)"),
                                        rq.computation(*accumulate, "CreateValue (accumulate)", &accumulate_taps),
                                        rq.computation(*merge, "CreateValue (merge)"),
                                        rq.computation(report, "CreateValue (the identity report)")},
                                       "CreateStruct");
    return rq.compute_at_server(rq.call(f, a, what), "Compute (a partial aggregate)");
  });
  return merge_partials(aggregation_rule({&e[1], &e[2], &e[3], &e[4]}, n, c), parts);
}

}  // namespace ctff::detail
