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
//   fedavg_data/workers:1/aggregate:A  the FedAvg round with the clients' data on the worker
//                         (ctff-worker --data: a shard file of the 1,000 batches, rows by URI),
//                         against the local round over the same data in memory; counters ratio,
//                         wire_mb_per_round and sent_kb_per_round
//   map_sum/workers:4/aggregate:A  1,000,000 int32 clients: federated_map(add one) on 4 workers,
//                         then federated_sum: on the controller (A = 0), or split over the 4
//                         workers (A = 1); counters ratio and wire_mb_per_round
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <ctff/ctff.hpp>
#include <ctff/remote.hpp>
#include <ctff/numpy/npz.hpp>
#include <ctff/run.hpp>
#include <ctff/run/data_reference.hpp>
#include <ctff/run/data_uri.hpp>
#include <ctff/run/signature.hpp>

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

// The clients' batches as one shard file (x: [N,32,784], y: [N,32,10]) in a fresh directory.
std::filesystem::path shard_dir(const std::vector<client_batch>& data) {
  const auto dir = std::filesystem::temp_directory_path() / ("ctff_bench_data_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto array = [](std::vector<std::int64_t> shape, std::vector<float>& v) {
    ctff::npy_array a;
    a.kind = 'f';
    a.itemsize = 4;
    a.shape = std::move(shape);
    a.count = v.size();
    a.data = std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 4);
    return a;
  };
  std::vector<float> xs, ys;
  for (const client_batch& b : data) {
    xs.insert(xs.end(), &b.x[0][0], &b.x[0][0] + ctff_bench::batch * ctff_bench::inputs);
    ys.insert(ys.end(), &b.y[0][0], &b.y[0][0] + ctff_bench::batch * ctff_bench::outputs);
  }
  const auto n = static_cast<std::int64_t>(data.size()), bt = static_cast<std::int64_t>(ctff_bench::batch);
  std::vector<std::pair<std::string, ctff::npy_array>> arrays;
  arrays.emplace_back("x", array({n, bt, static_cast<std::int64_t>(ctff_bench::inputs)}, xs));
  arrays.emplace_back("y", array({n, bt, static_cast<std::int64_t>(ctff_bench::outputs)}, ys));
  const std::string bytes = ctff::write_npz(arrays);
  std::ofstream(dir / "shard.npz", std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return dir;
}

void bench_fedavg_data(benchmark::State& st) {
  const bool aggregate = st.range(1) != 0;
  const std::vector<client_batch> batches = client_structs(fedavg_clients);
  const std::filesystem::path dir = shard_dir(batches);
  struct remove_dir {
    std::filesystem::path d;
    ~remove_dir() { std::filesystem::remove_all(d); }
  } cleanup{dir};
  auto w = ctff::serve({.run = {.threads = 1},
                        .setup = [](ctff::executor& e) { e.bind(client_update, bound_update); },
                        .data = std::make_shared<const ctff::data_dir>(dir)});
  ctff::remote_executor remote({.workers = {"127.0.0.1:" + std::to_string(w->port())}, .aggregate_on_workers = aggregate},
                               {.clients = fedavg_clients, .threads = 1});
  ctff::executor local({.threads = 1});
  local.bind(client_update, bound_update);
  static const ctff::dynamic_value data = client_values(fedavg_clients);
  linear_model m0{};
  m0.w[0][0] = 0.5f;
  // The argument by URI: the model, and row i of the shard for client i.
  const ctff::computation_tree t = ctff::read_computation(fedavg_round.bytes().str());
  const std::uint32_t member = t.types.kid(t.types.kid(ctff::signature_of(t).parameter, 1), 0);
  std::vector<ctff::dynamic_value> uris;
  for (std::size_t i = 0; i != fedavg_clients; ++i)
    uris.push_back(ctff::data_reference_value("shard.npz#" + std::to_string(i), t.types, member));
  const ctff::dynamic_value arg = ctff::make_struct_value(
      {ctff::make_federated(ctff::placement_kind::server, true, {ctff::to_value<ctff::tff_t<linear_model>>(m0)}),
       ctff::make_federated(ctff::placement_kind::clients, false, std::move(uris))},
      {"model", "data"});
  // Checked once against the hand-written round: bit for bit, or within 1e-5 of the model's scale.
  const ctff::dynamic_value want = ctff::make_federated(
      ctff::placement_kind::server, true, {ctff::to_value<ctff::tff_t<linear_model>>(hand_round(m0, batches, 1))});
  const ctff::dynamic_value got = remote.run(t, arg);
  if (!aggregate && !(got == want)) {
    st.SkipWithError("the round over data on the worker is not the hand-written round");
    return;
  }
  const ctff::wire_traffic before = remote.traffic();
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(remote.run(t, arg)); },
      [&] { benchmark::DoNotOptimize(local.call<linear_model>(fedavg_round, m0, data)); });
  const ctff::wire_traffic after = remote.traffic();
  const double rounds = static_cast<double>(st.iterations());
  st.counters["wire_mb_per_round"] =
      static_cast<double>(after.sent - before.sent + after.received - before.received) / rounds / 1e6;
  st.counters["sent_kb_per_round"] = static_cast<double>(after.sent - before.sent) / rounds / 1e3;
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
  benchmark::RegisterBenchmark("fedavg_data", bench_fedavg_data)
      ->ArgsProduct({{1}, {0, 1}})
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
