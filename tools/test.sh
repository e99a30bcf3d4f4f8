#!/usr/bin/env bash
# Installs what is missing, then:
#   1. for g++-12 and clang++-16: configures (Release) into build/gcc or build/clang, builds with
#      -j2 and runs the whole ctest suite. The differential test (tests/differential) compiles its
#      programs with both compilers in whichever build runs it first; the object cache
#      build/differential-cache is shared, so the second build only links, runs and compares.
#   2. for both compilers again with -DCTFF_SANITIZE=ON (AddressSanitizer + UBSan) at -O0 in
#      build/gcc-asan and build/clang-asan: builds the unit tests and the examples and runs them.
#      (-O0: with the sanitizers, g++ -O2 compiles a unit test 4x slower, 75 s against 18 s for
#      binding_rules_test.cpp; the sanitizers check the same at -O0.)
# Prints the time of every phase. Exits non-zero if anything failed.
#
#   --no-asan          skip step 2
#   --build-root DIR   build trees under DIR instead of build/
set -uo pipefail
cd "$(dirname "$0")/.."

asan=1
root=build
while [[ $# -gt 0 ]]; do
  case $1 in
    --no-asan) asan=0 ;;
    --build-root) root=$2; shift ;;
    *) echo "test.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

bash tools/install-deps.sh || exit 1

declare -A compilers=([gcc]=g++-12 [clang]=clang++-16)
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

# suite NAME CXX DIR TARGETS TEST-ARGS BUILD-TYPE CMAKE-ARGS...: configure, build, test one tree.
suite() {
  local name=$1 cxx=$2 dir=$3 targets=$4 test_args=$5 build_type=$6
  shift 6
  local t0=$SECONDS
  if ! phase "$name configure" cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_BUILD_TYPE="$build_type" "$@"; then
    results+=("$name: configure FAILED")
    failed=1
    return
  fi
  local build=(cmake --build "$dir" -j2)
  [[ -n $targets ]] && build+=(--target $targets)
  if ! phase "$name build" "${build[@]}"; then
    results+=("$name: build FAILED")
    failed=1
    return
  fi
  # shellcheck disable=SC2086  # test_args is a word list
  if ! phase "$name test" ctest --test-dir "$dir" --output-on-failure -j2 $test_args; then
    results+=("$name: tests FAILED")
    failed=1
    return
  fi
  results+=("$name: passed ($((SECONDS - t0)) s)")
}

mkdir -p "$root"
root=$(cd "$root" && pwd)
for name in gcc clang; do
  suite "$name" "${compilers[$name]}" "$root/$name" "" "" Release \
    -DCTFF_DIFFERENTIAL_CACHE="$root/differential-cache"
done

if [[ $asan -eq 1 ]]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  for name in gcc clang; do
    # Only what runs: the unit tests and the examples (not the benchmarks, header checks or
    # compile-fail cases, which the plain builds cover).
    suite "$name-asan" "${compilers[$name]}" "$root/$name-asan" \
      ctff_runnable "-L unit|example" Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
      -DCTFF_SANITIZE=ON -DCTFF_BUILD_BENCHMARKS=OFF
  done
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
