// ctff::remote_executor against the local executor, paired (bench_common.hpp `paired`: the counter
// `ratio` is remote / local). The workers run in this process (ctff::serve on 127.0.0.1): what is
// measured is the protocol's cost — messages built, sent through gRPC's loopback, read back — not
// a network's.
//
//   fedavg/workers:K/aggregate:A  one FedAvg round (fedavg_round.hpp: 1,000 clients, a bound C++
//                         client update) with its federated_map on K workers; A = 1: with
//                         remote_options::aggregate_on_workers (the updates stay there, the
//                         weighted mean is taken per worker and merged); counters
//                         wire_mb_per_round (bytes of messages both ways) and ratio
//   map_sum/workers:4/aggregate:A  1,000,000 int32 clients: federated_map(add one) on 4 workers,
//                         then federated_sum: on the controller (A = 0), or split over the 4
//                         workers (A = 1); counters ratio and wire_mb_per_round
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/remote.hpp>
#include <ctff/run.hpp>

#include "bench_common.hpp"
#include "fedavg_round.hpp"

namespace {

// The FedAvg round (fedavg_round.hpp).
using ctff_bench::bound_update, ctff_bench::check_emitted, ctff_bench::client_batch, ctff_bench::client_structs,
    ctff_bench::client_update, ctff_bench::client_values, ctff_bench::fedavg_clients, ctff_bench::fedavg_round,
    ctff_bench::hand_round, ctff_bench::linear_model;

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });
constexpr auto map_sum = ctff::computation<"map_sum", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_sum(ctff::federated_map(add_one, v)); });

// K workers in this process, each with `threads` threads and the client update bound.
struct workers {
  std::vector<std::unique_ptr<ctff::worker>> ws;
  std::vector<std::string> addresses;
  workers(std::size_t k, unsigned threads) {
    for (std::size_t i = 0; i != k; ++i) {
      ws.push_back(ctff::serve({.run = {.threads = threads},
                                .setup = [](ctff::executor& e) { e.bind(client_update, bound_update); }}));
      addresses.push_back("127.0.0.1:" + std::to_string(ws.back()->port()));
    }
  }
};

void bench_fedavg(benchmark::State& st) {
  const auto k = static_cast<std::size_t>(st.range(0));
  const bool aggregate = st.range(1) != 0;
  workers w(k, 1);
  ctff::remote_executor remote({.workers = w.addresses, .aggregate_on_workers = aggregate}, {.threads = 1});
  remote.bind(client_update, bound_update);
  ctff::executor local({.threads = 1});
  local.bind(client_update, bound_update);
  static const ctff::dynamic_value data = client_values(fedavg_clients);
  linear_model m0{};
  m0.w[0][0] = 0.5f;
  // The same round both ways, checked once: bit for bit, or (aggregated on the workers, float
  // sums regrouped) within 1e-5 of the model's scale.
  const auto a = remote.call<linear_model>(fedavg_round, m0, data);
  const auto b = local.call<linear_model>(fedavg_round, m0, data);
  float worst = 0, scale = 0;
  for (std::size_t i = 0; i != ctff_bench::inputs; ++i)
    for (std::size_t o = 0; o != ctff_bench::outputs; ++o) {
      worst = std::max(worst, std::abs(a.w[i][o] - b.w[i][o]));
      scale = std::max(scale, std::abs(b.w[i][o]));
    }
  if (aggregate ? !(worst <= 1e-5f * scale) : std::memcmp(&a, &b, sizeof a) != 0) {
    st.SkipWithError("the remote and the local round disagree");
    return;
  }
  const ctff::wire_traffic before = remote.traffic();
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(remote.call<linear_model>(fedavg_round, m0, data)); },
      [&] { benchmark::DoNotOptimize(local.call<linear_model>(fedavg_round, m0, data)); });
  const ctff::wire_traffic after = remote.traffic();
  const double rounds = static_cast<double>(st.iterations());  // each remote round ran once per iteration
  st.counters["wire_mb_per_round"] =
      static_cast<double>(after.sent - before.sent + after.received - before.received) / rounds / 1e6;
}

void map_sum_1m(benchmark::State& st) {
  constexpr std::size_t n = 1000000;
  const auto k = static_cast<std::size_t>(st.range(0));
  const bool aggregate = st.range(1) != 0;
  workers w(k, 1);
  ctff::remote_executor remote({.workers = w.addresses, .aggregate_on_workers = aggregate}, {.clients = n, .threads = 1});
  ctff::executor local({.clients = n, .threads = 1});
  std::vector<std::int32_t> xs(n);
  for (std::size_t i = 0; i != n; ++i) xs[i] = static_cast<std::int32_t>(i % 1000);
  const std::int32_t want = static_cast<std::int32_t>(n / 1000 * (1000 * 999 / 2) + n);  // by hand
  if (remote.call<std::int32_t>(map_sum, xs) != want || local.call<std::int32_t>(map_sum, xs) != want) {
    st.SkipWithError("a result is not the hand-computed sum");
    return;
  }
  const ctff::wire_traffic before = remote.traffic();
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(remote.call<std::int32_t>(map_sum, xs)); },
      [&] { benchmark::DoNotOptimize(local.call<std::int32_t>(map_sum, xs)); });
  const ctff::wire_traffic after = remote.traffic();
  st.counters["clients"] = static_cast<double>(n);
  st.counters["wire_mb_per_round"] = static_cast<double>(after.sent - before.sent + after.received - before.received) /
                                     static_cast<double>(st.iterations()) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  check_emitted(fedavg_round);
  check_emitted(map_sum);
  benchmark::RegisterBenchmark("fedavg", bench_fedavg)
      ->ArgsProduct({{1, 2, 4}, {0, 1}})
      ->ArgNames({"workers", "aggregate"})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("map_sum", map_sum_1m)
      ->ArgsProduct({{4}, {0, 1}})
      ->ArgNames({"workers", "aggregate"})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
