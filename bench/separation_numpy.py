#!/usr/bin/env python3
"""The separation trials (docs/separation.md s.1-s.4) in plain NumPy, written the way the paper's own
Python would do it, for the benchmark only: prints trials per second as JSON, one entry per workload
of `attnlab bench` in the same order (bench/run.sh checks the names).

The attention trials build the explicit n x d matrices A1, A2, A3 of Def. D.1 (self, X = I) and
Def. F.1 (cross), the n x n logits A1 X A2^T, the row-wise softmax (max-subtracted) or linear
normalisation, c = att @ A3, and the readout F = relu(sum relu(c @ y - tau)) with y in {+-1}^{d x m}.
This is already the dense O(n^2 d) computation, so the "dense" workloads run the same function.

usage: separation_numpy.py [--seconds S] [--rates TRIALS]
  --rates TRIALS: instead of timing, print each workload's success rate over TRIALS trials (a check)."""
import argparse
import json
import time

import numpy as np


def relu(z):
    return np.maximum(z, 0)


def fires(c, y, tau):
    """F(A; X, y) > 0 with F = phi( sum_j0 sum_l phi_tau(<c_j0, y_l>) ) (spec s.1 and s.2)."""
    return relu(relu(c @ y - tau).sum()) > 0


# --- the toy model (spec s.1) ---------------------------------------------------------------------
def toy_trial(n, m, tau, rng):
    log_n = np.log(n)
    v0 = rng.uniform(log_n, 1.4 * log_n, n)
    v1 = rng.uniform(log_n, 1.4 * log_n, n)
    v1[rng.integers(n)] = 4 * log_n
    y = rng.choice([-1.0, 1.0], size=(n, m))  # one shared readout

    def softmax(v):
        e = np.exp(v - v.max())
        return e / e.sum()

    exp_d1, lin_d1 = fires(softmax(v1), y, tau), fires(v1 / v1.sum(), y, tau)
    exp_d0, lin_d0 = fires(softmax(v0), y, tau), fires(v0 / v0.sum(), y, tau)
    return exp_d1 and not lin_d1 and not exp_d0 and not lin_d0


def toy_workload(n):
    m = max(1, int(round(np.log(n))))
    return lambda rng: toy_trial(n, m, 0.25, rng)


# --- the attention models (spec s.2 and s.3) ------------------------------------------------------
def self_input(n, d, a, j3, b=0.2, c=0.8):
    """Def. D.1: A1 = A2 = A3 (one matrix)."""
    r = np.sqrt(np.log(n))
    A = np.zeros((n, d))
    A[j3, 0] = a * r
    rows = np.arange(n)
    A[rows, 1 + rows % (d - 2)] = b * r  # t stacked copies of I_{d-2}, truncated by the modulo rule
    A[:, d - 1] = c * r
    return A, A, A


def cross_input(n, d, a, j2, j3):
    """Def. F.1: A1 (queries) and A2 = A3 (keys and values)."""
    log_n = np.log(n)
    A1 = np.full((n, d), log_n)
    A1[:, 0] = 0.0
    A1[j2, 0] = a * log_n
    A2 = np.zeros((n, d))
    A2[j3, 0] = 1.0
    rows = np.arange(n)
    A2[rows, 1 + rows % (d - 1)] = 1.0
    return A1, A2, A2


def attention(A1, X, A2, A3, softmax):
    """D^-1 exp(A1 X A2^T) A3 (V = I), or the raw scores divided by their row sums (linear)."""
    logits = A1 @ X @ A2.T  # n x n
    if softmax:
        scores = np.exp(logits - logits.max(axis=1, keepdims=True))
    else:
        scores = logits
    return (scores / scores.sum(axis=1, keepdims=True)) @ A3


def attention_trial(model, n, d, rng):
    """One trial (spec s.4): one D0 and one D1 input with uniform special tokens, one shared readout."""
    delta = 0.01
    m = int(round(np.log(n / delta)))
    if model == "self":
        a0, a1, tau, m = 0.01, 1.2, (0.8 + 0.1) * np.sqrt(np.log(n)), max(m, 15)
        make = lambda a: self_input(n, d, a, rng.integers(n))
    else:
        a0, a1, tau = 0.01, 3.0, 0.9
        make = lambda a: cross_input(n, d, a, rng.integers(n), rng.integers(n))
    X = np.eye(d)
    d0, d1 = make(a0), make(a1)
    y = rng.choice([-1.0, 1.0], size=(d, m))
    exp_d1 = fires(attention(d1[0], X, d1[1], d1[2], True), y, tau)
    lin_d1 = fires(attention(d1[0], X, d1[1], d1[2], False), y, tau)
    exp_d0 = fires(attention(d0[0], X, d0[1], d0[2], True), y, tau)
    lin_d0 = fires(attention(d0[0], X, d0[1], d0[2], False), y, tau)
    return exp_d1 and not lin_d1 and not exp_d0 and not lin_d0


def attention_workload(model, n, d):
    return lambda rng: attention_trial(model, n, d, rng)


# The workloads of bench/workloads.cpp, in its order. "dense" is the same NumPy code (it is dense).
WORKLOADS = [
    ("toy n=1000", toy_workload(1000)),
    ("toy n=2000", toy_workload(2000)),
    ("self n=1000 d=12", attention_workload("self", 1000, 12)),
    ("self dense n=1000 d=12", attention_workload("self", 1000, 12)),
    ("self n=200 d=66", attention_workload("self", 200, 66)),
    ("cross n=1000 d=12", attention_workload("cross", 1000, 12)),
    ("cross n=200 d=66", attention_workload("cross", 200, 66)),
    ("cross dense n=200 d=66", attention_workload("cross", 200, 66)),
]


def bench(name, trial, seconds):
    rng = np.random.default_rng(1)
    units, successes, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        successes += bool(trial(rng))
        units += 1
    elapsed = time.perf_counter() - start
    return {"name": name, "unit": "trials/s", "rate": units / elapsed, "seconds": elapsed, "units": units}


def success_rate(name, trial, trials):
    rng = np.random.default_rng(1)
    return {"name": name, "trials": trials, "success": sum(bool(trial(rng)) for _ in range(trials)) / trials}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rates", type=int, default=0, metavar="TRIALS")
    args = ap.parse_args()
    if args.rates > 0:
        print(json.dumps([success_rate(name, trial, args.rates) for name, trial in WORKLOADS], indent=1))
    else:
        print(json.dumps([bench(name, trial, args.seconds) for name, trial in WORKLOADS]))
