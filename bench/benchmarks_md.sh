#!/usr/bin/env bash
# Measures everything BENCHMARKS.md reports and rewrites it: the throughput table and the solvers'
# times (bench/run.sh), how runs scale over cores and Web Workers (bench/parallel.mjs), whole
# presets natively and as wasm in node, the page's size and first frame (bench/first_frame.mjs), and
# every story step's run time in the page on one worker (bench/story_times.mjs).
# usage: bench/benchmarks_md.sh [SECONDS] [--out FILE] [--soak-minutes M]
#   SECONDS per throughput workload (default 2); M minutes of the page's soak (default 10; the soak
#   runs bench/soak.mjs: long runs natively, as wasm in node and in the page, memory sampled)
# Needs the native and wasm builds (scripts/test.sh makes both), Debian's python3-numpy and
# python3-scipy, and playwright-core (scripts/setup.sh). Takes about 15 minutes on 2 cores plus the
# soak; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=2 OUT=BENCHMARKS.md SOAK_MINUTES=10
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a file}; shift 2 ;;
    --soak-minutes) SOAK_MINUTES=${2:?--soak-minutes needs a number}; shift 2 ;;
    -h|--help) echo "usage: bench/benchmarks_md.sh [SECONDS] [--out FILE]"; exit 0 ;;
    *[!0-9.]*|'') echo "benchmarks_md.sh: unknown argument '$1' (usage: bench/benchmarks_md.sh [SECONDS] [--out FILE])" >&2; exit 2 ;;
    *) SECONDS_PER=$1; shift ;;
  esac
done
CLI=build/native/attnlab NODE_MODULE=build/wasm/attnlab_node.cjs WEB=build/wasm/web
for f in "$CLI" "$NODE_MODULE" "$WEB/index.html" "$WEB/attnlab.wasm"; do
  [ -e "$f" ] || { echo "benchmarks_md.sh: $f is missing: build first (scripts/test.sh, or the cmake lines of the README)" >&2; exit 1; }
done
export NODE_PATH="/usr/share/nodejs:${ATTNLAB_CACHE:-$HOME/.cache/attnlab}/npm/node_modules"

echo "benchmarks_md.sh: throughput and solver times (bench/run.sh $SECONDS_PER)..." >&2
run_out=$(bench/run.sh "$SECONDS_PER")
echo "benchmarks_md.sh: cores and Web Workers (bench/parallel.mjs)..." >&2
parallel_out=$(node bench/parallel.mjs "$WEB" "$CLI")

echo "benchmarks_md.sh: whole presets..." >&2
now() { date +%s.%N; }
seconds_since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }
# One run of a preset as wasm in node (the JS API on the node build), in seconds.
wasm_seconds() {
  node --input-type=module -e "
    import { createRequire } from 'node:module';
    import { createAttnLab } from '$PWD/web/api/attnlab-api.mjs';
    const lab = await createAttnLab({ factory: createRequire(import.meta.url)('$PWD/$NODE_MODULE') });
    const t0 = performance.now();
    lab.run('$1', { preset: '$2', seed: 1 });
    console.log(((performance.now() - t0) / 1000).toFixed(1));"
}
presets=""
for run in "multihead one_head" "multihead two_heads" "regression large_sparse" "mirror synthetic_figure"; do
  set -- $run
  t0=$(now)
  "$CLI" run "$1" --preset "$2" --seed 1 --quiet --out /dev/null
  native=$(seconds_since "$t0")
  presets+="| \`$1\` | \`$2\` | $native | $(wasm_seconds "$1" "$2") |"$'\n'
done

echo "benchmarks_md.sh: the page's size and first frame..." >&2
gz() { gzip -9 -c "$1" | wc -c; }
sizes=""
for f in attnlab.js attnlab.wasm attnlab_worker.js attnlab_worker.wasm attnlab-api.mjs unit_pool.js unit_worker.js index.html; do
  sizes+="| \`$f\` | $(( $(wc -c < "$WEB/$f") / 1024 )) | $(( $(gz "$WEB/$f") / 1024 )) |"$'\n'
done
module_gz=$(( ($(gz "$WEB/attnlab.wasm") + $(gz "$WEB/attnlab.js")) / 1024 ))
first_frame=$(node bench/first_frame.mjs "$WEB" | sed 's/^first frame from [^ ]* //')

echo "benchmarks_md.sh: story steps on one worker (bench/story_times.mjs)..." >&2
story_out=$(node bench/story_times.mjs "$WEB")

echo "benchmarks_md.sh: the soak (bench/soak.mjs, $SOAK_MINUTES min in the page)..." >&2
soak_out=$(node bench/soak.mjs --cli "$CLI" --node-module "$NODE_MODULE" --web "$WEB" --page-minutes "$SOAK_MINUTES") ||
  { echo "benchmarks_md.sh: memory grew in the soak:" >&2; echo "$soak_out" >&2; exit 1; }

echo "benchmarks_md.sh: the test suites..." >&2
suite() {  # "N tests in S s" for one ctest tree
  local t0 log
  t0=$(now)
  log=$(ctest --test-dir "$1" -j 2 2>&1) || { echo "benchmarks_md.sh: ctest in $1 failed" >&2; exit 1; }
  echo "$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\)/\1/p' <<<"$log") tests in $(seconds_since "$t0") s"
}
native_suite=$(suite build/native)
wasm_suite=$(suite build/wasm)

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
throughput=${run_out%%time to ||x - x\*||*}
solvers="time to ||x - x*||${run_out#*time to ||x - x\*||}"
while [[ $throughput == *$'\n' ]]; do throughput=${throughput%$'\n'}; done
tmp=$(mktemp)
cat > "$tmp" <<EOF
# Benchmarks

Measured figures of Attention Lab. \`bench/benchmarks_md.sh [SECONDS]\` measures them again and
rewrites this file (it needs the native and wasm builds, Debian's python3-numpy and python3-scipy,
and playwright-core).

Machine: ${cpu:-unknown CPU}, $(nproc) cores; measured $(date -u +%Y-%m-%d); $("$CLI" --version).

## Throughput: native, wasm in node, NumPy/SciPy

\`bench/run.sh $SECONDS_PER\` runs the same workloads natively (\`attnlab bench\`), as wasm in node
(\`bench/node_bench.cjs\`) and in plain NumPy/SciPy written the way the papers' Python would be
(\`bench/separation_numpy.py\`: explicit n x n matrices; \`bench/regression_scipy.py\`;
\`bench/mirror_numpy.py\`: the authors' update), and prints the rates and their ratios. The
multihead rows (the (12, 3, 2) certification loop and Adam steps of 256 examples) have no Python
reference.

\`\`\`
$throughput
\`\`\`

The project computes attention on distinct rows with multiplicities, which is exact: the datasets
of Def. D.1 and F.1 have at most d + 1 distinct rows, attention is permutation-equivariant and F
sums over rows, so a trial costs O(d^3) instead of O(n^2 d). The "dense" rows run the plain
row-by-row computation: "self" against "self dense" measures the algorithm, "self dense" against
NumPy the implementation. An m-sweep with a shared readout evaluates each trial once, at the widest
m (a narrower readout draws a prefix of the same random words, so the outcomes are identical).

## Regression solvers: time to ||x - x*|| <= 1e-10

\`\`\`
$solvers
\`\`\`

## Every core and Web Workers

\`node bench/parallel.mjs\`: the whole-paper reproduction (19 panels, the paper's trial counts)
and the mirror synthetic figure (3 x 100 seeds), natively with \`--jobs 1\` and \`--jobs 2\` and in
headless Chromium with 1 and 2 Web Workers, with the page's frame rate meanwhile.

\`\`\`
$parallel_out
\`\`\`

## Whole presets, seed 1

Seconds from start to end of one run: natively (\`attnlab run ... --preset NAME\`, every core) and
as wasm in node on one thread (the JS API's \`run\`).

| experiment | preset | native (s) | wasm in node (s) |
|---|---|---|---|
$presets
## The page

The files of the served page (\`$WEB\`, what \`scripts/build-site.sh\` copies to \`dist/\`), in KB:

| file | raw | gzip -9 |
|---|---|---|
$sizes
\`attnlab.wasm\` + \`attnlab.js\`: $module_gz KB gzipped (budget 1024). Time to the first frame from
localhost in headless Chromium with software WebGL (\`bench/first_frame.mjs\`): $first_frame.

## Story steps in the page, one worker

\`node bench/story_times.mjs\`: every story step opened by its link with \`threads=1\` (one Web
Worker) in headless Chromium at 1280 x 800, the first choice predicted, Run pressed; seconds from
Run to the answer shown. The budget is 10 s a step (\`kStoryStepSecondsMax\`, src/lab/story.hpp);
a benchmark, not a test: the numbers depend on the machine and its load.

$story_out

## Memory over long runs

\`node bench/soak.mjs\`: 10^6 mirror-descent steps and a 100k-trial separation run, each in one
process, natively and as wasm in node (the JS API's Session, stepped in 50 ms slices), and the page
reproducing the whole paper on 2 Web Workers again and again for $SOAK_MINUTES minutes. "After
warm-up" is the sample at a tenth of the run; "flat" means the end is within 5% (or 1 MB) of it.

$soak_out

## The test suites

\`ctest -j 2\` on the built trees: natively $native_suite; wasm in node (the same Catch2 suite and
the JS API tests) $wasm_suite. The browser tests (\`node --test web/e2e/\`) and the builds are not
timed here.
EOF
mv "$tmp" "$OUT"
echo "benchmarks_md.sh: wrote $OUT" >&2
