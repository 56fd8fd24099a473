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
numpy=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$PY" bench/toy_numpy.py --seconds "$SECONDS_PER")
python3 - "$native" "$wasm" "$numpy" <<'PY'
import json, sys
native, wasm, numpy = (json.loads(a) for a in sys.argv[1:4])
print(f"{'workload':<14} {'native':>12} {'wasm (node)':>12} {'NumPy':>12}   {'native/wasm':>11} {'wasm/NumPy':>10}")
for a, b, c in zip(native, wasm, numpy):
    assert a["name"] == b["name"] == c["name"]
    print(f"{a['name']:<14} {a['rate']:>12.0f} {b['rate']:>12.0f} {c['rate']:>12.0f}   "
          f"{a['rate'] / b['rate']:>11.2f} {b['rate'] / c['rate']:>10.1f}   ({a['unit']})")
PY
