// TFF's MergeableCompForm made by ctff (ctff::to_mergeable_comp_form) and run in subrounds
// (ctff::run_in_subrounds): the parts' types as TFF's MergeableCompForm.__init__ checks them, every
// part parsed back by protobuf and passing ctff's checker, each rule broken once, refusals named,
// and rounds run in subrounds of K = 1, 2, N and a K that does not divide N giving what a plain
// loop computes for that grouping.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/forms.hpp>
#include <ctff/read.hpp>

#include "forms_goldens.hpp"
#include "parse_back.hpp"

namespace {

using ctff::dtype;
using ctff::dynamic_value;
using ctff::placement_kind;
using i32 = std::int32_t;
using vec3 = std::array<float, 3>;

// ---- rounds, traced by ctff (no TensorFlow: they run here and on ctff-worker) ----
constexpr auto square = ctff::computation<"square", i32>([](auto v) { return v * v; });
constexpr auto add = ctff::computation<"add", i32, i32>([](auto a, auto b) { return a + b; });
// <state + sum(v*v), sum(v*v)>
constexpr auto sum_round = ctff::computation<"sum_round", ctff::at_server<i32>, ctff::at_clients<i32>>(
    [](auto state, auto values) {
      auto total = ctff::federated_sum(ctff::federated_map(square, values));
      return ctff::make_struct(ctff::federated_map(add, ctff::federated_zip(ctff::make_struct(state, total))), total);
    });
// <sum(v + offset), v + offset at each client>: a per-client result, after_merge run per subround.
constexpr auto broadcast_round = ctff::computation<"broadcast_round", ctff::at_server<i32>, ctff::at_clients<i32>>(
    [](auto offset, auto values) {
      auto shifted = ctff::federated_map(add, ctff::federated_zip(ctff::make_struct(ctff::federated_broadcast(offset), values)));
      return ctff::make_struct(ctff::federated_sum(shifted), shifted);
    });
// <state, mean(v)> of float32[3] values; <mean of v weighted by w, sum(w)>.
constexpr auto mean_round = ctff::computation<"mean_round", ctff::at_server<i32>, ctff::at_clients<vec3>>(
    [](auto state, auto values) { return ctff::make_struct(state, ctff::federated_mean(values)); });
constexpr auto weighted_round = ctff::computation<"weighted_round", ctff::at_clients<float>, ctff::at_clients<float>>(
    [](auto values, auto weights) {
      return ctff::make_struct(ctff::federated_mean(values, weights), ctff::federated_sum(weights));
    });
// federated_aggregate: X = report(merge of each subround's accumulate(...accumulate(zero, v)...)).
constexpr auto accumulate = ctff::computation<"accumulate", i32, i32>([](auto a, auto v) { return a * 3 + v; });
constexpr auto merge = ctff::computation<"merge", i32, i32>([](auto a, auto b) { return a + b; });
constexpr auto report = ctff::computation<"report", i32>([](auto a) { return a * 2; });
constexpr auto aggregate_round = ctff::computation<"aggregate_round", ctff::at_server<i32>, ctff::at_clients<i32>>(
    [](auto state, auto values) {
      return ctff::make_struct(state, ctff::federated_aggregate(values, 1, accumulate, merge, report));
    });
constexpr auto no_argument = ctff::computation<"no_argument">(
    [] { return ctff::federated_sum(ctff::federated_value(1, ctff::CLIENTS)); });
// A part that aggregates, of after_merge's parameter type for sum_round's form.
constexpr auto aggregating_after = ctff::computation<
    "aggregating_after", ctff::arg<"top_level_arg", ctff::struct_<ctff::at_server<i32>, ctff::at_clients<i32>>>,
    ctff::arg<"merge_result", ctff::at_server<ctff::struct_<i32>>>>([](auto top, auto) {
  return ctff::make_struct(ctff::get<0>(top), ctff::federated_sum(ctff::get<1>(top)));
});

template <class C>
ctff::computation_tree tree_of(const C& c) {
  return ctff::read_computation(c.bytes().str());
}

dynamic_value at_server(dynamic_value v) { return ctff::make_federated(placement_kind::server, true, {std::move(v)}); }
template <dtype D, class T>
dynamic_value at_clients(const std::vector<T>& xs) {
  std::vector<dynamic_value> m;
  for (const T& x : xs) m.push_back(ctff::make_scalar<D>(x));
  return ctff::make_federated(placement_kind::clients, false, std::move(m));
}
template <dtype D>
auto scalar(const dynamic_value& v) {
  const dynamic_value& x = v.is(ctff::value_kind::federated) ? v.federated().members.at(0) : v;
  return x.tensor().get<D>().at(0);
}
const dynamic_value& at(const dynamic_value& v, std::size_t k) { return v.structure().elements.at(k); }

// The K to try for N clients: 1, 2, N, one that does not divide N, and more than N.
std::vector<std::size_t> ks_for(std::size_t n) { return {1, 2, n > 0 ? n : 1, n > 3 ? n - 2 : 3, n + 5}; }

const ctff::form_error refusal(const ctff::computation_tree& t) {
  try {
    ctff::to_mergeable_comp_form(t);
  } catch (const ctff::form_error& e) {
    return e;
  }
  FAIL("the computation was split");
  return ctff::form_error("", "", "");
}

}  // namespace

TEST_CASE("mergeable: the parts have TFF's types, parse back by protobuf and pass ctff's checker") {
  std::vector<ctff::computation_tree> rounds = {tree_of(sum_round), tree_of(broadcast_round), tree_of(mean_round),
                                                tree_of(weighted_round), tree_of(aggregate_round)};
  for (const char* golden : {"aggregate", "empty_state", "server_values", "client_value_count", "nested_local_calls",
                             "two_broadcasts", "zips", "sequence_sum_at_clients", "select_keys_broadcast",
                             "state_at_clients", "non_struct_result", "three_parameters"})
    rounds.push_back(ctff_test::golden_round(golden));
  for (const auto& round : rounds) {
    INFO(ctff::compact(round));
    const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
    CHECK(ctff::mergeable_form_errors(f, round).empty());
    for (const auto& [name, t] : f.parts()) {
      INFO(name);
      ctff_test::require_parses(ctff::serialize(*t));
    }
    // up_to_merge: P -> M@SERVER, merge: <M,M> -> M, after_merge: <P, M@SERVER> -> the round's result.
    const auto& rt = round.types;
    const std::uint32_t rf = round.node(round.root).type;
    const std::string p = ctff::detail::type_text(rt, rt.kid(rf, 0)), r = ctff::detail::type_text(rt, rt.kid(rf, 1));
    const std::string up = ctff::type_string(f.up_to_merge);
    REQUIRE(up.rfind("(" + p + " -> <", 0) == 0);
    REQUIRE(up.size() > 9);
    CHECK(up.substr(up.size() - 8) == "@SERVER)");
    const std::string m = up.substr(p.size() + 5, up.size() - p.size() - 13);
    CHECK(ctff::type_string(f.merge) == "(<" + m + "," + m + "> -> " + m + ")");
    CHECK(ctff::type_string(f.after_merge) == "(<top_level_arg=" + p + ",merge_result=" + m + "@SERVER> -> " + r + ")");
    CHECK(ctff::form_summary(f) == "up_to_merge                 : " + up + "\nmerge                       : " +
                                       ctff::type_string(f.merge) + "\nafter_merge                 : " +
                                       ctff::type_string(f.after_merge) + "\n");
  }
}

TEST_CASE("mergeable: what cannot be split is refused, the rule named") {
  auto rule_of = [](const ctff::computation_tree& t) { return refusal(t).rule(); };
  CHECK(rule_of(ctff_test::golden_round("server_only")) == "no_aggregation");
  CHECK(rule_of(ctff_test::golden_round("two_rounds")) == "aggregation_after_aggregation");  // TFF refuses it too
  CHECK(rule_of(ctff_test::golden_round("analytics")) == "aggregation_not_mergeable");       // federated_min
  CHECK(rule_of(ctff_test::golden_round("two_aggregation_kinds")) == "aggregation_not_mergeable");  // secure
  CHECK(rule_of(ctff_test::golden_round("fedavg")) == "aggregation_not_mergeable");  // tensors weighted by a scalar
  CHECK(refusal(ctff_test::golden_round("fedavg")).problem().find("float32[2]") != std::string::npos);
  CHECK(rule_of(tree_of(no_argument)) == "round_parameters");
  CHECK(rule_of(ctff_test::golden_round("not_a_lambda")) == "round_lambda");
  ctff::computation_tree empty;
  CHECK(rule_of(empty) == "valid_computation");
}

TEST_CASE("mergeable: each of TFF's rules broken once") {
  const ctff::computation_tree round = tree_of(sum_round);
  const ctff::mergeable_comp_form good = ctff::to_mergeable_comp_form(round);
  auto first = [&](const ctff::mergeable_comp_form& f) {
    const auto e = ctff::mergeable_form_errors(f, round);
    REQUIRE(!e.empty());
    return e.front();
  };
  ctff::mergeable_comp_form f = good;
  f.merge = ctff::computation_tree{};
  CHECK(first(f).rule() == "part_check");
  f = good;
  f.up_to_merge = good.merge;
  CHECK(first(f).rule() == "up_to_merge_result");
  f = good;
  f.merge = good.up_to_merge;
  CHECK(first(f).rule() == "merge_parameter");
  f = good;
  f.merge = tree_of(add);  // (<int32,int32> -> int32): its parameter takes no <int32>
  CHECK(first(f).rule() == "merge_parameter");
  f = good;
  f.after_merge = good.up_to_merge;
  CHECK(first(f).rule() == "after_merge_parameter");
  f = good;
  f.after_merge = tree_of(aggregating_after);
  const ctff::form_error e = first(f);
  CHECK(e.rule() == "after_merge_aggregation");
  CHECK(e.problem().find("federated_sum") != std::string::npos);
  CHECK(ctff::mergeable_form_errors(good, tree_of(broadcast_round)).front().rule() == "round_type");
  CHECK_THROWS_AS(ctff::run_in_subrounds(*std::make_unique<ctff::executor>(), f, {}, 1), ctff::form_error);
  // Every rule in the table is one of these, in order.
  CHECK(std::size(ctff::mergeable_form_rules) == 7);
}

TEST_CASE("mergeable: sums run in subrounds of K give the round's result, any K") {
  const ctff::computation_tree round = tree_of(sum_round);
  const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
  ctff::executor ex({.threads = 2});
  for (std::size_t n : {0, 1, 7}) {
    std::vector<i32> v;
    i32 total = 0;
    for (std::size_t i = 0; i != n; ++i) {
      v.push_back(static_cast<i32>(i * 5) - 11);
      total += v.back() * v.back();
    }
    const dynamic_value arg = ctff::make_struct_value({at_server(ctff::make_scalar<dtype::int32>(100)), at_clients<dtype::int32>(v)});
    const dynamic_value whole = ex.run(round, arg);
    for (std::size_t k : ks_for(n)) {
      INFO(n << " clients, K = " << k);
      const dynamic_value r = ctff::run_in_subrounds(ex, f, arg, k);
      CHECK(scalar<dtype::int32>(at(r, 0)) == 100 + total);
      CHECK(scalar<dtype::int32>(at(r, 1)) == total);
      CHECK(r == whole);
    }
  }
  CHECK_THROWS_AS(ctff::run_in_subrounds(ex, f, ctff::make_struct_value({}), 0), ctff::argument_error);
}

TEST_CASE("mergeable: a per-client result is joined from each subround's after_merge, in order") {
  const ctff::computation_tree round = tree_of(broadcast_round);
  const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
  ctff::executor ex({.threads = 3});
  const std::vector<i32> v = {4, -2, 9, 0, 13, 5, 7};
  const dynamic_value arg = ctff::make_struct_value({at_server(ctff::make_scalar<dtype::int32>(3)), at_clients<dtype::int32>(v)});
  for (std::size_t k : ks_for(v.size())) {
    INFO("K = " << k);
    const dynamic_value r = ctff::run_in_subrounds(ex, f, arg, k);
    CHECK(scalar<dtype::int32>(at(r, 0)) == 36 + 3 * 7);
    const auto& members = at(r, 1).federated().members;
    REQUIRE(members.size() == v.size());
    for (std::size_t i = 0; i != v.size(); ++i) CHECK(scalar<dtype::int32>(members[i]) == v[i] + 3);
    CHECK(r == ex.run(round, arg));
  }
}

TEST_CASE("mergeable: means and weighted means, the subrounds' sums then one division") {
  ctff::executor ex({.threads = 2});
  SECTION("federated_mean of float32[3]: sum / count, counts summed from Literals of ones") {
    const ctff::computation_tree round = tree_of(mean_round);
    const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
    std::vector<dynamic_value> m;
    vec3 sum{0, 0, 0};
    for (int i = 0; i != 6; ++i) {
      const vec3 x{static_cast<float>(i), static_cast<float>(2 * i - 5), 0.5f * static_cast<float>(i)};
      for (int j = 0; j != 3; ++j) sum[j] += x[j];  // (halves and integers: exact in any order)
      m.push_back(ctff::to_value<ctff::tensor<dtype::float32, 3>>(x));
    }
    const dynamic_value arg = ctff::make_struct_value(
        {at_server(ctff::make_scalar<dtype::int32>(1)), ctff::make_federated(placement_kind::clients, false, m)});
    for (std::size_t k : ks_for(6)) {
      INFO("K = " << k);
      const dynamic_value r = ctff::run_in_subrounds(ex, f, arg, k);
      const auto& mean = at(r, 1).federated().members.at(0).tensor().get<dtype::float32>();
      for (int j = 0; j != 3; ++j) CHECK(mean.at(static_cast<std::size_t>(j)) == sum[static_cast<std::size_t>(j)] / 6.0f);
      CHECK(r == ex.run(round, arg));
    }
  }
  SECTION("federated_weighted_mean of float32 by float32: sum(v*w) / sum(w)") {
    const ctff::computation_tree round = tree_of(weighted_round);
    const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
    const std::vector<float> v = {1, -3, 4, 10, 2}, w = {2, 1, 0, 3, 5};
    const dynamic_value arg = ctff::make_struct_value({at_clients<dtype::float32>(v), at_clients<dtype::float32>(w)});
    for (std::size_t k : ks_for(v.size())) {
      INFO("K = " << k);
      const dynamic_value r = ctff::run_in_subrounds(ex, f, arg, k);
      CHECK(scalar<dtype::float32>(at(r, 0)) == 39.0f / 11.0f);
      CHECK(scalar<dtype::float32>(at(r, 1)) == 11.0f);
    }
  }
}

TEST_CASE("mergeable: federated_aggregate folds each subround from its zero and merges the subrounds in order") {
  const ctff::computation_tree round = tree_of(aggregate_round);
  const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
  ctff::executor ex({.threads = 2});
  const std::vector<i32> v = {3, 1, 4, 1, 5, 9, 2};
  const dynamic_value arg = ctff::make_struct_value({at_server(ctff::make_scalar<dtype::int32>(8)), at_clients<dtype::int32>(v)});
  for (std::size_t k : ks_for(v.size())) {
    INFO("K = " << k);
    i32 merged = 0;  // by hand: each subround accumulate(...accumulate(1, v)...), merged by +, reported * 2
    for (std::size_t first = 0; first < v.size(); first += k) {
      i32 acc = 1;
      for (std::size_t i = first; i != std::min(v.size(), first + k); ++i) acc = acc * 3 + v[i];
      merged = first == 0 ? acc : merged + acc;
    }
    const dynamic_value r = ctff::run_in_subrounds(ex, f, arg, k);
    CHECK(scalar<dtype::int32>(at(r, 0)) == 8);
    CHECK(scalar<dtype::int32>(at(r, 1)) == merged * 2);
    if (k >= v.size()) CHECK(r == ex.run(round, arg));  // one subround: the round itself
  }
}

TEST_CASE("mergeable: bad arguments are errors naming what is wrong") {
  const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(tree_of(weighted_round));
  ctff::executor ex;
  const dynamic_value arg = ctff::make_struct_value({at_clients<dtype::float32>(std::vector<float>{1, 2, 3}),
                                                     at_clients<dtype::float32>(std::vector<float>{1, 2})});
  try {
    ctff::run_in_subrounds(ex, f, arg, 2);
    FAIL("no error");
  } catch (const ctff::argument_error& e) {
    CHECK(std::string(e.what()).find("2 clients where another CLIENTS value holds 3") != std::string::npos);
  }
  CHECK(ctff::subrounds_of(5, 2).size() == 3);
  CHECK(ctff::subrounds_of(5, 2).back().count == 1);
  CHECK(ctff::subrounds_of(0, 4).size() == 1);
}
