#!/usr/bin/env bash
# Message-corruption run for the compile-fail suite.
#
#   mutate.sh <build-dir> [-j <jobs>] [--shard <k>/<n> | --rotate <n>] [--no-baseline]
#
# <build-dir> is a configured ctff build tree (e.g. build/gcc); its compiler and flags are read from
# <build-dir>/tests/compile_fail/compile_fail.env (a path to that file also works).
#
# For every distinct `ctff:` message in include/ctff/ (messages.py: a string literal or a run of
# adjacent literals, macros included, comments ignored; its text with C escapes undone, as the
# compilers print it), this copies include/ to a temporary directory, corrupts that message
# everywhere it is written (messages.py mutate: XX after "ctff:" and in place of every space of
# each of its literals), and reruns, against the copy, each compile-fail case whose `// expect:`
# text overlaps the message (one contains the other). A case that still passes does not depend on
# the message it claims to test: reported as FAIL, and the run exits 1; so is a case that fails
# for another reason than its expected text missing (a catch is the expected text gone). Messages no case overlaps
# are reported as UNCOVERED (a failure only when CTFF_STRICT_COVERAGE=1, i.e. the CMake option
# CTFF_COMPILE_FAIL_STRICT_COVERAGE). The cases used are first checked against the unmodified
# headers.
#
# A subset: `--shard k/n` takes the messages whose number (messages.py list) is k modulo n;
# `--rotate n` takes shard k/n with k chosen by the source tree's commit (its hash modulo n, so a
# rerun of one commit mutates the same messages), or by the day (days since 1970 modulo n) where
# the tree is not a git checkout. The ctest compile_fail.mutate runs `--rotate 12` (about a twelfth
# of the messages) with --no-baseline: each commit mutates one of twelve shards.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Worker mode (used through xargs): run one case and record the verdict.
if [[ ${1:-} == --worker ]]; then
  # --worker <env> <case> <include-dir> <result-file>
  if CTFF_CHECK_QUIET=1 bash "$here/check.sh" "$2" "$3" "$4" >"$5.log" 2>&1; then
    echo pass >"$5"
  elif grep -q 'expected text not found' "$5.log"; then
    echo fail >"$5"  # caught: the message the case expects is gone
  else
    echo other >"$5"  # failed for another reason (a broken case): not a catch
  fi
  exit 0
fi

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <build-dir> [-j <jobs>] [--shard <k>/<n> | --rotate <n>]" >&2
  exit 2
fi
target=$1
shift
jobs=${CTFF_MUTATE_JOBS:-$(nproc 2>/dev/null || echo 2)}
shard_k=0
shard_n=1
rotate=0
baseline=1
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --shard) shard_k=${2%/*}; shard_n=${2#*/}; shift 2 ;;
    --rotate) rotate=$2; shift 2 ;;
    --no-baseline) baseline=0; shift ;;
    *) echo "mutate.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ $rotate -gt 0 ]]; then
  shard_n=$rotate
  if head=$(git -C "$here" rev-parse HEAD 2>/dev/null); then
    shard_k=$(( 16#${head:0:7} % shard_n ))
    chosen_by="commit ${head:0:12}"
  else
    shard_k=$(( $(date -u +%s) / 86400 % shard_n ))
    chosen_by="day $(date -u +%F)"
  fi
  echo "mutate.sh: shard $shard_k/$shard_n (chosen by the $chosen_by)"
fi
if ! [[ $shard_n =~ ^[1-9][0-9]*$ && $shard_k =~ ^[0-9]+$ && $shard_k -lt $shard_n ]]; then
  echo "mutate.sh: bad shard $shard_k/$shard_n" >&2
  exit 2
fi

if [[ -f $target ]]; then
  env_file=$(cd "$(dirname "$target")" && pwd)/$(basename "$target")
else
  env_file=$(cd "$target" && pwd)/tests/compile_fail/compile_fail.env
fi
if [[ ! -f $env_file ]]; then
  echo "mutate.sh: $env_file not found (configure the build with tests enabled first)" >&2
  exit 2
fi
# shellcheck source=/dev/null
source "$env_file"
include_dir=$CTFF_INCLUDE_DIR
cases_dir=$CTFF_CASES_DIR

work=$(mktemp -d "${TMPDIR:-/tmp}/ctff-mutate.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Distinct ctff: messages: number and text (escaped newlines), those of this shard.
mapfile -t numbered < <("${CTFF_PYTHON:-python3}" "$here/messages.py" list "$include_dir")
if [[ ${#numbered[@]} -eq 0 ]]; then
  echo "mutate.sh: no ctff: message found in $include_dir/ctff (is python3 there?)" >&2
  exit 2
fi
messages=()
message_ids=()
for line in "${numbered[@]}"; do
  id=${line%% *}
  (( id % shard_n == shard_k )) || continue
  message_ids+=("$id")
  messages+=("${line#* }")
done

# Each case's expect texts.
declare -A case_expects=()
cases=()
for c in "$cases_dir"/*.cpp; do
  [[ -e $c ]] || continue
  cases+=("$c")
  case_expects[$c]=$(sed -n 's/^[[:space:]]*\/\/[[:space:]]*expect:[[:space:]]*//p' "$c" |
                     sed 's/[[:space:]]*$//')
done

overlaps() {  # overlaps <message> <case>: does one of the case's expect texts overlap the message?
  local msg=$1 text
  while IFS= read -r text; do
    [[ -z $text ]] && continue
    if [[ $text == *"$msg"* || $msg == *"$text"* ]]; then
      return 0
    fi
  done <<<"${case_expects[$2]}"
  return 1
}

echo "mutate.sh: ${#messages[@]} of ${#numbered[@]} ctff: message(s) in $include_dir/ctff," \
     "${#cases[@]} case(s), compiler $CTFF_CXX, $jobs job(s)"

# Plan: which cases each message is checked against; corrupted include/ copies.
work_list=$work/work_list
: >"$work_list"
declare -A message_cases=()
declare -A used_cases=()
uncovered=()
for i in "${!messages[@]}"; do
  msg=${messages[$i]}
  list=()
  for c in "${cases[@]}"; do
    if overlaps "$msg" "$c"; then
      list+=("$c")
      used_cases[$c]=1
    fi
  done
  if [[ ${#list[@]} -eq 0 ]]; then
    uncovered+=("$msg")
    continue
  fi
  message_cases[$i]=$(printf '%s\n' "${list[@]}")
  copy=$work/m$i/include
  mkdir -p "$copy"
  cp -R "$include_dir/." "$copy/"
  "${CTFF_PYTHON:-python3}" "$here/messages.py" mutate "$copy" "${message_ids[$i]}" || exit 2
  if diff -rq "$include_dir" "$copy" >/dev/null; then
    echo "mutate.sh: message ${message_ids[$i]} was not corrupted: $msg" >&2
    exit 2
  fi
  for c in "${list[@]}"; do
    printf '%s\0%s\0%s\0' "$c" "$copy" "$work/m$i/$(basename "$c").result" >>"$work_list"
  done
done
# Baseline: every case used above must pass against the real headers (--no-baseline: where the
# compile_fail.<case> tests check that; a catch counts only when the case's expected text is gone).
[[ $baseline -eq 1 ]] || used_cases=()
for c in "${!used_cases[@]}"; do
  printf '%s\0%s\0%s\0' "$c" "$include_dir" "$work/base.$(basename "$c").result" >>"$work_list"
done

if [[ -s $work_list ]]; then
  xargs -0 -n 3 -P "$jobs" bash "$here/mutate.sh" --worker "$env_file" <"$work_list"
fi

failures=0
for c in "${!used_cases[@]}"; do
  r=$work/base.$(basename "$c").result
  if [[ $(cat "$r" 2>/dev/null) != pass ]]; then
    echo "FAIL baseline: $(basename "$c") does not pass with the unmodified headers:"
    sed 's/^/    /' "$r.log" 2>/dev/null
    failures=$((failures + 1))
  fi
done
for i in "${!messages[@]}"; do
  [[ -n ${message_cases[$i]:-} ]] || continue
  msg=${messages[$i]}
  survivors=()
  killers=()
  others=()
  while IFS= read -r c; do
    [[ -z $c ]] && continue
    case $(cat "$work/m$i/$(basename "$c").result" 2>/dev/null) in
      fail) killers+=("$(basename "$c")") ;;
      pass) survivors+=("$(basename "$c")") ;;
      *) others+=("$(basename "$c")") ;;
    esac
  done <<<"${message_cases[$i]}"
  if [[ ${#survivors[@]} -gt 0 ]]; then
    echo "FAIL \"$msg\": still passing with the message corrupted: ${survivors[*]}"
    failures=$((failures + 1))
  elif [[ ${#others[@]} -gt 0 ]]; then
    echo "FAIL \"$msg\": failing for another reason than the corrupted message: ${others[*]}"
    for c in "${others[@]}"; do sed 's/^/    /' "$work/m$i/$c.result.log"; done
    failures=$((failures + 1))
  else
    echo "ok   \"$msg\": caught by ${killers[*]}"
  fi
done
for msg in "${uncovered[@]}"; do
  echo "UNCOVERED \"$msg\": no compile-fail case expects it"
done

echo "mutate.sh: ${#messages[@]} message(s) (shard $shard_k/$shard_n)," \
     "$((${#messages[@]} - ${#uncovered[@]})) covered," \
     "${#uncovered[@]} uncovered, $failures failure(s)"
if [[ $failures -gt 0 ]]; then
  exit 1
fi
if [[ ${CTFF_STRICT_COVERAGE:-0} == 1 && ${#uncovered[@]} -gt 0 ]]; then
  echo "mutate.sh: uncovered messages are failures (CTFF_COMPILE_FAIL_STRICT_COVERAGE=ON)"
  exit 1
fi
exit 0
