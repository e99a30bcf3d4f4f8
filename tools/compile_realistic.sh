#!/usr/bin/env bash
# Compile cost of realistic programs (docs/performance.md, "Round 10"; issue 24).
#
#   bash tools/compile_realistic.sh
#
# Compiles each translation unit of benchmarks/compile/ (the FedAvg round of fedavg_round.hpp with
# its model spelled as ctff::tensor or as std::array members, fedavg_tensor.cpp and
# fedavg_std_array.cpp; the federated evaluation round of fedeval_round.hpp, fedeval.cpp; each
# with every output used; and include_only.cpp, ctff included and nothing traced) with each
# compiler, at -O0 with the constant-evaluation limits ctff::ctff gives its users (CMakeLists.txt),
# and records wall time, CPU time (user + system) and peak memory (GNU time:
# `/usr/bin/time -f '%e %U %S %M'`), the minimum over CTFF_REALISTIC_RUNS runs, and each program's
# cost above the include-only TU of the same compiler. The FedAvg weights' shape is set with
# -DCTFF_FEDAVG_ROWS/COLS (784x10 and 1000x1000); fedeval's model is fixed at 784x10, so it is
# measured at that shape only.
#
# Writes docs/compile_realistic.csv and prints it as a table.
#
# Environment (defaults in brackets):
#   CTFF_REALISTIC_RUNS       runs per TU; the minimum is kept [2]
#   CTFF_REALISTIC_COMPILERS  compilers measured ["gcc clang16"]; also known: clang22, and
#                             clang22-bytecode (clang++-22 -fexperimental-new-constant-interpreter)
#   CTFF_REALISTIC_SHAPES     weight shapes ROWSxCOLS ["784x10 1000x1000"]
#   CTFF_REALISTIC_PROGRAMS   programs measured ["fedavg_tensor fedavg_std_array fedeval"]; the
#                             include-only baseline is always measured
#   CTFF_REALISTIC_OPT        optimization flag [-O0]
#   CTFF_REALISTIC_CSV        output file [docs/compile_realistic.csv]
#   CTFF_REALISTIC_INCLUDE    include directory of ctff [include] (e.g. another commit's, to compare)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

runs=${CTFF_REALISTIC_RUNS:-2}
compilers_measured=(${CTFF_REALISTIC_COMPILERS:-gcc clang16})
shapes=(${CTFF_REALISTIC_SHAPES:-784x10 1000x1000})
programs=(${CTFF_REALISTIC_PROGRAMS:-fedavg_tensor fedavg_std_array fedeval})
opt=${CTFF_REALISTIC_OPT:--O0}
csv=${CTFF_REALISTIC_CSV:-docs/compile_realistic.csv}
include_dir=$(cd "${CTFF_REALISTIC_INCLUDE:-include}" && pwd)
work=$root/build/compile-realistic
mkdir -p "$work" "$(dirname "$csv")"

# ctff::ctff's constant-evaluation limits, as CMakeLists.txt sets them.
cmake_default() { sed -n "s/^set($1 \([0-9]*\) CACHE.*/\1/p" CMakeLists.txt; }
gnu_limits="-fconstexpr-ops-limit=$(cmake_default CTFF_CONSTEXPR_OPS_LIMIT) -fconstexpr-loop-limit=$(cmake_default CTFF_CONSTEXPR_LOOP_LIMIT)"
clang_limits="-fconstexpr-steps=$(cmake_default CTFF_CONSTEXPR_STEPS)"
declare -A command=(
  [gcc]="g++-12 $gnu_limits"
  [clang16]="clang++-16 $clang_limits"
  [clang22]="clang++-22 $clang_limits"
  [clang22-bytecode]="clang++-22 $clang_limits -fexperimental-new-constant-interpreter"
)

# One compile; prints "status wall_s cpu_s max_rss_kib".
compile_once() {
  local out=$1
  shift
  local status=ok
  /usr/bin/time -f '%e %U %S %M' -o "$out.time" "$@" >"$out.log" 2>&1 || status=error
  awk -v s=$status 'END { printf "%s %.2f %.2f %d\n", s, $1, $2 + $3, $4 }' "$out.time"
}

echo "compiler,program,shape,status,wall_s,cpu_s,max_rss_mib,above_include_wall_s,above_include_cpu_s,above_include_mib,runs" >"$csv"
for name in "${compilers_measured[@]}"; do
  read -ra cmd <<<"${command[$name]}"
  cmd+=(-std=gnu++20 "$opt" -I"$include_dir" -Wall -Wextra -Wpedantic -Werror)
  [[ $name == clang22* ]] && cmd+=(-Wno-c2y-extensions)
  echo "== $name: ${cmd[*]} -c <tu> -o <tu.o>"
  base_wall="" base_cpu="" base_mib=""
  for shape in "${shapes[@]}"; do
    rows=${shape%x*} cols=${shape#*x}
    for program in include_only "${programs[@]}"; do
      [[ $program == include_only && -n $base_wall ]] && continue
      [[ $program == fedeval && $shape != 784x10 ]] && continue
      best=""
      for ((k = 1; k <= runs; ++k)); do
        r=$(compile_once "$work/$name-$program-$shape" "${cmd[@]}" -DCTFF_FEDAVG_ROWS="$rows" \
          -DCTFF_FEDAVG_COLS="$cols" -c "benchmarks/compile/$program.cpp" -o "$work/$program.o")
        echo "  $name $program $shape run $k: $r"
        [[ ${r%% *} == ok ]] || { best=$r; break; }
        best=$(printf '%s\n%s\n' "$best" "$r" | awk 'NF {
            if (!seen++) { s = $1; w = $2; c = $3; m = $4; next }
            if ($2 < w) w = $2; if ($3 < c) c = $3; if ($4 < m) m = $4 }
          END { printf "%s %.2f %.2f %d\n", s, w, c, m }')
      done
      read -r status wall cpu rss <<<"$best"
      mib=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
      if [[ $program == include_only ]]; then
        base_wall=$wall base_cpu=$cpu base_mib=$mib
      fi
      above=$(awk -v w="$wall" -v c="$cpu" -v m="$mib" -v bw="$base_wall" -v bc="$base_cpu" -v bm="$base_mib" \
        'BEGIN { printf "%.2f,%.2f,%.1f", w - bw, c - bc, m - bm }')
      echo "$name,$program,$shape,$status,$wall,$cpu,$mib,$above,$runs" >>"$csv"
    done
  done
done

echo
column -s, -t <"$csv"
