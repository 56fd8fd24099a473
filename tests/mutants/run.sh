#!/usr/bin/env bash
# Seeded bugs: each *.patch here plants one deliberate bug in a kernel or a check; its first line
# names the test that must catch it:   # test: <Catch2 test spec>
# For each patch (or the ones named): copy the working tree to a scratch directory (the checkout is
# never touched), apply the patch, build the native test binary there, run the named test, and
# report "caught" (the test failed) or "MISSED" (it passed). Not part of scripts/test.sh: minutes.
#   tests/mutants/run.sh                 # every patch
#   tests/mutants/run.sh exp_window      # the patches whose name contains "exp_window"
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
    missed=$((missed + 1))
    continue
  fi
  if [ ! -f "$SCRATCH/build/build.ninja" ]; then
    cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 99
  fi
  if ! cmake --build "$SCRATCH/build" -j"$JOBS" --target attnlab_tests >"$SCRATCH/$name.build.log" 2>&1; then
    results+=("$name | did not build (see $SCRATCH/$name.build.log)")
    missed=$((missed + 1))
    continue
  fi
  if "$SCRATCH/build/attnlab_tests" "$spec" >"$SCRATCH/$name.test.log" 2>&1; then
    results+=("$name | MISSED by $spec")
    missed=$((missed + 1))
  else
    results+=("$name | caught by $spec")
  fi
  echo "${results[-1]}"
done
# Leave the scratch copy as the working tree is (no patch applied), for the next run.
sync_tree
echo "--- $(( ${#results[@]} - missed )) of ${#results[@]} seeded bugs caught"
exit "$missed"
