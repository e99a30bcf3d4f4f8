// remote_options::aggregate_on_workers: the clients' results stay on the workers, the maps that
// follow run there, the aggregations run per worker on its slice and are merged in worker order.
// Expected values by hand, or by a plain loop here that groups the clients as the workers do
// (ceil(N/K) each, in order): integers as a local run's, float sums regrouped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <google/protobuf/text_format.h>

#include <ctff/ctff.hpp>
#include <ctff/read.hpp>
#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>
#include <ctff/run.hpp>

#include "fedavg_round.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

constexpr auto twice = computation<"twice", float>([](auto x) { return x + x; });
constexpr auto twice_i = computation<"twice_i", i32>([](auto x) { return x + x; });
constexpr auto add_pair = computation<"add_pair", i32, i32>([](auto a, auto b) { return a + b; });

constexpr auto sum_f = computation<"sum_f", at_clients<float>>([](auto v) { return federated_sum(federated_map(twice, v)); });
constexpr auto mean_f = computation<"mean_f", at_clients<float>>([](auto v) { return federated_mean(federated_map(twice, v)); });
constexpr auto wmean_f = computation<"wmean_f", at_clients<float>, at_clients<float>>(
    [](auto x, auto w) { return federated_mean(federated_map(twice, x), federated_map(twice, w)); });
constexpr auto min_max_f = computation<"min_max_f", at_clients<float>>([](auto v) {
  auto m = federated_map(twice, v);
  return std::tuple{federated_min(m), federated_max(m)};
});
constexpr auto sum_i = computation<"sum_i", at_clients<i32>>([](auto v) { return federated_sum(federated_map(twice_i, v)); });
constexpr auto secure_i = computation<"secure_i", at_clients<i32>>([](auto v) {
  auto m = federated_map(twice_i, v);
  return std::tuple{federated_secure_sum(m, 20), federated_secure_sum_bitwidth(m, 5)};
});
constexpr auto acc = computation<"acc", i32, i32>([](auto a, auto x) { return a * 10 + x; });
constexpr auto merge = computation<"merge", i32, i32>([](auto a, auto b) { return a + b; });
constexpr auto report = computation<"report", i32>([](auto a) { return a * 2; });
constexpr auto agg_i = computation<"agg_i", at_clients<i32>>(
    [](auto v) { return federated_aggregate(federated_map(twice_i, v), 7, acc, merge, report); });
constexpr auto chain_i = computation<"chain_i", at_clients<i32>>(
    [](auto v) { return federated_sum(federated_map(twice_i, federated_map(twice_i, v))); });
constexpr auto map_only = computation<"map_only", at_clients<float>>([](auto v) { return federated_map(twice, v); });
constexpr auto zip_then_sum = computation<"zip_then_sum", at_clients<i32>>([](auto v) {
  auto a = federated_map(twice_i, v);
  return federated_sum(federated_map(add_pair, federated_zip(a, a)));
});
// A pause on the controller between a map and the sum of its result (a SERVER map runs here).
constexpr auto hold_on = tensorflow_computation<function<i32, i32>>("\x0a\x05\x0a\x03pau", tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto map_pause_sum = computation<"map_pause_sum", at_clients<i32>, at_server<i32>>([](auto v, auto s) {
  auto m = federated_map(twice_i, v);
  auto p = federated_map(hold_on, s);
  return std::tuple{federated_sum(m), p};
});

std::string address(const worker& w) { return "127.0.0.1:" + std::to_string(w.port()); }

struct pool {
  std::vector<std::unique_ptr<worker>> ws;
  std::vector<std::string> addresses;
  explicit pool(std::size_t k, worker_options o = {}) {
    for (std::size_t i = 0; i != k; ++i) {
      ws.push_back(serve(o));
      addresses.push_back(address(*ws.back()));
    }
  }
  std::size_t values() const {
    std::size_t n = 0;
    for (const auto& w : ws) n += w->service().values();
    return n;
  }
};

remote_executor on(const pool& p, std::size_t clients) {
  return remote_executor({.workers = p.addresses, .aggregate_on_workers = true}, {.clients = clients, .threads = 2});
}

// Left folds from zero over each worker's slice (ceil(N/K) clients each, in order), then over
// the slices' results in worker order: the float sum as the workers regroup it.
float regrouped_sum(const std::vector<float>& y, std::size_t k) {
  const std::size_t per = (y.size() + k - 1) / k;
  float total = 0;
  for (std::size_t b = 0; b < y.size(); b += per) {
    float part = 0;
    for (std::size_t i = b; i != std::min(y.size(), b + per); ++i) part += y[i];
    total += part;
  }
  return total;
}

// The weighted mean as merged here: each slice's weighted mean m and weight d, merged as clients
// are (sum of m * d over the sum of d); a slice of zero weight by its own clients' terms.
float regrouped_weighted_mean(const std::vector<float>& x, const std::vector<float>& w, std::size_t k) {
  const std::size_t per = (x.size() + k - 1) / k;
  float num = 0, den = 0;
  for (std::size_t b = 0; b < x.size(); b += per) {
    const std::size_t e = std::min(x.size(), b + per);
    float n = 0, d = 0;
    for (std::size_t i = b; i != e; ++i) {
      const float p = x[i] * w[i];
      n += p;
      d += w[i];
    }
    if (d == 0) {
      for (std::size_t i = b; i != e; ++i) {
        const float p = x[i] * w[i];
        num += p;
        den += w[i];
      }
      continue;
    }
    const float m = n / d;
    const float p = m * d;
    num += p;
    den += d;
  }
  return num / den;
}

std::vector<float> doubled(std::vector<float> v) {
  for (float& x : v) x = x + x;
  return v;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("aggregate_on_workers: float sums and means are regrouped by worker, merged in worker order",
          "[remote][aggregate]") {
  pool p(3);
  auto r = on(p, 7);
  executor local({.clients = 7, .threads = 2});
  // Doubled: 2e8, 2, 2 | -2e8, 2, 2 | 6. In client order the 2s vanish next to 2e8 (spacing 16)
  // except the last two; per worker they vanish in both first slices.
  const std::vector<float> x{1e8f, 1, 1, -1e8f, 1, 1, 3};
  const float want = regrouped_sum(doubled(x), 3);
  CHECK(want == 6.0f);
  CHECK(local.call<float>(sum_f, x) == 10.0f);  // (the regrouping shows)
  CHECK(same_bits(r.call<float>(sum_f, x), want));
  CHECK(same_bits(r.call<float>(mean_f, x), want / 7.0f));
  // The same with 2 workers: 2e8, 2, 2, -2e8 | 2, 2, 6.
  pool p2(2);
  auto r2 = on(p2, 7);
  CHECK(same_bits(r2.call<float>(sum_f, x), regrouped_sum(doubled(x), 2)));
  CHECK(regrouped_sum(doubled(x), 2) == 10.0f);
}

TEST_CASE("aggregate_on_workers: weighted means merge the slices' means by their weights", "[remote][aggregate]") {
  pool p(3);
  auto r = on(p, 7);
  const std::vector<float> x{0.1f, 0.7f, 1.3f, 2.9f, -0.4f, 3.3f, 5.5f};
  const std::vector<float> w{1.0f, 3.0f, 0.5f, 2.0f, 7.0f, 0.25f, 4.0f};
  CHECK(same_bits(r.call<float>(wmean_f, x, w), regrouped_weighted_mean(doubled(x), doubled(w), 3)));
  // A slice whose weights sum to zero (its mean 0/0): its clients' own terms instead.
  const std::vector<float> wz{1.0f, 3.0f, 0.5f, 2.0f, -2.0f, 0.0f, 4.0f};
  const float want = regrouped_weighted_mean(doubled(x), doubled(wz), 3);
  CHECK(want == want);  // not NaN
  CHECK(same_bits(r.call<float>(wmean_f, x, wz), want));
}

TEST_CASE("aggregate_on_workers: min and max are a local run's, ties and NaN included", "[remote][aggregate]") {
  pool p(3);
  auto r = on(p, 7);
  executor local({.clients = 7, .threads = 2});
  const std::vector<float> x{4, -0.0f, 9, 0.0f, -3, 12, -3};
  const auto [mn, mx] = r.call<std::tuple<float, float>>(min_max_f, x);
  CHECK(mn == -6.0f);
  CHECK(mx == 24.0f);
  const auto [lmn, lmx] = local.call<std::tuple<float, float>>(min_max_f, x);
  CHECK((same_bits(mn, lmn) && same_bits(mx, lmx)));
}

TEST_CASE("aggregate_on_workers: integer sums, secure sums and federated_aggregate", "[remote][aggregate]") {
  pool p(3);
  auto r = on(p, 7);
  const std::vector<i32> x{1, 2, 3, 4, 5, 6, 7};
  CHECK(r.call<i32>(sum_i, x) == 56);
  CHECK(r.call<std::tuple<i32, i32>>(secure_i, std::vector<i32>{0, 1, 2, 3, 4, 5, 10}) == std::tuple<i32, i32>{50, 50});
  // accumulate a * 10 + x from 7 per slice: 2,4,6 | 8,10,12 | 14 -> 7246, 7912, 84; merged
  // by +: 15242; report * 2.
  CHECK(r.call<i32>(agg_i, x) == 30484);
  // A bound violated on the third worker: named by it, its clients numbered there.
  try {
    (void)r.call<std::tuple<i32, i32>>(secure_i, std::vector<i32>{0, 1, 2, 3, 4, 5, 11});
    FAIL("no error");
  } catch (const execution_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("worker " + p.addresses[2] + ": CreateCall (federated_secure_sum of clients 6 to 6, "
                                         "numbered from 0 there): INTERNAL: ") &&
                             Catch::Contains("federated_secure_sum: client 0: value = 22 lies outside [0, 20]"));
  }
}

TEST_CASE("aggregate_on_workers: maps chain on the workers; held values fetched where needed, then disposed",
          "[remote][aggregate]") {
  pool p(3);
  const std::size_t n = 3000;
  // (One value for every run: the workers cache the clients' values by node, so they go once.)
  std::vector<dynamic_value> members;
  i32 want = 0;
  for (std::size_t i = 0; i != n; ++i) {
    members.push_back(make_scalar<dtype::int32>(static_cast<i32>(i % 100)));
    want += 4 * static_cast<i32>(i % 100);
  }
  const dynamic_value x = make_federated(placement_kind::clients, false, members);
  auto r = on(p, n);
  CHECK(r.call<i32>(chain_i, x) == want);
  // The clients' values went once and are cached there (one slice each); the maps' results,
  // held there during the run, are disposed of.
  for (const auto& w : p.ws) CHECK(w->service().values() == 1);
  CHECK(r.call<i32>(chain_i, x) == want);
  CHECK(p.values() == 3);
  const wire_traffic before = r.traffic();
  CHECK(r.call<i32>(chain_i, x) == want);
  const wire_traffic after = r.traffic();
  CHECK(after.received - before.received < 2000);  // three partial sums and ids, not 3000 values
  CHECK(after.sent - before.sent < 8000);  // the shipped functions and ids, no clients' values (15 KB)
  CHECK(p.values() == 3);
  // The default: every value back, the same sum.
  remote_executor plain({.workers = p.addresses}, {.clients = n, .threads = 2});
  const wire_traffic b0 = plain.traffic();
  CHECK(plain.call<i32>(chain_i, x) == want);
  CHECK(plain.traffic().received - b0.received > 2 * n);

  // A run's result, and the operand of an intrinsic the workers do not run (a zip), fetched.
  std::vector<float> xf(n);
  for (std::size_t i = 0; i != n; ++i) xf[i] = static_cast<float>(i) * 0.5f;
  CHECK(r.call<std::vector<float>>(map_only, xf) == doubled(xf));
  CHECK(r.call<i32>(zip_then_sum, x) == want);
}

TEST_CASE("aggregate_on_workers: a slice lost between a map and the sum is made again from the controller's data",
          "[remote][aggregate][failover]") {
  SECTION("its worker killed: made again on another, the same sum") {
    pool p(2);
    remote_executor r({.workers = p.addresses, .deadline = std::chrono::seconds(5), .aggregate_on_workers = true},
                      {.clients = 4, .threads = 2});
    r.bind(hold_on, [&](i32 v) {
      p.ws[1]->shutdown();
      return v;
    });
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(r.call<std::tuple<i32, i32>>(map_pause_sum, std::vector<i32>{1, 2, 3, 4}, 0) == std::tuple<i32, i32>{20, 0});
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    // Both slices on the one left, run after run.
    r.bind(hold_on, [](i32 v) { return v; });
    CHECK(r.call<std::tuple<i32, i32>>(map_pause_sum, std::vector<i32>{1, 2, 3, 5}, 1) == std::tuple<i32, i32>{22, 1});
  }
  SECTION("its executor dropped as idle (FAILED_PRECONDITION): made again there") {
    pool p(1, {.limits = {.idle_executor = std::chrono::milliseconds(200)}});
    auto r = on(p, 4);
    r.bind(hold_on, [](i32 v) {
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      return v;
    });
    CHECK(r.call<std::tuple<i32, i32>>(map_pause_sum, std::vector<i32>{1, 2, 3, 4}, 0) == std::tuple<i32, i32>{20, 0});
    r.bind(hold_on, [](i32 v) { return v; });
    CHECK(r.call<std::tuple<i32, i32>>(map_pause_sum, std::vector<i32>{1, 2, 3, 4}, 5) == std::tuple<i32, i32>{20, 5});
  }
}

TEST_CASE("aggregate_on_workers: a FedAvg round sends back the workers' partial means, not every client's update",
          "[remote][aggregate][fedavg]") {
  using namespace ctff_bench;
  constexpr std::size_t n = 100;
  std::vector<std::unique_ptr<worker>> ws;
  std::vector<std::string> addresses;
  for (int k = 0; k != 2; ++k) {
    ws.push_back(serve({.setup = [](executor& e) { e.bind(client_update, bound_update); }}));
    addresses.push_back(address(*ws.back()));
  }
  remote_executor held({.workers = addresses, .aggregate_on_workers = true}, {.threads = 2});
  remote_executor plain({.workers = addresses}, {.threads = 2});
  executor local({.threads = 2});
  for (executor* e : {static_cast<executor*>(&held), static_cast<executor*>(&plain), &local}) e->bind(client_update, bound_update);
  const dynamic_value data = client_values(n);
  linear_model m0{};
  m0.w[0][0] = 0.5f;
  // A first round each sends the data (cached on the workers); the second is measured.
  (void)held.call<linear_model>(fedavg_round, m0, data);
  (void)plain.call<linear_model>(fedavg_round, m0, data);
  const wire_traffic h0 = held.traffic(), p0 = plain.traffic();
  const auto a = held.call<linear_model>(fedavg_round, m0, data);
  const auto b = plain.call<linear_model>(fedavg_round, m0, data);
  const auto c = local.call<linear_model>(fedavg_round, m0, data);
  const std::uint64_t held_bytes = held.traffic().sent - h0.sent + held.traffic().received - h0.received;
  const std::uint64_t plain_bytes = plain.traffic().sent - p0.sent + plain.traffic().received - p0.received;
  // The model is 31.4 KB: out to each worker once, back once per worker (a partial mean).
  CHECK(plain_bytes > n * sizeof(linear_model));
  CHECK(held_bytes < 6 * sizeof(linear_model));
  CHECK(std::memcmp(&b, &c, sizeof b) == 0);  // the default: bit for bit
  // Regrouped: within a few float32 roundings of the local round, relative to the model's scale.
  float worst = 0, scale = 0;
  for (std::size_t k = 0; k != inputs; ++k)
    for (std::size_t o = 0; o != outputs; ++o) {
      worst = std::max(worst, std::abs(a.w[k][o] - c.w[k][o]));
      scale = std::max(scale, std::abs(c.w[k][o]));
    }
  INFO("worst " << worst << " of " << scale);
  CHECK(worst < 1e-5f * scale);
  for (const auto& w : ws) CHECK(w->service().values() == 2);  // each plain and held executor's cached data slice
}

TEST_CASE("the computations shipped to aggregate on workers parse back and check", "[remote][aggregate]") {
  auto parsed = [](const federated_language::Computation& c) {
    federated_language::Computation back;
    REQUIRE(back.ParseFromString(c.SerializeAsString()));
    const computation_tree t = read_computation(back.SerializeAsString());
    const auto errors = check(t);
    CHECK(errors.empty());
    return t;
  };
  const std::string f32 = "tensor { dtype: DT_FLOAT }";
  const std::string model = "struct { element { name: \"w\" value { tensor { dtype: DT_FLOAT dims: 3 dims: 2 } } } "
                            "element { name: \"b\" value { " + f32 + " } } }";
  auto clients = [](const std::string& t) { return "federated { placement { value { uri: \"clients\" } } member { " + t + " } }"; };
  auto server = [](const std::string& t) { return "federated { placement { value { uri: \"server\" } } all_equal: true member { " + t + " } }"; };
  federated_language::Computation wmean, aggregate;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(
      "type { function { parameter { struct { element { value { " + clients(model) + " } } element { value { " +
          clients(f32) + " } } } } result { " + server(model) + " } } } intrinsic { uri: \"federated_weighted_mean\" }",
      &wmean));
  const std::string fn_uu = "function { parameter { struct { element { value { " + model + " } } element { value { " + model +
                            " } } } } result { " + model + " } }";
  const std::string fn_ut = "function { parameter { struct { element { value { " + model + " } } element { value { " + f32 +
                            " } } } } result { " + model + " } }";
  REQUIRE(google::protobuf::TextFormat::ParseFromString(
      "type { function { parameter { struct { element { value { " + clients(f32) + " } } element { value { " + model +
          " } } element { value { " + fn_ut + " } } element { value { " + fn_uu + " } } element { value { function { parameter { " +
          model + " } result { " + f32 + " } } } } } } result { " + server(f32) + " } } } intrinsic { uri: \"federated_aggregate\" }",
      &aggregate));
  parsed(wmean);
  parsed(aggregate);
  const auto& p = wmean.type().function().parameter().struct_();
  parsed(detail::federated_sum_of(p.element(1).value(), wmean.type().function().result()));
  federated_language::Computation sum_for_mean = wmean;  // (a mean's type is a sum's: the uri changes)
  sum_for_mean.mutable_type()->mutable_function()->mutable_parameter()->CopyFrom(p.element(0).value());
  sum_for_mean.mutable_intrinsic()->set_uri("federated_sum");
  parsed(sum_for_mean);
  const auto partial = detail::partial_aggregate(aggregate);
  REQUIRE(partial);
  parsed(*partial);
  parsed(detail::identity_of(aggregate.type().function().parameter().struct_().element(1).value()));
}

namespace {
// Members held "elsewhere" by the test itself, counting its fetches.
struct held_here final : clients_elsewhere {
  std::vector<dynamic_value> m;
  mutable int fetches = 0;
  std::size_t clients() const override { return m.size(); }
  std::vector<dynamic_value> fetch() const override {
    ++fetches;
    return m;
  }
};
}  // namespace

TEST_CASE("a CLIENTS value held elsewhere compares, prints and converts by its fetched members", "[remote][aggregate]") {
  auto h = std::make_shared<held_here>();
  h->m = {make_scalar<dtype::int32>(1), make_scalar<dtype::int32>(2)};
  const dynamic_value held(federated_data{.where = placement_kind::clients, .all_equal = false, .members = {}, .elsewhere = h});
  const dynamic_value here = make_federated(placement_kind::clients, false, h->m);
  CHECK(held == here);
  CHECK(here == held);
  CHECK_FALSE(held == make_federated(placement_kind::clients, false, {make_scalar<dtype::int32>(1)}));
  CHECK(to_string(held) == "[1, 2]");
  CHECK(detail::holds_elsewhere(make_struct_value({make_scalar<dtype::int32>(0), held})));
  CHECK(detail::fetched(make_struct_value({held})) == make_struct_value({here}));
  CHECK_FALSE(detail::holds_elsewhere(here));
  CHECK(h->fetches == 5);
  // (aggregate initialisation of the three members before it still compiles)
  const federated_data three{placement_kind::server, true, {make_scalar<dtype::int32>(3)}};
  CHECK(three.elsewhere == nullptr);
}
