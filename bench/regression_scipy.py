#!/usr/bin/env python3
"""The `regression` experiment's solvers (docs/regression.md s.1-s.3) in NumPy/SciPy, written the way a
researcher would, as a reference for the benchmark only.

Problems: the presets "reference" (exp, n = 200, d = 10, kappa = 30, 100 samples) and "large_sparse"
(n = 100000, d = 50, kappa = 10, 2000 samples), both with ||A|| = 1, density 1, planted b, w = 1,
||x_true|| = 1, r0 = 1. They are built with the construction of src/experiments/regression/generator.cpp
(Gaussian A with column j scaled by kappa^(-j/(d-1)), rescaled to spectral norm 1; x_true a random unit
vector; planted b = exp(A x_true) / sum exp(A x_true); w = 1; x* by damped Newton from x_true to
||grad L|| <= 1e-13; x0 = x* + r0 u for a random unit u) but with NumPy's random generator: the SAME
DISTRIBUTION AS THE C++ PROBLEMS, NOT THE SAME DRAW. Iteration counts can differ slightly from the
C++ runs; per-iteration costs depend only on n, d and the sample budget. A is a dense ndarray (density
1, so that is what a researcher would use; --sparse stores it as scipy.sparse CSR like the C++ side).

Default mode: iterations per second, one JSON entry per regression workload of `attnlab bench`, in the
same order and with the same names (bench/run.sh appends them to bench/separation_numpy.py's list):
  newton       x <- x - H^-1 g, H = A^T diag(delta) A + ||b||^2 p p^T - q p^T - p q^T (spec s.2)
  approx_diag  the same update with H~ = A^T diag(v*v + u*c - <c,b> u + w^2) A
  sampled      H~ = A^T D~ A with D~ from leverage-score sampling as in solvers.cpp leverage_sample():
               row i kept with probability p_i = min(1, samples tau_i / d), D~_i = D_i / p_i, D clamped
               at 0; here tau_i are the EXACT leverage scores of D^1/2 A (thin QR), not the C++ sketch.
Like the C++ workloads, each solver runs from x0 until ||x - x*|| <= 1e-13 (or the preset's iteration
limit) and restarts; only the iterations are timed.

--time-to-tolerance: wall time until ||x - x*|| <= 1e-10 (null if never) for exact Newton, approx_diag
and sampled above, scipy.optimize.minimize Newton-CG (jac, hess), trust-exact (reference only) and
L-BFGS-B, from x0; scipy.optimize's times are taken by a callback at each iterate. With --native and
--wasm it also runs the C++ experiment (`attnlab run regression --preset P --format json --quiet`, and
runExperiment of the node module) and reads the "||x - x*|| <= 1e-10 after X ms" notes. The large run
switches approx_w2 and sampled_rank2 off: approx_w2 never reaches 1e-10 there and the eps0 measurement
after each of its 200 iterations costs a Hessian (minutes); sampled_rank2 doubles the run time.

usage: regression_scipy.py [--seconds S] [--sparse]
       regression_scipy.py --time-to-tolerance [--native BIN] [--wasm MODULE.cjs] [--problems P,...]"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

try:
    import scipy.linalg
    import scipy.optimize
    import scipy.sparse
except ImportError:
    sys.exit("regression_scipy.py needs SciPy: install Debian's python3-scipy (apt-get install python3-scipy) "
             "and run it with /usr/bin/python3")

# name in the bench -> preset, sizes (the presets in regression_schema.cpp)
PROBLEMS = {
    "reference": dict(preset="reference", n=200, d=10, kappa=30.0, samples=100.0, max_iterations=3000),
    "large": dict(preset="large_sparse", n=100000, d=50, kappa=10.0, samples=2000.0, max_iterations=200),
}
SOLVERS = ("newton", "approx_diag", "sampled")  # the bench's order
NORM_A, X_TRUE_NORM, W, R0, TOLERANCE, TARGET = 1.0, 1.0, 1.0, 1.0, 1e-13, 1e-10


class Problem:
    """L(x) = 1/2 ||u - <u, 1> b||^2 + 1/2 ||W A x||^2 with u = exp(A x)."""

    def __init__(self, A, b, w):
        self.A, self.b, self.w2 = A, b, w * w
        self.bb = b @ b
        self.d = A.shape[1]

    def point(self, x):
        Ax = self.A @ x
        u = np.exp(Ax)  # v = u for exp
        c = u - u.sum() * self.b
        cb = c @ self.b
        return dict(x=x, Ax=Ax, u=u, c=c, cb=cb, loss=0.5 * (c @ c) + 0.5 * (self.w2 * Ax) @ Ax)

    def gradient(self, at):
        u, c = at["u"], at["c"]
        return self.A.T @ (u * c - at["cb"] * u + self.w2 * at["Ax"])

    def middle_diagonal(self, at):  # B_diag + w^2 = v*v + u*c - <c,b> u + w^2
        u = at["u"]
        return u * u + u * at["c"] - at["cb"] * u + self.w2

    def gram(self, weights, A=None):  # A^T diag(weights) A
        A = self.A if A is None else A
        if scipy.sparse.issparse(A):
            return (A.T @ scipy.sparse.diags(weights) @ A).toarray()
        return (A.T * weights) @ A

    def hessian(self, at):
        u = at["u"]
        p, q = self.A.T @ u, self.A.T @ (u * self.b)
        return self.gram(self.middle_diagonal(at)) + self.bb * np.outer(p, p) - np.outer(q, p) - np.outer(p, q)

    def sampled_hessian(self, at, samples, rng):
        D = np.maximum(self.middle_diagonal(at), 0.0)
        rows = np.sqrt(D)[:, None] * self.A if not scipy.sparse.issparse(self.A) else \
            (scipy.sparse.diags(np.sqrt(D)) @ self.A).toarray()
        Q = np.linalg.qr(rows, mode="reduced")[0]
        tau = np.einsum("ij,ij->i", Q, Q)  # exact leverage scores
        prob = np.minimum(1.0, samples * tau / self.d)
        keep = np.flatnonzero(rng.random(len(D)) < prob)
        return self.gram(D[keep] / prob[keep], self.A[keep])


def solve(H, g):
    try:
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(H), g)
    except np.linalg.LinAlgError:
        return np.linalg.solve(H, g)


def find_minimiser(P, start):
    """x* by damped Newton to ||grad L|| <= 1e-13, then up to 4 full steps while the gradient decreases
    (as solvers.cpp find_minimiser())."""
    x, at = start, P.point(start)
    found, polish, best = False, 0, np.inf
    for _ in range(300):
        g = P.gradient(at)
        gn = np.linalg.norm(g)
        if found and (gn >= best or polish >= 4):
            break
        if found:
            polish += 1
        best, x_best = gn, x
        found = found or gn <= 1e-13
        step = solve(P.hessian(at), g)
        if g @ step <= 0:
            step = g
        eta, nxt = 1.0, P.point(x - step)
        # Armijo on L, with slack for rounding: near x* the decrease is below the precision of L.
        slack = 1e-14 * abs(at["loss"])
        while not found and eta > 1e-20 and not (
                np.isfinite(nxt["loss"]) and nxt["loss"] <= at["loss"] - 1e-4 * eta * (g @ step) + slack):
            eta *= 0.5
            nxt = P.point(x - eta * step)
        x, at = x - eta * step, nxt
    if not found:
        raise RuntimeError(f"x* not found: ||grad L|| = {best:.3g}")
    return x_best


def build(name, seed=1, sparse=False):
    """The problem, x* and x0 of one preset (same distribution as generator.cpp, not the same draw)."""
    s = PROBLEMS[name]
    n, d, kappa = s["n"], s["d"], s["kappa"]
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, d)) * kappa ** (-np.arange(d) / max(d - 1, 1))
    A *= NORM_A / np.sqrt(np.linalg.eigvalsh(A.T @ A)[-1])  # ||A||_2 = NORM_A exactly
    x_true = rng.standard_normal(d)
    x_true *= X_TRUE_NORM / np.linalg.norm(x_true)
    u = np.exp(A @ x_true)
    P = Problem(scipy.sparse.csr_matrix(A) if sparse else A, u / u.sum(), np.full(n, W))
    x_star = find_minimiser(P, x_true)
    unit = rng.standard_normal(d)
    return P, x_star, x_star + R0 * unit / np.linalg.norm(unit)


def newton_type_run(P, x_star, x0, solver, samples, max_iterations, stop, seed=1, deadline=np.inf):
    """One run of x <- x - H~^-1 g from x0 until ||x - x*|| <= stop (or the iteration limit, or the
    perf_counter() deadline): returns the iteration count, the solver time and the solver time when
    ||x - x*|| first reached TARGET (None if never)."""
    rng = np.random.default_rng(seed)
    at = P.point(x0)
    g = P.gradient(at)
    seconds, reached, t = 0.0, None, 0
    while np.linalg.norm(at["x"] - x_star) > stop and t < max_iterations and time.perf_counter() < deadline:
        start = time.perf_counter()
        H = P.hessian(at) if solver == "newton" else P.gram(P.middle_diagonal(at)) if solver == "approx_diag" \
            else P.sampled_hessian(at, samples, rng)
        at = P.point(at["x"] - solve(H, g))
        g = P.gradient(at)
        seconds += time.perf_counter() - start
        t += 1
        if not np.all(np.isfinite(at["x"])) or not np.isfinite(at["loss"]):
            break
        if reached is None and np.linalg.norm(at["x"] - x_star) <= TARGET:
            reached = seconds
    return t, seconds, reached


def iterations_per_second(name, problem, solver, seconds, built):
    P, x_star, x0 = built
    s = PROBLEMS[problem]
    units, solver_seconds, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:  # like the C++ workload: restart, stop mid-run at the time
        t, sec, _ = newton_type_run(P, x_star, x0, solver, s["samples"], s["max_iterations"], TOLERANCE,
                                    deadline=start + seconds)
        units, solver_seconds = units + t, solver_seconds + sec
    return {"name": name, "unit": "iterations/s", "rate": units / solver_seconds, "seconds": solver_seconds,
            "units": units}


def scipy_run(P, x_star, x0, method):
    """scipy.optimize.minimize from x0; a callback records the wall time and distance of each iterate."""
    fun = lambda x: P.point(x)["loss"]
    jac = lambda x: P.gradient(P.point(x))
    hess = lambda x: P.hessian(P.point(x))
    options = {"Newton-CG": dict(xtol=1e-16, maxiter=200),
               "trust-exact": dict(gtol=1e-15, maxiter=200),
               "L-BFGS-B": dict(ftol=0.0, gtol=1e-15, maxiter=20000, maxfun=40000)}[method]
    record = []
    start = time.perf_counter()
    callback = lambda xk: record.append((time.perf_counter() - start, np.linalg.norm(xk - x_star)))
    result = scipy.optimize.minimize(fun, x0, jac=jac, hess=None if method == "L-BFGS-B" else hess,
                                     method=method, callback=callback, options=options)
    total = time.perf_counter() - start
    reached = next((t for t, dist in record if dist <= TARGET), None)
    return dict(ms=None if reached is None else 1e3 * reached, iterations=len(record),
                ms_per_iteration=1e3 * total / max(1, len(record)),
                final_distance=float(np.linalg.norm(result.x - x_star)), message=str(result.message))


# --- the C++ side: the experiment's notes ---------------------------------------------------------
NOTE = re.compile(r"^(?P<label>[^:]+): (?P<state>[^,]+?) after (?P<its>\d+) iterations, (?P<mspi>[0-9.e+-]+) ms per "
                  r"iteration(?:, \|\|x - x\*\|\| <= 1e-10 after (?P<ms>[0-9.e+-]+) ms)?")
KEY = {"exact Newton": "newton", "approx. Newton, A^T (B_diag + W^2) A": "approx_diag",
       "approx. Newton, A^T W^2 A": "approx_w2", "approx. Newton, leverage-sampled": "sampled",
       "approx. Newton, sampled + rank 2": "sampled_rank2", "gradient descent (Armijo)": "gd"}
LARGE_OFF = {"approx_w2": "false", "sampled_rank2": "false"}


def parse_notes(run_json, problem, implementation):
    run = json.loads(run_json)
    if "error" in run:
        raise RuntimeError(f"{implementation} run of {problem}: {run['error']}")
    out = []
    for note in run["notes"]:
        m = NOTE.match(note)
        if m:
            out.append(dict(problem=problem, solver=KEY.get(m["label"], m["label"]), implementation=implementation,
                            ms=float(m["ms"]) if m["ms"] else None, iterations=int(m["its"]),
                            ms_per_iteration=float(m["mspi"]), state=m["state"]))
    return out


def native_run(binary, problem):
    cmd = [binary, "run", "regression", "--preset", PROBLEMS[problem]["preset"], "--format", "json", "--quiet"]
    for k, v in (LARGE_OFF if problem == "large" else {}).items():
        cmd += ["--set", f"{k}={v}"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def wasm_run(module, problem):
    script = ("const lab = require(process.argv[1])();"
              "(async () => console.log((await lab).runExperiment('regression', process.argv[2], "
              "JSON.parse(process.argv[3]), 1)))();")
    params = LARGE_OFF if problem == "large" else {}
    return subprocess.run(["node", "-e", script, os.path.abspath(module), PROBLEMS[problem]["preset"],
                           json.dumps(params)], check=True, capture_output=True, text=True).stdout


def time_to_tolerance(problems, native, wasm, sparse):
    out = []
    for problem in problems:
        if native:
            out += parse_notes(native_run(native, problem), problem, "native")
        if wasm:
            out += parse_notes(wasm_run(wasm, problem), problem, "wasm")
        P, x_star, x0 = build(problem, sparse=sparse)
        s = PROBLEMS[problem]
        for solver in SOLVERS:
            t, sec, reached = newton_type_run(P, x_star, x0, solver, s["samples"], s["max_iterations"], TOLERANCE)
            out.append(dict(problem=problem, solver=solver, implementation="NumPy",
                            ms=None if reached is None else 1e3 * reached, iterations=t,
                            ms_per_iteration=1e3 * sec / max(1, t)))
        for method in ["Newton-CG"] + (["trust-exact"] if problem == "reference" else []) + ["L-BFGS-B"]:
            out.append(dict(problem=problem, solver=method, implementation="SciPy", **scipy_run(P, x_star, x0, method)))
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--sparse", action="store_true", help="store A as scipy.sparse CSR (as the C++ side does)")
    ap.add_argument("--time-to-tolerance", action="store_true")
    ap.add_argument("--native", metavar="BIN", help="with --time-to-tolerance: the attnlab CLI to run")
    ap.add_argument("--wasm", metavar="MODULE", help="with --time-to-tolerance: attnlab_node.cjs to run in node")
    ap.add_argument("--problems", default="reference,large")
    args = ap.parse_args()
    problems = args.problems.split(",")
    for p in problems:
        if p not in PROBLEMS:
            sys.exit(f"unknown problem '{p}'; allowed: {', '.join(PROBLEMS)}")
    if args.time_to_tolerance:
        print(json.dumps(time_to_tolerance(problems, args.native, args.wasm, args.sparse)))
    else:
        rows = []
        for problem in problems:
            built = build(problem, sparse=args.sparse)  # setup outside the timed loops
            rows += [iterations_per_second(f"regression {problem} {s}", problem, s, args.seconds, built)
                     for s in SOLVERS]
        print(json.dumps(rows))
