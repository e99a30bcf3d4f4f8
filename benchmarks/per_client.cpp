// What the executor spends per client where the per-client work is small (issue 45): the two
// computations of the table, run in process with typed `call` on N distinct int32 client
// values, paired against a hand loop (counter `ratio`: executor / loop; `ns_per_client`).
//
//   sum/clients:N       federated_sum(v)
//   map_sum/clients:N   federated_sum(federated_map(add_one, v))
//   threads_1_vs_2      a bound client function of ~1 us on 1,000,000 clients, 1 thread against 2
//                       (counter `ratio`: the speed-up; meaningful on an otherwise idle machine)
//
// Instructions per client are not a benchmark here: tools/per_client.sh runs
// `ctff_bench_per_client --once sum|map_sum N` under callgrind at two N and divides the
// difference, and `--emit DIR` writes both computations (binary) for the same measurement of the
// whole ctff-run process. `--time sum|map_sum N RUNS` times RUNS typed calls on N clients (one
// executor, the vector made once) and prints the result, then each call's wall time in seconds
// in order (the first prepares the program): benchmarks/against_python.py sets it beside
// federated_language's example context.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctff/ctff.hpp>
#include <ctff/run.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "fedavg_round.hpp"

namespace {

constexpr auto map_sum = ctff::computation<"map_sum", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_sum(ctff::federated_map(ctff_bench::add_one, v)); });
constexpr auto& sum = ctff_bench::sum_clients;

std::vector<std::int32_t> distinct(std::size_t n) {
  std::vector<std::int32_t> v(n);
  for (std::size_t i = 0; i != n; ++i) v[i] = static_cast<std::int32_t>(i * 7 % 1000003);
  return v;
}

// A typed call: the std::vector converts to {int32}@CLIENTS at every call, as a user's would.
template <class C>
std::int32_t run_once(ctff::executor& ex, const C& comp, const std::vector<std::int32_t>& v) {
  return ex.call<std::int32_t>(comp, v);
}

std::int32_t hand(const std::vector<std::int32_t>& v, bool map) {
  std::uint32_t s = 0;  // (wrapping, as the executor's int32 sum)
  for (std::int32_t x : v) s += static_cast<std::uint32_t>(x) + (map ? 1u : 0u);
  return static_cast<std::int32_t>(s);
}

template <const auto& Comp, bool Map>
void bench(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0));
  const std::vector<std::int32_t> plain = distinct(n);
  const std::vector<std::int32_t>& v = plain;
  ctff::executor ex({.clients = n, .threads = 1});
  if (run_once(ex, Comp, v) != hand(plain, Map)) {
    st.SkipWithError("the executor and the hand loop disagree");
    return;
  }
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(run_once(ex, Comp, v)); },
      [&] { benchmark::DoNotOptimize(hand(plain, Map)); });
  st.counters["clients"] = static_cast<double>(n);
}

// A client function of about a microsecond, bound (so it runs client by client on the pool):
// the same 1,000,000-client map on 1 thread and on 2 (counter `ratio`: 1 thread / 2 threads).
constexpr auto busy = ctff::tensorflow_computation<ctff::function<std::int32_t, std::int32_t>>(
    "\x0a\x06\x0a\x04busy", ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));
constexpr auto busy_map = ctff::computation<"busy_map", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_sum(ctff::federated_map(busy, v)); });
std::int32_t spin(std::int32_t x) {
  std::uint32_t h = static_cast<std::uint32_t>(x);
  for (int k = 0; k != 400; ++k) h = h * 2654435761u + 0x9e3779b9u;
  return static_cast<std::int32_t>(h & 0xff);
}

void threads_scaling(benchmark::State& st) {
  constexpr std::size_t n = 1000000;
  const std::vector<std::int32_t> v = distinct(n);
  ctff::executor one({.clients = n, .threads = 1}), two({.clients = n, .threads = 2});
  one.bind(busy, spin);
  two.bind(busy, spin);
  std::uint32_t expect = 0;
  for (std::int32_t x : v) expect += static_cast<std::uint32_t>(spin(x));
  if (one.call<std::int32_t>(busy_map, v) != static_cast<std::int32_t>(expect) ||
      two.call<std::int32_t>(busy_map, v) != static_cast<std::int32_t>(expect)) {
    st.SkipWithError("the executor and the hand loop disagree");
    return;
  }
  ctff_bench::paired(
      st, [&] { benchmark::DoNotOptimize(one.call<std::int32_t>(busy_map, v)); },
      [&] { benchmark::DoNotOptimize(two.call<std::int32_t>(busy_map, v)); });
}

template <class C>
void emit(const C& c, const std::string& path) {
  ctff_bench::check_emitted(c);
  const ctff::byte_view b = c.bytes();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--emit") == 0) {
    emit(sum, std::string(argv[2]) + "/sum.binpb");
    emit(map_sum, std::string(argv[2]) + "/map_sum.binpb");
    return 0;
  }
  if (argc == 4 && std::strcmp(argv[1], "--once") == 0) {
    const bool map = std::strcmp(argv[2], "map_sum") == 0;
    const auto n = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
    const std::vector<std::int32_t> plain = distinct(n);
    const std::vector<std::int32_t>& v = plain;
    ctff::executor ex({.clients = n, .threads = 1});
    const std::int32_t r = map ? run_once(ex, map_sum, v) : run_once(ex, sum, v);
    std::printf("%d\n", r);
    return r == hand(plain, map) ? 0 : 1;
  }
  if (argc == 5 && std::strcmp(argv[1], "--time") == 0) {
    const bool map = std::strcmp(argv[2], "map_sum") == 0;
    const auto n = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
    const int runs = std::max(1, std::atoi(argv[4]));
    const std::vector<std::int32_t> plain = distinct(n);
    ctff::executor ex({.clients = n, .threads = 1});
    std::vector<double> seconds;
    std::int32_t r = 0;
    for (int i = 0; i != runs; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      r = map ? run_once(ex, map_sum, plain) : run_once(ex, sum, plain);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%d", r);
    for (double s : seconds) std::printf(" %.9f", s);
    std::printf("\n");
    return r == hand(plain, map) ? 0 : 1;
  }
  ctff_bench::check_emitted(map_sum);
  ctff_bench::check_emitted(busy_map);
  benchmark::RegisterBenchmark("sum", bench<sum, false>)->Arg(1000000)->ArgName("clients")->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("map_sum", bench<map_sum, true>)->Arg(1000000)->ArgName("clients")->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("threads_1_vs_2", threads_scaling)->Unit(benchmark::kMillisecond)->Iterations(4);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
