#!/usr/bin/env bash
# Before/after throughput: builds REV (default: the last commit of main this branch starts from) in
# a snapshot outside the work tree, $ATTNLAB_CACHE/compare/<rev> (git archive; the same ccache store
# as every build, docs/toolchain.md "A build that stays fast"), then runs REV's and today's
# benchmarks interleaved in one run (REV, today, REV, today, ...), natively and as wasm in node, and
# prints each row's median rate on both sides and their ratio today/REV. The rows: every row of
# `attnlab bench`, and the two whole workloads (wall time, as a rate 1/s):
#   reproduce separation --paper-trials --jobs 1     run mirror --preset synthetic_figure --jobs 1
# (the workloads run natively only: the node build has no CLI).
# usage: bench/compare.sh [REV] [--rounds N] [--seconds S] [--no-wasm] [--no-workloads]
#   N rounds of each side (default 3); S seconds per bench row (default 1).
# Today's builds are build/native and build/wasm of this tree (built first when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REV="" ROUNDS=3 SECS=1 WASM=1 WORKLOADS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=${2:?--rounds needs a number}; shift 2 ;;
    --seconds) SECS=${2:?--seconds needs a number}; shift 2 ;;
    --no-wasm) WASM=0; shift ;;
    --no-workloads) WORKLOADS=0; shift ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    -*) echo "compare.sh: unknown option '$1'" >&2; exit 2 ;;
    *) REV=$1; shift ;;
  esac
done
REV=${REV:-$(git merge-base HEAD main)}
SHA=$(git rev-parse --verify "$REV^{commit}")
CACHE=${ATTNLAB_CACHE:-$HOME/.cache/attnlab}
OLD=$CACHE/compare/$SHA
export NODE_PATH="/usr/share/nodejs:$CACHE/npm/node_modules"
export ATTNLAB_CACHE=$CACHE

# The snapshot of REV: extracted once, builds kept (a second compare against REV rebuilds nothing).
if [ ! -f "$OLD/.complete" ]; then
  rm -rf "$OLD" && mkdir -p "$OLD"
  git archive "$SHA" | tar -x -C "$OLD"
  touch "$OLD/.complete"
fi
build() {  # build SRC: the native CLI, and the node module unless --no-wasm
  local src=$1
  [ -f "$src/build/native/build.ninja" ] ||
    cmake -S "$src" -B "$src/build/native" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$src/build/native" -j2 --target attnlab >/dev/null
  if [ "$WASM" = 1 ]; then
    [ -f "$src/build/wasm/build.ninja" ] ||
      emcmake cmake -S "$src" -B "$src/build/wasm" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DATTNLAB_CACHE="$CACHE" -DATTNLAB_NATIVE_CLI="$src/build/native/attnlab" >/dev/null
    cmake --build "$src/build/wasm" -j2 --target attnlab_node >/dev/null
  fi
}
echo "compare.sh: building $SHA in $OLD and today's tree..." >&2
build "$OLD"
build "$ROOT"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
workloads() {  # workloads CLI TAG: the two whole workloads' wall times, as JSON rows
  local cli=$1 tag=$2 t0 t1 dir
  dir=$OUT/repro-$tag && rm -rf "$dir"
  t0=$(date +%s.%N)
  "$cli" reproduce separation --paper-trials --jobs 1 --quiet --out "$dir" >/dev/null
  t1=$(date +%s.%N)
  echo "{\"name\": \"reproduce separation --paper-trials\", \"unit\": \"runs/s\", \"rate\": $(python3 -c "print(1/($t1-$t0))")}"
  t0=$(date +%s.%N)
  "$cli" run mirror --preset synthetic_figure --jobs 1 --quiet --out /dev/null >/dev/null
  t1=$(date +%s.%N)
  echo "{\"name\": \"run mirror synthetic_figure\", \"unit\": \"runs/s\", \"rate\": $(python3 -c "print(1/($t1-$t0))")}"
}
echo "compare.sh: load before: $(uptime)" >&2
for r in $(seq 1 "$ROUNDS"); do
  for side in old new; do
    src=$ROOT && [ $side = old ] && src=$OLD
    echo "compare.sh: round $r/$ROUNDS, $side..." >&2
    "$src/build/native/attnlab" bench --seconds "$SECS" --format json > "$OUT/native-$side-$r.json"
    if [ "$WASM" = 1 ]; then
      node "$ROOT/bench/node_bench.cjs" "$src/build/wasm/attnlab_node.cjs" "$SECS" > "$OUT/wasm-$side-$r.json"
    fi
    if [ "$WORKLOADS" = 1 ]; then
      workloads "$src/build/native/attnlab" "$side" > "$OUT/work-$side-$r.jsonl"
    fi
  done
done
echo "compare.sh: load after: $(uptime)" >&2
python3 - "$OUT" "$ROUNDS" "$SHA" <<'PY'
import json, statistics, sys, glob, os
out, rounds, sha = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(kind, side):
    rows = {}
    order = []
    for r in range(1, rounds + 1):
        p = f"{out}/{kind}-{side}-{r}." + ("jsonl" if kind == "work" else "json")
        if not os.path.exists(p):
            return [], {}
        text = open(p).read()
        items = [json.loads(l) for l in text.splitlines() if l.strip()] if kind == "work" else json.loads(text)
        for a in items:
            if a["name"] not in rows:
                rows[a["name"]] = []
                order.append(a["name"])
            rows[a["name"]].append(a)
    return order, rows
print(f"today / {sha[:10]}: median of {rounds} interleaved rounds (rates; ratio > 1 is faster today)")
print(f"{'target':<7} {'row':<40} {'REV':>12} {'today':>12} {'ratio':>7}  spread today (min..max)")
for kind, label in (("native", "native"), ("wasm", "wasm"), ("work", "native")):
    order_o, old = load(kind, "old")
    order_n, new = load(kind, "new")
    for name in order_n:
        n = [a["rate"] for a in new[name]]
        o = [a["rate"] for a in old.get(name, [])]
        unit = new[name][0]["unit"]
        mo = statistics.median(o) if o else float("nan")
        mn = statistics.median(n)
        f = lambda x: f"{x:>12.1f}" if x >= 100 else f"{x:>12.4g}"
        print(f"{label:<7} {name:<40} {f(mo)} {f(mn)} {mn / mo if o else float('nan'):>7.2f}  "
              f"{min(n):.4g}..{max(n):.4g} {unit}")
PY
