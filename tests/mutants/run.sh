#!/usr/bin/env bash
# Seeded bugs: each *.patch here plants one deliberate bug in a kernel or a check; its first line
# names the test that must catch it:   # test: <Catch2 test spec>
# For each patch (or the ones named): copy the working tree to a scratch directory (the checkout is
# never touched), apply the patch, build the native test binary there, run the named test, and
# report "caught" (the test failed) or "MISSED" (it passed). Not part of scripts/test.sh: minutes.
#   tests/mutants/run.sh                 # every patch
#   tests/mutants/run.sh exp_array       # the patches whose name contains "exp_array"
# Exit status: the number of patches missed (or that did not apply or build).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCRATCH=${ATTNLAB_MUTANT_DIR:-${TMPDIR:-/tmp}/attnlab-mutants}
JOBS=${ATTNLAB_MUTANT_JOBS:-2}
mkdir -p "$SCRATCH"
# One scratch copy, refreshed from the working tree (its tracked and unignored files) before each
# patch: only the files that differ are copied, with a fresh time, so the build there recompiles just
# what the last patch and this one touch.
sync_tree() {
  (cd "$ROOT" && git ls-files -co --exclude-standard -z) | while IFS= read -r -d '' f; do
    [ -f "$ROOT/$f" ] || continue
    if ! cmp -s "$ROOT/$f" "$SCRATCH/src/$f"; then
      mkdir -p "$(dirname "$SCRATCH/src/$f")"
      cp "$ROOT/$f" "$SCRATCH/src/$f"
    fi
  done
}
# The baseline: unpatched, every named test must run and pass (else "caught" would mean nothing).
sync_tree
if [ ! -f "$SCRATCH/build/build.ninja" ]; then
  cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 99
fi
cmake --build "$SCRATCH/build" -j"$JOBS" --target attnlab_tests >"$SCRATCH/baseline.build.log" 2>&1 ||
  { echo "the unpatched tree does not build (see $SCRATCH/baseline.build.log)"; exit 99; }
while IFS= read -r spec; do
  if ! "$SCRATCH/build/tests/attnlab_tests" "$spec" >"$SCRATCH/baseline.test.log" 2>&1 ||
     grep -q "No tests ran\|No test cases matched" "$SCRATCH/baseline.test.log"; then
    echo "baseline: \"$spec\" does not run and pass unpatched (see $SCRATCH/baseline.test.log)"
    exit 99
  fi
done < <(sed -n '1s/^# test: //p' "$ROOT"/tests/mutants/*.patch | sort -u)
echo "baseline: every named test passes unpatched"
missed=0
results=()
for patch in "$ROOT"/tests/mutants/*.patch; do
  name=$(basename "$patch" .patch)
  if [ $# -gt 0 ]; then
    want=0
    for pattern in "$@"; do [[ "$name" == *"$pattern"* ]] && want=1; done
    [ $want = 1 ] || continue
  fi
  spec=$(sed -n '1s/^# test: //p' "$patch")
  sync_tree
  if ! (cd "$SCRATCH/src" && patch -s -p1 --no-backup-if-mismatch <"$patch"); then
    results+=("$name | did not apply")
    echo "${results[-1]}"
    missed=$((missed + 1))
    continue
  fi
  if [ ! -f "$SCRATCH/build/build.ninja" ]; then
    cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 99
  fi
  if ! cmake --build "$SCRATCH/build" -j"$JOBS" --target attnlab_tests >"$SCRATCH/$name.build.log" 2>&1; then
    results+=("$name | did not build (see $SCRATCH/$name.build.log)")
    echo "${results[-1]}"
    missed=$((missed + 1))
    continue
  fi
  # The test spec is one test case's exact name (no commas: Catch would read them as "or"); a spec that
  # matches nothing is reported, not counted as caught.
  "$SCRATCH/build/tests/attnlab_tests" "$spec" >"$SCRATCH/$name.test.log" 2>&1
  status=$?
  if grep -q "No tests ran\|No test cases matched" "$SCRATCH/$name.test.log"; then
    results+=("$name | no test named $spec")
    missed=$((missed + 1))
  elif [ $status = 0 ]; then
    results+=("$name | MISSED by $spec")
    missed=$((missed + 1))
  else
    results+=("$name | caught by $spec ($(grep -m1 -o 'test cases:.*' "$SCRATCH/$name.test.log" | tr -s ' '))")
  fi
  echo "${results[-1]}"
done
# Leave the scratch copy as the working tree is (no patch applied), for the next run.
sync_tree
echo "--- $(( ${#results[@]} - missed )) of ${#results[@]} seeded bugs caught"
exit "$missed"
