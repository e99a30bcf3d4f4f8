#!/usr/bin/env bash
# Run-time trace-cost benchmarks (docs/performance.md): builds the Google Benchmark executables
# of benchmarks/*.cpp in Release into build/bench-<compiler>, runs them, and prints a summary table
# with the ratios the performance targets are stated in.
#
#   bash tools/bench.sh              # g++-12
#   bash tools/bench.sh clang        # clang++-16
#   bash tools/bench.sh all          # both
#
# Environment:
#   CTFF_BENCH_REPETITIONS  repetitions of each benchmark, run in random interleaved order; the
#                           summary uses the median (default 9)
#   CTFF_BENCH_MIN_TIME     --benchmark_min_time per repetition, seconds (default 0.1)
#   CTFF_BENCH_FILTER       --benchmark_filter regex (default: all)
# Outputs, per compiler: build/bench-<compiler>/results/<executable>.json (Google Benchmark JSON)
# and build/bench-<compiler>/results/summary.md (the table printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-gcc}
reps=${CTFF_BENCH_REPETITIONS:-9}
min_time=${CTFF_BENCH_MIN_TIME:-0.1}
filter=${CTFF_BENCH_FILTER:-.}

# Optional extras of the benchmark scripts (jq for the summary); never part of the test path.
bash tools/install-deps.sh --bench

declare -A compilers=([gcc]=g++-12 [clang]=clang++-16)
case $which in
  gcc | clang) names=("$which") ;;
  all) names=(gcc clang) ;;
  *) echo "usage: bash tools/bench.sh [gcc|clang|all]" >&2; exit 2 ;;
esac

# Median CPU time per benchmark (in microseconds), as "kind program time bytes ratio" lines.
medians() {
  jq -r '
    def us: .cpu_time * (if .time_unit == "ns" then 0.001 elif .time_unit == "us" then 1
                         elif .time_unit == "ms" then 1000 else 1000000 end);
    (.benchmarks | map(select(.aggregate_name == "median"))) as $m
    | (if ($m | length) > 0 then $m else .benchmarks end)[]
    | (.run_name | split("/")) as $n
    | "\($n[0]) \($n[1]) \(us) \(.bytes // 0) \(.ratio // "-")"' "$@"
}

# Two markdown tables: median times, and the ratios of the targets (from the medians, and from the
# paired benchmarks, which alternate both sides in one loop).
summary() {
  local dir=$1 cxx=$2
  medians "$dir"/*.json | awk -v cxx="$cxx" -v host="$(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" '
    { t[$2, $1] = $3; q[$2, $1] = $5; if ($4 > 0) bytes[$2] = $4; seen[$2] = 1 }
    function f(x) { return x == "" ? "-" : (x < 10 ? sprintf("%.3f", x) : (x < 100 ? sprintf("%.2f", x) : sprintf("%.1f", x))) }
    function r(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.3f", a / b) }
    function p(x) { return (x == "" || x == "-") ? "-" : sprintf("%.3f", x) }
    END {
      split("chain_1 chain_10 chain_100 chain_1000 add_one simple sum_clients named_params zip_unnamed federated_values fedavg", known, " ")
      n = 0
      for (i = 1; i in known; ++i) if (known[i] in seen) { order[n++] = known[i]; done[known[i]] = 1 }
      for (x in seen) if (!(x in done)) order[n++] = x
      printf "Run-time trace cost, %s, median CPU time in microseconds (%s).\n\n", cxx, host
      print "| program | bytes | bytes_copy | bytes_hash | to_proto | parse_string | hand_build | hand_build_serialize | runtime_trace | runtime_trace_wire_only | runtime_record_only | runtime_trace_to_proto |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      for (i = 0; i < n; ++i) {
        x = order[i]
        printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", x, bytes[x],
          f(t[x, "bytes_copy"]), f(t[x, "bytes_hash"]), f(t[x, "to_proto"]), f(t[x, "parse_string"]),
          f(t[x, "hand_build"]), f(t[x, "hand_build_serialize"]), f(t[x, "runtime_trace"]),
          f(t[x, "runtime_trace_wire_only"]), f(t[x, "runtime_record_only"]),
          f(t[x, "runtime_trace_to_proto"])
      }
      printf "\nRatios, %s: from the medians above, and paired (both sides alternated in one loop; median of the repetitions).\n\n", cxx
      print "| program | to_proto / parse_string | paired | runtime_trace / hand_build_serialize | paired | runtime_trace_wire_only / hand_build_serialize | paired |"
      print "|---|---:|---:|---:|---:|---:|---:|"
      for (i = 0; i < n; ++i) {
        x = order[i]
        printf "| %s | %s | %s | %s | %s | %s | %s |\n", x,
          r(t[x, "to_proto"], t[x, "parse_string"]), p(q[x, "paired_to_proto_parse"]),
          r(t[x, "runtime_trace"], t[x, "hand_build_serialize"]), p(q[x, "paired_runtime_hand"]),
          r(t[x, "runtime_trace_wire_only"], t[x, "hand_build_serialize"]), p(q[x, "paired_wire_only_hand"])
      }
    }'
}

for name in "${names[@]}"; do
  cxx=${compilers[$name]}
  dir=build/bench-$name
  echo "=== $name ($cxx): configure and build the benchmarks in $dir (Release)"
  cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
    -DCTFF_BUILD_BENCHMARKS=ON -DCTFF_BUILD_TESTS=OFF -DCTFF_BUILD_EXAMPLES=OFF >/dev/null
  targets=()
  for src in benchmarks/*.cpp; do
    targets+=("ctff_bench_$(basename "$src" .cpp)")
  done
  cmake --build "$dir" -j2 --target "${targets[@]}"
  mkdir -p "$dir/results"
  rm -f "$dir"/results/*.json
  for t in "${targets[@]}"; do
    exe=$dir/benchmarks/$t
    echo "=== $name: $t"
    "$exe" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
      --benchmark_report_aggregates_only=true \
      --benchmark_min_time="$min_time" --benchmark_filter="$filter" \
      --benchmark_out="$dir/results/$t.json" --benchmark_out_format=json
  done
  summary "$dir/results" "$cxx" | tee "$dir/results/summary.md"
done
