#!/usr/bin/env bash
# Installs what is missing, then, for g++-12 and clang++-16: configures (Release) into build/gcc or
# build/clang, builds with -j2 and runs the whole ctest suite. Exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh || exit 1

declare -A compilers=([gcc]=g++-12 [clang]=clang++-16)
results=()
failed=0
start=$SECONDS
for name in gcc clang; do
  cxx=${compilers[$name]}
  dir=build/$name
  echo "=== $name ($cxx): configure, build, test in $dir"
  step_start=$SECONDS
  if ! cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release; then
    results+=("$name: configure FAILED")
    failed=1
    continue
  fi
  if ! cmake --build "$dir" -j2; then
    results+=("$name: build FAILED")
    failed=1
    continue
  fi
  if ! ctest --test-dir "$dir" --output-on-failure -j2; then
    results+=("$name: tests FAILED")
    failed=1
    continue
  fi
  results+=("$name: passed ($((SECONDS - step_start)) s)")
done

echo "=== summary"
printf '  %s\n' "${results[@]}"
if [[ $failed -ne 0 ]]; then
  echo "test.sh: FAILED (${results[*]}; $((SECONDS - start)) s)"
  exit 1
fi
echo "test.sh: ALL PASSED (${results[*]}; $((SECONDS - start)) s)"
