// Trace cost of generated chains of 1, 10, 100 and 1000 intrinsic calls (broadcast -> map -> sum,
// repeated; programs.hpp). Besides the kinds of bench_common.hpp, the run-time trace is split:
//   runtime_record_only     recording the trace (no output)
//   runtime_trace_wire_only recording + writing the wire bytes (no printed forms)
//   paired_wire_only_hand   runtime_trace_wire_only against hand_build_serialize, alternated
//                           in one loop (counter `ratio`)
// Run with `bash tools/bench.sh`.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "hand_built.hpp"

namespace ctff_bench {

using chain_param = ctff::detail::param_of<ctff::at_server<std::int32_t>>::type;

// The run-time chain's lambda, as runtime_chain<N> traces it.
template <std::size_t N>
auto runtime_chain_fn(std::int32_t k) {
  auto add = ctff::computation<"add_one", std::int32_t>([k](auto x) { return x + k; });
  return [add](auto server_val) { return chain_calls<N>(add, server_val); };
}

template <std::size_t N>
std::size_t runtime_chain_record_only(std::int32_t k) {
  auto fn = runtime_chain_fn<N>(k);
  ctff::detail::trace_ctx ctx;
  auto root = ctff::detail::trace_into<decltype(fn), chain_param>(fn, "chain", ctx);
  return root + ctx.nodes.size();
}

template <std::size_t N>
auto runtime_chain_wire_only(std::int32_t k) {
  auto fn = runtime_chain_fn<N>(k);
  ctff::detail::trace_ctx ctx;
  auto root = ctff::detail::trace_into<decltype(fn), chain_param>(fn, "chain", ctx);
  return ctff::detail::runtime_bytes(ctx, root);  // as runtime_outputs::trace writes them
}

template <std::size_t N>
void register_chain() {
  const std::string name = "chain_" + std::to_string(N);
  register_program(
      name, chain<N>, [] { return hand_built::chain(static_cast<int>(N)); },
      [] { return runtime_chain<N>(opaque(1)); });
  {
    auto wire = runtime_chain_wire_only<N>(1);
    check_same_bytes((name + " (wire only)").c_str(), ctff::byte_view(wire.data(), wire.size()),
                     chain<N>.bytes());
  }
  benchmark::RegisterBenchmark(("runtime_record_only/" + name).c_str(), [](benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(runtime_chain_record_only<N>(opaque(1)));
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("runtime_trace_wire_only/" + name).c_str(),
                               [](benchmark::State& st) {
                                 for (auto _ : st) {
                                   auto bytes = runtime_chain_wire_only<N>(opaque(1));
                                   benchmark::DoNotOptimize(bytes.data());
                                 }
                               })
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("paired_wire_only_hand/" + name).c_str(), [](benchmark::State& st) {
    paired(
        st,
        [] {
          auto bytes = runtime_chain_wire_only<N>(opaque(1));
          benchmark::DoNotOptimize(bytes.data());
        },
        [] {
          federated_language::Computation m = hand_built::chain(static_cast<int>(N));
          std::string s;
          m.SerializeToString(&s);
          benchmark::DoNotOptimize(s.data());
        });
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace ctff_bench

int main(int argc, char** argv) {
  ctff_bench::register_chain<1>();
  ctff_bench::register_chain<10>();
  ctff_bench::register_chain<100>();
  ctff_bench::register_chain<1000>();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
