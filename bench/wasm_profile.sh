#!/usr/bin/env bash
# The wasm build's profile of one run in node: runs EXPERIMENT (PRESET, PARAMS as JSON) once through
# the JS API under `node --cpu-prof` and prints the top functions by self time, named from
# emscripten's symbol map (attnlab_node.cjs.symbols, written next to the module).
# usage: bench/wasm_profile.sh EXPERIMENT [PRESET] [PARAMS_JSON] [TOP] [MODULE]
#   e.g. bench/wasm_profile.sh separation.toy "" '{"n":1000,"trials":20000,"sweep":"none"}'
set -euo pipefail
cd "$(dirname "$0")/.."
EXPERIMENT=${1:?usage: wasm_profile.sh EXPERIMENT [PRESET] [PARAMS_JSON] [TOP] [MODULE]}
PRESET=${2:-} PARAMS=${3:-"{}"} TOP=${4:-6}
MODULE=$(realpath "${5:-build/wasm/attnlab_node.cjs}")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
(cd "$DIR" && node --cpu-prof --cpu-prof-name=run.cpuprofile -e '
const [modulePath, id, preset, params] = process.argv.slice(1);
(async () => {
  const lab = await require(modulePath)();
  const t0 = Date.now();
  const csv = lab.runExperimentCsv(id, preset, JSON.parse(params), 1);
  if (csv.startsWith("error")) { console.error(csv); process.exit(1); }
  console.log(`${id}: ${((Date.now() - t0) / 1000).toFixed(2)} s in wasm (node)`);
})();' "$MODULE" "$EXPERIMENT" "$PRESET" "$PARAMS")
python3 - "$DIR/run.cpuprofile" "$TOP" "$MODULE.symbols" <<'PY'
import collections, json, os, re, subprocess, sys
profile, top, symbols = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
names = {}
if os.path.exists(symbols):
    for line in open(symbols):
        index, _, name = line.rstrip("\n").partition(":")
        names[index] = re.sub(r"\\([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), name)
nodes = {n["id"]: n for n in profile["nodes"]}
self_time = collections.Counter()
for sample, dt in zip(profile["samples"], profile["timeDeltas"]):
    self_time[nodes[sample]["callFrame"]["functionName"] or "(anonymous)"] += dt
total = sum(self_time.values())
for name, t in self_time.most_common(top):
    m = re.fullmatch(r"wasm-function\[(\d+)\]", name)
    if m and m.group(1) in names:
        name = subprocess.run(["c++filt"], input=names[m.group(1)], capture_output=True, text=True).stdout.strip()
        name = re.sub(r"\((?!anonymous namespace\)).*$", "", name)  # drop the argument list
    print(f"{100 * t / total:5.1f}%  {name}")
PY
