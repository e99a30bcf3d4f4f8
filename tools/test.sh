#!/usr/bin/env bash
# Installs what is missing, then builds and tests ctff with g++-12, clang++-16 and clang++-22
# (libstdc++ 12), and with clang++-22 -stdlib=libc++ (the protobuf-free parts). Work that does not
# depend on the compiler is done once:
#   1. gcc:     g++-12, everything but the benchmarks (built by 2), all ctest tests. The differential test
#               (tests/differential) compiles half of its 512 programs (300 of depth 2, 100 of
#               depth 3, the 48 of the known-divergence bucket, 64 rounds; the shard chosen by the
#               commit: run.py --rotate 2) with g++-12, clang++-16 and clang++-22, compares all
#               three and Python's committed outputs; its object cache is ../.ctff-cache/ctff-differential.
#   2. clang:   clang++-16: everything (the benchmarks too: built, not run) but the header checks (a
#               header's own includes depend on the standard library, not the compiler: 1 checks
#               them with libstdc++, 4 with libc++), all ctest tests but the consumer tests
#               (install and CMake packaging), the differential test and docs.diagnostics (which
#               runs both g++-12 and clang++-16 itself): run by 1.
#   3. clang22: clang++-22 with -DCTFF_SANITIZE=ON (AddressSanitizer + UBSan) at -O0: the unit
#               tests and examples built and run, the compile-fail cases (clang-22 prints computed
#               static_assert messages). One tree is both clang-22's suite and the sanitizer suite
#               (with --no-asan: a plain tree). Not the header checks (see 2).
#   4. libcxx:  clang++-22 -stdlib=libc++, without ctff::proto (Debian's protobuf is built against
#               libstdc++): the protobuf-free unit tests, examples and header checks.
#   5. gcc-sanitize-syntax: every unit test, example and ctff-inspect TU of build 1 compiled again
#               by g++-12 with -fsyntax-only -fsanitize=address,undefined (tools/sanitize_syntax.py):
#               the compile-time traces stay constant expressions under g++'s sanitizers.
#   6. tsan:    clang++-16 with -DCTFF_SANITIZE_THREAD=ON (ThreadSanitizer), Debug at -O1: only the
#               tests that run threads (label tsan: the worker and remote_executor's tests,
#               ctff-worker replaying TFF's requests, two of the executor's unit test sources;
#               tests/tsan), none of the compile-time-tracing rest.
# Trees 1, 2 and 4 are Release at -O0, not CMake's -O3: what CI checks (results, diagnostics,
# constant evaluation) does not depend on the level, and the optimizer is most of a test's build
# (run_intrinsics_test.cpp: clang++-16 67 s at -O1, 23 s at -O0; g++-12 42 s at -O1, 26 s at -O0;
# CI's limit is 5,400 s). The warnings g++ gives only when optimizing (-Wmaybe-uninitialized and
# kin) come from tree 1's tools, built at -O2 (CTFF_OPTIMIZED_WARNINGS).
#
#   --no-asan          skip steps 5 and 6, and build 3 without the sanitizers
#   --only NAME,...    only these steps (gcc, clang, clang22, libcxx, gcc-sanitize-syntax, tsan)
#   --build-root DIR   build trees under DIR instead of build/
set -uo pipefail
cd "$(dirname "$0")/.."

asan=1
root=build
only=
while [[ $# -gt 0 ]]; do
  case $1 in
    --no-asan) asan=0 ;;
    --build-root) root=$2; shift ;;
    --only) only=",$2,"; shift ;;
    *) echo "test.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

bash tools/install-deps.sh || exit 1

results=()
timings=()
failed=0
start=$SECONDS

# phase NAME COMMAND...: runs the command, records its time; returns its status.
phase() {
  local name=$1
  shift
  local t0=$SECONDS
  echo "=== $name: $*"
  "$@"
  local rc=$?
  timings+=("$(printf '%-28s %5d s%s' "$name" $((SECONDS - t0)) "$([[ $rc -ne 0 ]] && echo '  FAILED')")")
  return $rc
}

# wanted NAME: whether --only (if given) names this step.
wanted() {
  [[ -z $only || $only == *",$1,"* ]]
}

# costs DIR: the tree's 20 costliest build steps and tests (tools/ci_costs.py), printed and kept
# in $root/ci-costs.md.
costs() {
  python3 tools/ci_costs.py "$1" --out "$root/ci-costs.md" || true
}

# suite NAME CXX DIR TARGETS TEST-ARGS LABELS BUILD-TYPE CMAKE-ARGS...: configure, build, test one
# tree; LABELS: the labels of which at least one test must run and pass.
suite() {
  local name=$1 cxx=$2 dir=$3 targets=$4 test_args=$5 labels=$6 build_type=$7
  shift 7
  wanted "$name" || return 0
  local t0=$SECONDS
  if ! phase "$name configure" cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_BUILD_TYPE="$build_type" "${launcher[@]}" "$@"; then
    results+=("$name: configure FAILED")
    failed=1
    return
  fi
  local build=(cmake --build "$dir" -j2)
  [[ -n $targets ]] && build+=(--target $targets)
  if ! phase "$name build" "${build[@]}"; then
    results+=("$name: build FAILED")
    failed=1
    costs "$dir"
    return
  fi
  local junit=$dir/ctest-junit.xml
  rm -f "$junit"
  # shellcheck disable=SC2086  # test_args is a word list
  if ! phase "$name test" ctest --test-dir "$dir" --output-on-failure --no-tests=error -j2 \
      --output-junit "$junit" $test_args; then
    results+=("$name: tests FAILED")
    failed=1
    costs "$dir"
    return
  fi
  costs "$dir"
  # The rotating suites' shards (run.py --rotate, mutate.sh --rotate): which part ran this time.
  grep -ohE '(differential|mutate\.sh): shard [^&<]*' "$junit" | sed 's/^/  /' || true
  # shellcheck disable=SC2086  # labels is a word list
  if ! phase "$name labels" python3 tools/check_labels.py "$dir" "$junit" $labels; then
    results+=("$name: a label ran no test: FAILED")
    failed=1
    return
  fi
  results+=("$name: passed ($((SECONDS - t0)) s)")
}

mkdir -p "$root"
root=$(cd "$root" && pwd)
rm -f "$root/ci-costs.md"
# Ninja: it keeps each build step's time (.ninja_log, read by tools/ci_costs.py).
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# Compiler caches beside the checkout (not in it, so a fresh clone finds them), so that a rerun
# compiles only what changed: ccache for the trees, the differential test's own object cache
# (keyed by program, headers, compiler and flags) for its programs.
cache_home=${CTFF_CACHE_HOME:-$(dirname "$PWD")/.ctff-cache}
export CCACHE_DIR=${CCACHE_DIR:-$cache_home/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
# The tests' precompiled headers (CTFF_TEST_PCH) are cached only with this sloppiness (ccache's
# manual, "Precompiled headers").
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
sanitize=(Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCTFF_SANITIZE=ON)
# The plain trees: Release at -O0 (above).
release=(Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG")
[[ $asan -eq 1 ]] || sanitize=("${release[@]}")
cache=-DCTFF_DIFFERENTIAL_CACHE="${CTFF_DIFFERENTIAL_CACHE:-$cache_home/ctff-differential}"

# CI's differential profile: the default's 512 programs (seeds 1-300 at depth 2, all of Python's
# depth-3, bucket and round outputs) in two shards, one per commit, chosen by its hash (run.py
# --rotate 2: each commit runs 256, as many as the former fixed profile's 260, compared across the
# three compilers, each required, and with Python; the shard is printed after the tree's tests).
# All of them: `ctest -L differential` on a default configuration, or run.py --shard K/2 for
# K = 0, 1. The fuzzers run 30 s each (their long runs are in docs/fuzzing.md). g++-12's tree
# builds the tools at -O2 for g++'s optimizing warnings (CTFF_OPTIMIZED_WARNINGS).
suite gcc g++-12 "$root/gcc" "" "" "unit example compile_fail consumer differential docs tool run layers remote" \
  "${release[@]}" "$cache" -DCTFF_BUILD_BENCHMARKS=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCTFF_DIFFERENTIAL_ROTATE=2 \
  -DCTFF_OPTIMIZED_WARNINGS=ON \
  "-DCTFF_DIFFERENTIAL_COMPILERS=g++-12;clang++-16;clang++-22"
suite clang clang++-16 "$root/clang" "" "-LE differential|consumer -E ^docs\.diagnostics$" \
  "unit example compile_fail docs fuzz tool run remote" "${release[@]}" "$cache" \
  -DCTFF_FUZZ_SECONDS=30 -DCTFF_HEADER_CHECKS=OFF
suite clang22 clang++-22 "$root/clang22" ctff_runnable "-L unit|example|compile_fail" \
  "unit example compile_fail" "${sanitize[@]}" -DCTFF_BUILD_BENCHMARKS=OFF
suite libcxx clang++-22 "$root/libcxx" "ctff_runnable ctff_header_checks" "-L unit|example" \
  "unit example" "${release[@]}" -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DCTFF_BUILD_BENCHMARKS=OFF

if [[ $asan -eq 1 ]]; then
  if ! wanted gcc-sanitize-syntax; then
    :
  elif [[ -f $root/gcc/compile_commands.json ]] &&
      phase "gcc-sanitize-syntax" python3 tools/sanitize_syntax.py "$root/gcc" --jobs 2; then
    results+=("gcc-sanitize-syntax: passed")
  else
    results+=("gcc-sanitize-syntax: FAILED")
    failed=1
  fi
  # -O1, as ThreadSanitizer's documentation advises (its slowdown is less at -O1). TSAN_OPTIONS
  # (suppressions, halt_on_error) come from the tests' ctest ENVIRONMENT.
  suite tsan clang++-16 "$root/tsan" "ctff_remote_tests ctff_tsan_tests" "-L tsan" "tsan" \
    Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" -DCTFF_SANITIZE_THREAD=ON \
    -DCTFF_BUILD_BENCHMARKS=OFF -DCTFF_BUILD_EXAMPLES=OFF
fi

echo "=== timings"
printf '  %s\n' "${timings[@]}"
echo "=== summary"
printf '  %s\n' "${results[@]}"
if [[ $failed -ne 0 ]]; then
  echo "test.sh: FAILED (${results[*]}; $((SECONDS - start)) s)"
  exit 1
fi
echo "test.sh: ALL PASSED (${results[*]}; $((SECONDS - start)) s)"
