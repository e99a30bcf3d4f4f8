// Trace cost of the golden programs and of a FedAvg-like round: reading the compile-time bytes,
// ctff::to_proto vs ParseFromString vs building the message by hand, and tracing at run time.
// See bench_common.hpp for the benchmark kinds; run with `bash tools/bench.sh`.
#include <benchmark/benchmark.h>

#include "bench_common.hpp"
#include "hand_built.hpp"

int main(int argc, char** argv) {
  using namespace ctff_bench;
  using ctff_bench::opaque;
  register_program(
      "add_one", add_one, [] { return hand_built::add_one(); },
      [] { return rt_add_one(opaque(1)); });
  register_program("simple", simple, hand_built::simple, [] { return rt_simple(opaque(1)); });
  register_program("sum_clients", sum_clients, hand_built::sum_clients,
                   [] { return rt_sum_clients(opaque(1)); });
  register_program("named_params", named_params, hand_built::named_params,
                   [] { return rt_named_params(opaque(1)); });
  register_program("zip_unnamed", zip_unnamed, hand_built::zip_unnamed,
                   [] { return rt_zip_unnamed(opaque(1)); });
  register_program("federated_values", federated_values, hand_built::federated_values,
                   [] { return rt_federated_values(opaque(10), opaque(2.5f)); });
  register_program("fedavg", fedavg, hand_built::fedavg,
                   [] { return runtime_fedavg(opaque(1.0f)); });

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
