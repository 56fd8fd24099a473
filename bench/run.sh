#!/usr/bin/env bash
# Throughput of the benchmark workloads natively, as wasm in node, and in the NumPy/SciPy reference,
# in one run, with their ratios; then the regression solvers' time to ||x - x*|| <= 1e-10 on the
# "reference" and "large_sparse" problems. Builds what is missing first. usage: bench/run.sh [SECONDS]
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
PYENV=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$PY")
# The reference list: the separation workloads, then the regression ones, then the mirror ones (the
# order of `attnlab bench`).
numpy=$("${PYENV[@]}" bench/separation_numpy.py --seconds "$SECONDS_PER")
scipy=$("${PYENV[@]}" bench/regression_scipy.py --seconds "$SECONDS_PER")
mirror=$("${PYENV[@]}" bench/mirror_numpy.py --seconds "$SECONDS_PER")
python3 - "$native" "$wasm" "$numpy" "$scipy" "$mirror" <<'PY'
import json, sys
native, wasm, numpy, scipy, mirror = (json.loads(a) for a in sys.argv[1:6])
numpy += scipy + mirror
# The multihead rows have no reference implementation: their NumPy columns stay empty.
assert len(native) == len(wasm) and len(numpy) <= len(native), "the benchmark lists do not line up"
w = max(len("workload"), *(len(a["name"]) for a in native))
rate = lambda x: f"{x:>12.1f}" if x >= 100 else f"{x:>12.3g}"
print(f"{'workload':<{w}} {'native':>12} {'wasm (node)':>12} {'NumPy/SciPy':>12}   "
      f"{'native/wasm':>11} {'wasm/NumPy':>10} {'native/NumPy':>12}")
for i, (a, b) in enumerate(zip(native, wasm)):
    c = numpy[i] if i < len(numpy) else None
    assert a["name"] == b["name"] and (c is None or c["name"] == a["name"]), (a["name"], b["name"])
    ref = (f"{rate(c['rate'])}", f"{b['rate'] / c['rate']:>10.2f}", f"{a['rate'] / c['rate']:>12.2f}") if c else \
          (f"{'-':>12}", f"{'-':>10}", f"{'-':>12}")
    print(f"{a['name']:<{w}} {rate(a['rate'])} {rate(b['rate'])} {ref[0]}   "
          f"{a['rate'] / b['rate']:>11.2f} {ref[1]} {ref[2]}   ({a['unit']})")
print()
print('Note: the "dense" rows compute the n x n attention matrices row by row, as the paper\'s Python does\n'
      '(NumPy has only that implementation, so its "self"/"self dense" and "cross"/"cross dense" rows run the\n'
      'same code). The gap between "self" and "self dense" is the algorithm (grouped rows, exact); the gap\n'
      'between "self dense" and NumPy is the implementation.\n'
      'The regression rows are solver iterations per second of solver time on the presets\' problems (seed 1),\n'
      'restarted from x0 whenever a solver converges. NumPy uses a dense A, a different draw of the same\n'
      'distribution, and exact leverage scores (QR) where the C++ sampler uses a sketch.\n'
      'The mirror rows are normalised l_p mirror-descent steps (eta = 0.1) on the paper\'s synthetic data (seed 1,\n'
      'the same data and W0 ~ N(0, 1) on all three sides), restarted from W0 every 2000 steps. NumPy uses the direct\n'
      'gradient and grad / (||grad||_q + eps) (bench/mirror_numpy.py), the C++ the pairwise, log-domain form. At\n'
      'p = 1.75 the softmax saturates from step ~1300 of each 2000, and the C++ gradient then takes its log-domain path.')
PY
echo
tolerance=$("${PYENV[@]}" bench/regression_scipy.py --time-to-tolerance --native build/native/attnlab \
  --wasm build/wasm/attnlab_node.cjs)
python3 - "$tolerance" <<'PY'
import json, sys
entries = json.loads(sys.argv[1])
impls = ["native", "wasm", "NumPy"]
solvers = []
for e in entries:
    if (e["problem"], e["solver"]) not in solvers:
        solvers.append((e["problem"], e["solver"]))
cell = {(e["problem"], e["solver"], "NumPy" if e["implementation"] == "SciPy" else e["implementation"]): e
        for e in entries}
ms = lambda x: f"{x:.0f}" if x >= 100 else f"{x:.3g}"
def time_cell(e):
    if e is None:
        return "-"
    return "never" if e["ms"] is None else ms(e["ms"])
def why(e):
    if e is None or e["ms"] is not None:
        return ""
    return e.get("state") or f"stops at ||x - x*|| = {e['final_distance']:.2g}"
print("time to ||x - x*|| <= 1e-10 (ms), and ms per iteration")
print(f"{'problem':<10} {'solver':<20} {'native':>9} {'wasm':>9} {'NumPy/SciPy':>11}   "
      f"{'native/it':>9} {'wasm/it':>9} {'NumPy/it':>9}   never: why")
for problem, solver in solvers:
    es = [cell.get((problem, solver, i)) for i in impls]
    label = solver + (" (SciPy)" if es[2] is not None and es[2]["implementation"] == "SciPy" else "")
    per_it = [ms(e["ms_per_iteration"]) if e else "-" for e in es]
    reasons = "; ".join(f"{e['implementation']}: {why(e)}" for e in es if why(e))
    print(f"{problem:<10} {label:<20} {time_cell(es[0]):>9} {time_cell(es[1]):>9} {time_cell(es[2]):>11}   "
          f"{per_it[0]:>9} {per_it[1]:>9} {per_it[2]:>9}   {reasons}")
print()
print("C++ (native, wasm): solver time from one run of `attnlab run regression --preset reference|large_sparse`\n"
      "(seed 1; the large run has approx_w2 and sampled_rank2 off). NumPy/SciPy: wall time from x0 on a different\n"
      "draw of the same distribution (bench/regression_scipy.py); scipy.optimize times come from its callback.\n"
      "Newton-CG and L-BFGS-B stop when their line search sees no decrease of L at double precision\n"
      "(L - L* ~ 1e-16 L*, spec s.6), short of 1e-10. Single runs of well under a millisecond are noisy.")
PY
