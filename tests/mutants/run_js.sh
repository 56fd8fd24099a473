#!/usr/bin/env bash
# Seeded bugs for the browser and node tests: each js/*.patch plants one deliberate bug in the page,
# its twin, the worker pool or a test helper; its first lines name the test file that must catch it,
# and optionally the tests in it to run (node --test-name-pattern):
#   # test: web/e2e/app.test.mjs
#   # only: a refused value is never run
#   # env: ATTNLAB_ENGINES=webkit        (optional: variables for the test, space-separated)
# For each patch (or the ones named): copy the working tree to a scratch directory (the checkout is
# never touched), apply the patch, build the wasm targets there (ccache makes a C++ patch a relink),
# run the named test file and report "caught" (it failed) or "MISSED" (it passed). Each named test
# must first pass unpatched and run at least one test, else "caught" would mean nothing.
# Not part of scripts/test.sh: about a minute a patch.
#   tests/mutants/run_js.sh              # every patch in js/
#   tests/mutants/run_js.sh twin         # the patches whose name contains "twin"
# Env: ATTNLAB_CLI (default build/native/attnlab of this tree, for the tests that compare with it).
# Exit status: the number of patches missed (or that did not apply or build).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCRATCH=${ATTNLAB_MUTANT_DIR:-${TMPDIR:-/tmp}/attnlab-mutants-js}
JOBS=${ATTNLAB_MUTANT_JOBS:-2}
CACHE=${ATTNLAB_CACHE:-${HOME:-/root}/.cache/attnlab}
CLI=${ATTNLAB_CLI:-$ROOT/build/native/attnlab}
[ -x "$CLI" ] || { echo "no native CLI at $CLI (build the native tree first)"; exit 99; }
export NODE_PATH=/usr/share/nodejs  # emcc's link step (docs/toolchain.md, "Pitfall 1")
mkdir -p "$SCRATCH"

patches=()
for patch in "$ROOT"/tests/mutants/js/*.patch; do
  name=$(basename "$patch" .patch)
  if [ $# -gt 0 ]; then
    want=0
    for pattern in "$@"; do [[ "$name" == *"$pattern"* ]] && want=1; done
    [ $want = 1 ] || continue
  fi
  patches+=("$patch")
done
[ ${#patches[@]} -gt 0 ] || { echo "no patch matches $*"; exit 99; }

# The scratch copy, refreshed from the working tree before each patch (only the files that differ).
sync_tree() {
  (cd "$ROOT" && git ls-files -co --exclude-standard -z) | while IFS= read -r -d '' f; do
    [ -f "$ROOT/$f" ] || continue
    if ! cmp -s "$ROOT/$f" "$SCRATCH/src/$f"; then
      mkdir -p "$(dirname "$SCRATCH/src/$f")"
      cp "$ROOT/$f" "$SCRATCH/src/$f"
    fi
  done
}
# The wasm build sits where the checkout's does (build/wasm inside the scratch tree, which sync_tree
# leaves alone): ccache, keyed on paths relative to the tree, then hits what the checkout compiled.
build() {  # build LOG
  if [ ! -f "$SCRATCH/src/build/wasm/build.ninja" ]; then
    emcmake cmake -S "$SCRATCH/src" -B "$SCRATCH/src/build/wasm" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTNLAB_CACHE="$CACHE" -DATTNLAB_NATIVE_CLI="$CLI" >"$1" 2>&1 || return 1
  fi
  cmake --build "$SCRATCH/src/build/wasm" -j"$JOBS" --target attnlab_app attnlab_page attnlab_web_api attnlab_worker attnlab_node >>"$1" 2>&1
}
# run_test PATCH LOG: runs the patch's named test file (and tests) in the scratch tree.
run_test() {
  local file only vars
  file=$(sed -n 's/^# test: //p' "$1" | head -1)
  only=$(sed -n 's/^# only: //p' "$1" | head -1)
  read -r -a vars <<<"$(sed -n 's/^# env: //p' "$1" | head -1)"
  local args=(--test)
  [ -n "$only" ] && args+=(--test-name-pattern "$only")
  (cd "$SCRATCH/src" && ATTNLAB_WEB_DIR="$SCRATCH/src/build/wasm/web" ATTNLAB_CLI="$CLI" \
    ATTNLAB_NODE_MODULE="$SCRATCH/src/build/wasm/attnlab_node.cjs" NODE_PATH="$CACHE/npm/node_modules" \
    ATTNLAB_SHOTS_DIR="$SCRATCH/shots" env "${vars[@]}" node "${args[@]}" "$file") >"$2" 2>&1
}
ran_some() { grep -qE '^# pass [1-9]|^# fail [1-9]' "$1"; }

# The baseline: unpatched, every named test file (and pattern) runs some tests and passes.
sync_tree
build "$SCRATCH/baseline.build.log" || { echo "the unpatched tree does not build (see $SCRATCH/baseline.build.log)"; exit 99; }
declare -A seen
for patch in "${patches[@]}"; do
  key=$(grep '^# \(test\|only\|env\): ' "$patch")
  [ -n "${seen[$key]:-}" ] && continue
  seen[$key]=1
  log="$SCRATCH/baseline.$(basename "$patch" .patch).log"
  if ! run_test "$patch" "$log" || ! ran_some "$log"; then
    echo "baseline: the test named by $(basename "$patch") does not run and pass unpatched (see $log)"
    exit 99
  fi
done
echo "baseline: every named test passes unpatched"

missed=0
results=()
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  sync_tree
  if ! (cd "$SCRATCH/src" && patch -s -p1 --no-backup-if-mismatch <"$patch"); then
    results+=("$name | did not apply")
  elif ! build "$SCRATCH/$name.build.log"; then
    results+=("$name | did not build (see $SCRATCH/$name.build.log)")
  elif run_test "$patch" "$SCRATCH/$name.test.log"; then
    results+=("$name | MISSED by $(sed -n 's/^# test: //p' "$patch" | head -1)")
  elif ! ran_some "$SCRATCH/$name.test.log"; then
    results+=("$name | the test did not run (see $SCRATCH/$name.test.log)")
  else
    results+=("$name | caught: $(grep -m1 -A3 '^not ok' "$SCRATCH/$name.test.log" | tr -s ' \n' ' ' | cut -c1-160)")
    echo "${results[-1]}"
    continue
  fi
  echo "${results[-1]}"
  missed=$((missed + 1))
done
# Leave the scratch copy (and its build) as the working tree is, for the next run.
sync_tree
build "$SCRATCH/restore.build.log" >/dev/null 2>&1
echo "--- $(( ${#results[@]} - missed )) of ${#results[@]} seeded bugs caught"
exit "$missed"
