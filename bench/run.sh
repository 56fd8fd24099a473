#!/usr/bin/env bash
# Throughput of the benchmark workloads natively, as wasm in node, and in the NumPy reference,
# in one run, with their ratios. Builds what is missing first. usage: bench/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=${1:-2}
export NODE_PATH=/usr/share/nodejs
[ -x build/native/attnlab ] || { cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build/native --target attnlab; }
[ -f build/wasm/attnlab_node.cjs ] || { emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build/wasm --target attnlab_node; }
native=$(build/native/attnlab bench --seconds "$SECONDS_PER" --format json)
wasm=$(node bench/node_bench.cjs build/wasm/attnlab_node.cjs "$SECONDS_PER")
# OPENBLAS_CORETYPE slows a current NumPy on some machines: unset for this measurement only.
# Debian's python3 has python3-numpy (scripts/setup.sh); a pyenv python first on PATH may not.
PY=${PYTHON:-/usr/bin/python3}
numpy=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$PY" bench/separation_numpy.py --seconds "$SECONDS_PER")
python3 - "$native" "$wasm" "$numpy" <<'PY'
import json, sys
native, wasm, numpy = (json.loads(a) for a in sys.argv[1:4])
assert len(native) == len(wasm) == len(numpy), "the three benchmark lists differ in length"
w = max(len("workload"), *(len(a["name"]) for a in native))
print(f"{'workload':<{w}} {'native':>12} {'wasm (node)':>12} {'NumPy':>12}   "
      f"{'native/wasm':>11} {'wasm/NumPy':>10} {'native/NumPy':>12}")
for a, b, c in zip(native, wasm, numpy):
    assert a["name"] == b["name"] == c["name"], (a["name"], b["name"], c["name"])
    print(f"{a['name']:<{w}} {a['rate']:>12.1f} {b['rate']:>12.1f} {c['rate']:>12.1f}   "
          f"{a['rate'] / b['rate']:>11.2f} {b['rate'] / c['rate']:>10.1f} {a['rate'] / c['rate']:>12.1f}   ({a['unit']})")
print()
print('Note: the "dense" rows compute the n x n attention matrices row by row, as the paper\'s Python does\n'
      '(NumPy has only that implementation, so its "self"/"self dense" and "cross"/"cross dense" rows run the\n'
      'same code). The gap between "self" and "self dense" is the algorithm (grouped rows, exact); the gap\n'
      'between "self dense" and NumPy is the implementation.')
PY
