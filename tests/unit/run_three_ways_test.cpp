// One computation run three ways gives one result: traced at compile time (a constexpr
// computation), traced at run time (its lambda captures a run-time value), and read from its
// bytes (read_computation, then executor::run with a dynamic argument); on 1, 2, 4 and 8 threads,
// bit for bit. Programs: a FedAvg-like round (struct model, weighted mean), an aggregate, a
// select, a zip with names. Expected results computed by hand.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

struct model {
  std::array<float, 2> w;
  float b;
  friend bool operator==(const model&, const model&) = default;
};

// Runs ct, rt and ct's bytes read back with the arguments, on 1, 2, 4 and 8 threads: every result
// equals the first, and converts to `expected`.
template <class R, class CT, class RT, class... A>
void three_ways(const CT& ct, const RT& rt, const R& expected, std::optional<std::size_t> clients, const A&... args) {
  using P = typename CT::param_type;
  using T = typename CT::result_type;
  STATIC_REQUIRE(std::is_same_v<P, typename RT::param_type>);
  // The run-time trace is the same program.
  CHECK(std::ranges::equal(ct.bytes(), rt.bytes()));
  const computation_tree tree = read_computation(ct.bytes());
  dynamic_value arg;
  if constexpr (sizeof...(A) == 1) {
    arg = to_value<P>(args...);
  } else {
    arg = to_value<P>(std::tuple<A...>{args...});
  }
  dynamic_value first;
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    INFO("threads: " << threads);
    run_options o;
    o.clients = clients;
    o.threads = threads;
    executor ex(o);
    const dynamic_value a = ex.call(ct, args...);
    const dynamic_value b = ex.call(rt, args...);
    const dynamic_value c = ex.run(tree, arg);
    if (!first) first = a;
    CHECK(a == first);
    CHECK(b == first);
    CHECK(c == first);
    CHECK(ex.call<R>(ct, args...) == expected);
    CHECK(ex.call<R>(rt, args...) == expected);
    CHECK(from_value<R, T>(c) == expected);
  }
}

// ---- A FedAvg-like round -----------------------------------------------------------------------
// Broadcast the server model, every client adds its delta, the server takes the mean weighted by
// the clients' example counts (scaled by `scale`, 1 here), and their total.

template <class S>
constexpr auto fedavg_body(S scale, auto server_model, auto deltas, auto counts) {
  constexpr auto add = computation<"client_update", model, model>([](auto m, auto d) { return m + d; });
  auto updated = federated_map(add, federated_zip(federated_broadcast(server_model), deltas));
  auto weights = federated_map(computation<"scale", float>([scale](auto n) { return n * scale; }), counts);
  return std::tuple{federated_mean(updated, weights), federated_sum(weights)};
}
constexpr auto fedavg = computation<"round", at_server<model>, at_clients<model>, at_clients<float>>(
    [](auto m, auto d, auto n) { return fedavg_body(1.0f, m, d, n); });
auto fedavg_at_run_time(float one) {
  return computation<"round", at_server<model>, at_clients<model>, at_clients<float>>(
      [one](auto m, auto d, auto n) { return fedavg_body(one, m, d, n); });
}

// ---- An aggregate: mean and client order of a fold ---------------------------------------------
using acc_t = struct_<field<"sum", float>, field<"count", float>, field<"order", i32>>;
struct sample {
  float x;
  i32 id;
};
struct summary {
  float mean;
  i32 order;
  friend bool operator==(const summary&, const summary&) = default;
};
template <class B>
constexpr auto aggregate_body(B base, auto v) {
  auto acc = computation<"accumulate", arg<"a", acc_t>, arg<"s", sample>>([base](auto a, auto s) {
    return make_struct<"sum", "count", "order">(get<"sum">(a) + get<"x">(s), get<"count">(a) + 1.0f,
                                                get<"order">(a) * base + get<"id">(s));
  });
  constexpr auto merge = computation<"merge", acc_t, acc_t>([](auto a, auto) { return a; });
  constexpr auto report = computation<"report", acc_t>([](auto a) {
    return make_struct<"mean", "order">(get<"sum">(a) / get<"count">(a), get<"order">(a));
  });
  return federated_aggregate(v, make_struct<"sum", "count", "order">(0.0f, 0.0f, 0), acc, merge, report);
}
constexpr auto aggregate = computation<"aggregate", at_clients<sample>>([](auto v) { return aggregate_body(10, v); });
auto aggregate_at_run_time(i32 ten) {
  return computation<"aggregate", at_clients<sample>>([ten](auto v) { return aggregate_body(ten, v); });
}

// ---- A select: a server table, read by key on every client --------------------------------------
using table_t = struct_<field<"base", i32>, field<"step", i32>>;
template <class K>
constexpr auto select_body(K step_scale, auto keys, auto max_key, auto table) {
  auto read = computation<"read", arg<"t", table_t>, arg<"k", i32>>(
      [step_scale](auto t, auto k) { return get<"base">(t) + k * get<"step">(t) * step_scale; });
  auto per_client = sequence_sum(federated_select(keys, max_key, table, read));
  return std::tuple{per_client, federated_sum(per_client)};
}
constexpr auto table_select = computation<"select", at_clients<std::array<i32, 2>>, at_server<i32>, at_server<table_t>>(
    [](auto k, auto m, auto t) { return select_body(1, k, m, t); });
auto select_at_run_time(i32 one) {
  return computation<"select", at_clients<std::array<i32, 2>>, at_server<i32>, at_server<table_t>>(
      [one](auto k, auto m, auto t) { return select_body(one, k, m, t); });
}

// ---- A zip with names, mapped by a function of the named struct -----------------------------------
struct keyed {
  i32 key;
  float value;
  friend bool operator==(const keyed&, const keyed&) = default;
};
template <class M>
constexpr auto zip_body(M mult, auto ids, auto scores, auto round) {
  auto f = computation<"f", arg<"id", i32>, arg<"score", float>, arg<"round", i32>>(
      [mult](auto id, auto score, auto r) {
        return make_struct<"key", "value">(id * mult + r, score * 2.0f);
      });
  return federated_map(f, federated_zip(make_struct<"id", "score", "round">(ids, scores, federated_broadcast(round))));
}
constexpr auto zipped = computation<"zipped", at_clients<i32>, at_clients<float>, at_server<i32>>(
    [](auto a, auto b, auto c) { return zip_body(1000, a, b, c); });
auto zipped_at_run_time(i32 thousand) {
  return computation<"zipped", at_clients<i32>, at_clients<float>, at_server<i32>>(
      [thousand](auto a, auto b, auto c) { return zip_body(thousand, a, b, c); });
}

}  // namespace

TEST_CASE("run three ways: a FedAvg-like round with a struct model and a weighted mean", "[run]") {
  const auto rt = fedavg_at_run_time(1.0f);
  using R = std::tuple<model, float>;
  // model {w={1,2}, b=0.5}; updated: {2,2},1.5 / {0,4},0.5 / {1,2},0; weights 1, 2, 1:
  // w = (2+0+1)/4, (2+8+2)/4; b = (1.5+1+0)/4.
  three_ways(fedavg, rt, R{model{{0.75f, 3.0f}, 0.625f}, 4.0f}, std::nullopt, model{{1.0f, 2.0f}, 0.5f},
             std::vector<model>{{{1.0f, 0.0f}, 1.0f}, {{-1.0f, 2.0f}, 0.0f}, {{0.0f, 0.0f}, -0.5f}},
             std::vector<float>{1.0f, 2.0f, 1.0f});
  // 64 clients, delta {i, -i}, 1; weight 1 each: mean i = 31.5.
  std::vector<model> deltas;
  for (int i = 0; i != 64; ++i) deltas.push_back({{float(i), -float(i)}, 1.0f});
  three_ways(fedavg, rt, R{model{{32.5f, -29.5f}, 1.5f}, 64.0f}, 64, model{{1.0f, 2.0f}, 0.5f}, deltas,
             std::vector<float>(64, 1.0f));
}

TEST_CASE("run three ways: an aggregate folds in client order", "[run]") {
  // sum 9, count 3, order ((0*10+1)*10+2)*10+3.
  three_ways(aggregate, aggregate_at_run_time(10), summary{3.0f, 123}, std::nullopt,
             std::vector<sample>{{1.5f, 1}, {2.5f, 2}, {5.0f, 3}});
  // Nine clients, ids 1..9: 123456789; x = id: mean 5.
  std::vector<sample> nine;
  for (i32 i = 1; i <= 9; ++i) nine.push_back({float(i), i});
  three_ways(aggregate, aggregate_at_run_time(10), summary{5.0f, 123456789}, 9, nine);
}

TEST_CASE("run three ways: a select reads a server table by key", "[run]") {
  using R = std::tuple<std::vector<i32>, i32>;
  // base 100, step 3: keys {0,1} -> 100+103; {2,2} -> 106+106; {5,0} -> 115+100.
  three_ways(table_select, select_at_run_time(1), R{{203, 212, 215}, 630}, std::nullopt,
             std::vector<std::array<i32, 2>>{{0, 1}, {2, 2}, {5, 0}}, 3, std::tuple<i32, i32>{100, 3});
}

TEST_CASE("run three ways: a zip with names, mapped", "[run]") {
  three_ways(zipped, zipped_at_run_time(1000), std::vector<keyed>{{1007, 1.0f}, {2007, -2.5f}, {-993, 0.0f}},
             std::nullopt, std::vector<i32>{1, 2, -1}, std::vector<float>{0.5f, -1.25f, 0.0f}, 7);
}
