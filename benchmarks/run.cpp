// The executor (ctff/run.hpp) against hand-written C++ doing the same arithmetic, paired
// (alternated in one loop, bench_common.hpp `paired`: the counter `ratio` is executor / loop).
//
//   fedavg/threads:T     one FedAvg round, model float32[784,10] + float32[10], 1,000 clients, a
//                        bound C++ client update (one gradient step of a linear model on 32
//                        examples), T threads for both
//   simple/clients:N     `simple` (broadcast, map add_one, sum) on N clients; counter ns_per_client
//   sum_1m/clients:100   federated_sum of float32[1000000] over 100 clients; counter gb_per_s
//
// Peak memory is not a benchmark: `ctff_bench_run --memory executor|loop` runs one FedAvg round
// the one way and prints the process's peak resident set (tools/bench_run_memory.sh pairs them).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "bench_common.hpp"
#include "fedavg_round.hpp"

namespace {

// The FedAvg round (fedavg_round.hpp).
using ctff_bench::bound_update, ctff_bench::check_emitted, ctff_bench::client_batch, ctff_bench::client_structs,
    ctff_bench::client_update, ctff_bench::client_values, ctff_bench::fedavg_clients, ctff_bench::fedavg_round,
    ctff_bench::hand_round, ctff_bench::linear_model;

constexpr auto sum_1m = ctff::computation<"sum_1m", ctff::at_clients<ctff::tensor<ctff::dtype::float32, 1000000>>>(
    [](auto v) { return ctff::federated_sum(v); });

void bench_fedavg(benchmark::State& st) {
  const auto threads = static_cast<unsigned>(st.range(0));
  ctff::executor ex({.clients = {}, .threads = threads});
  ex.bind(client_update, bound_update);
  static const ctff::dynamic_value data_v = client_values(fedavg_clients);
  static const std::vector<client_batch> data_s = client_structs(fedavg_clients);
  static const linear_model m0 = [] {
    linear_model m{};
    m.w[0][0] = 0.5f;
    return m;
  }();
  // The two ways agree (the same float32 arithmetic in the same order): checked once.
  const auto a = ex.call<linear_model>(fedavg_round, m0, data_v);
  const auto b = hand_round(m0, data_s, threads);
  if (std::memcmp(&a, &b, sizeof a) != 0) {
    st.SkipWithError("the executor and the hand loop disagree");
    return;
  }
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(ex.call<linear_model>(fedavg_round, m0, data_v)); },
      [&] { benchmark::DoNotOptimize(hand_round(m0, data_s, threads)); });
}

void simple(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0));
  ctff::executor ex({.clients = n, .threads = 1});
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(ex.call<std::int32_t>(ctff_bench::simple, 5)); },
      [&] {
        std::int32_t s = 0;
        for (std::size_t i = 0; i != n; ++i) s += 5 + 1;
        benchmark::DoNotOptimize(s);
      });
  st.counters["clients"] = static_cast<double>(n);
}

void sum_big(benchmark::State& st) {
  constexpr std::size_t n = 100, len = 1000000;
  static const ctff::dynamic_value members = [] {
    std::vector<ctff::dynamic_value> m;
    for (std::size_t c = 0; c != n; ++c)
      m.push_back(ctff::make_tensor<ctff::dtype::float32>(std::vector<float>(len, static_cast<float>(c)), {len}));
    return ctff::make_federated(ctff::placement_kind::clients, false, std::move(m));
  }();
  static const std::vector<std::vector<float>> plain(n, std::vector<float>(len, 1.0f));
  ctff::executor ex({.clients = {}, .threads = 1});
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(ex.call(sum_1m, members)); },
      [&] {
        std::vector<float> acc(len, 0.0f);
        for (const auto& v : plain)
          for (std::size_t i = 0; i != len; ++i) acc[i] += v[i];
        benchmark::DoNotOptimize(acc.data());
      });
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * n * len * sizeof(float)));
}

long peak_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

int memory_mode(const char* which) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  linear_model m0{};
  float checksum = 0;
  if (std::strcmp(which, "executor") == 0) {
    ctff::executor ex({.clients = {}, .threads = threads});
    ex.bind(client_update, bound_update);
    const ctff::dynamic_value data = client_values(fedavg_clients);
    const auto m = ex.call<linear_model>(fedavg_round, m0, data);
    checksum = m.b[0];
  } else if (std::strcmp(which, "loop") == 0) {
    const auto data = client_structs(fedavg_clients);
    checksum = hand_round(m0, data, threads).b[0];
  } else {
    std::fprintf(stderr, "--memory executor|loop\n");
    return 2;
  }
  std::printf("%s peak_rss_kib %ld checksum %g\n", which, peak_kib(), static_cast<double>(checksum));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--memory") == 0) return memory_mode(argv[2]);
  check_emitted(fedavg_round);
  check_emitted(sum_1m);
  check_emitted(ctff_bench::simple);
  benchmark::RegisterBenchmark("fedavg", bench_fedavg)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("simple", simple)->Arg(1)->Arg(10000)->ArgName("clients");
  benchmark::RegisterBenchmark("sum_1m", sum_big)->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
