#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz) for SECONDS each (default 60), with its seed corpus
# (tests/fuzz/corpus/<target>, read only) and dictionary; new inputs collect in
# build/sanitize/fuzz-corpus/<target>, crashes in build/sanitize/fuzz-crashes/. Prints per target
# the executions, the coverage (edges) and the outcome; exits non-zero if any target crashed,
# leaked or timed out. scripts/test.sh runs it for a few seconds as a smoke test.
#   usage: scripts/fuzz.sh [SECONDS] [TARGET...]      (TARGET e.g. fuzz_shard; default: all)
#   FUZZ_RUNS=N scripts/fuzz.sh 0 ...: N executions per target instead of a time limit
# Builds build/sanitize (clang++, ASan + UBSan, -O2 -g) when needed, as scripts/test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
BUILD=build/sanitize
JOBS=${JOBS:-$(nproc)}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(fuzz_url_hash fuzz_params fuzz_problem_file fuzz_dataset fuzz_shard fuzz_partial)

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_CXX_FLAGS_DEBUG=-O2 -g" -DATTNLAB_SANITIZE=ON -DATTNLAB_FUZZ=ON >/dev/null
fi
cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$BUILD/fuzz-crashes"
printf '%-18s %12s %8s %8s  %s\n' target executions exec/s edges outcome
failed=0
for t in "${TARGETS[@]}"; do
  work="$BUILD/fuzz-corpus/$t"
  mkdir -p "$work"
  log="$BUILD/fuzz-$t.log"
  status=0
  "$BUILD/tests/fuzz/$t" "$work" "tests/fuzz/corpus/$t" -dict="tests/fuzz/$t.dict" \
    $([ -n "${FUZZ_RUNS:-}" ] && echo "-runs=$FUZZ_RUNS" || echo "-max_total_time=$SECONDS_EACH") -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$BUILD/fuzz-crashes/$t-" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  edges=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  if [ $status -eq 0 ]; then
    outcome=ok
  else
    failed=1
    outcome="FAILED (exit $status): $(grep -m1 -oE '(ERROR|WARNING): [A-Za-z]+:? .*|fuzz property violated: .*|deadly signal|uncaught exception|Test unit written to .*' "$log" | head -n 1); see $log"
  fi
  printf '%-18s %12s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${edges:-?}" "$outcome"
done
exit $failed
