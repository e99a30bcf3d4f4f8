#!/usr/bin/env bash
# Instructions per client (issue 45's measurement): callgrind over a whole process at two client
# counts, the difference divided by the difference in clients, so that start-up, reading the
# computation and everything else done once cancel out. Distinct int32 client values, 1 thread.
#   in process:  ctff_bench_per_client --once sum|map_sum N     (a typed call on a std::vector)
#   ctff-run:    ctff-run COMP --threads 1 ARG.json             (the whole process, JSON included)
#
#   tools/per_client.sh BUILD_DIR [N1 N2]    (default 10000 110000)
set -euo pipefail
build=${1:?usage: tools/per_client.sh BUILD_DIR [N1 N2]}
n1=${2:-10000}
n2=${3:-110000}
bench=$build/benchmarks/ctff_bench_per_client
run=$build/tools/ctff_run/ctff-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --emit "$tmp"

# instructions COMMAND...: what callgrind counts for the command (its output dropped).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>"$tmp/cg.err" ||
    { cat "$tmp/cg.err" >&2; exit 1; }
  sed -n 's/^summary: //p' "$tmp/cg.out"
}
json() {  # N distinct int32 values, as ctff_bench_per_client makes them
  python3 -c "import sys; n=int(sys.argv[1]); print('[' + ','.join(str(i*7%1000003) for i in range(n)) + ']')" "$1"
}
json "$n1" >"$tmp/a1.json"
json "$n2" >"$tmp/a2.json"
printf '%-28s %12s\n' "measurement" "instr/client"
for which in sum map_sum; do
  a=$(instructions "$bench" --once "$which" "$n1")
  b=$(instructions "$bench" --once "$which" "$n2")
  printf '%-28s %12.0f\n' "in process: $which" "$(echo "($b - $a) / ($n2 - $n1)" | bc -l)"
done
if [[ -x $run ]]; then
  for which in sum map_sum; do
    a=$(instructions "$run" "$tmp/$which.binpb" --threads 1 "$tmp/a1.json")
    b=$(instructions "$run" "$tmp/$which.binpb" --threads 1 "$tmp/a2.json")
    printf '%-28s %12.0f\n' "ctff-run: $which" "$(echo "($b - $a) / ($n2 - $n1)" | bc -l)"
  done
fi
