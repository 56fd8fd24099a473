#!/usr/bin/env python3
"""The toy separation trial (spec/separation.md s.1 and s.4) in plain NumPy, written the way the
paper's own Python would do it, for the benchmark only: prints trials per second as JSON.
usage: toy_numpy.py [--seconds S]"""
import argparse
import json
import time

import numpy as np


def trial(n, m, tau, rng):
    log_n = np.log(n)
    v0 = rng.uniform(log_n, 1.4 * log_n, n)
    v1 = rng.uniform(log_n, 1.4 * log_n, n)
    v1[rng.integers(n)] = 4 * log_n
    y = rng.choice([-1.0, 1.0], size=(n, m))  # one shared readout

    def fires(f):
        return np.maximum(np.maximum(f @ y - tau, 0).sum(), 0) > 0

    def softmax(v):
        e = np.exp(v - v.max())
        return e / e.sum()

    exp_d1, lin_d1 = fires(softmax(v1)), fires(v1 / v1.sum())
    exp_d0, lin_d0 = fires(softmax(v0)), fires(v0 / v0.sum())
    return exp_d1 and not lin_d1 and not exp_d0 and not lin_d0


def bench(n, seconds):
    m = max(1, int(round(np.log(n))))
    rng = np.random.default_rng(1)
    units, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            trial(n, m, 0.25, rng)
        units += 50
    elapsed = time.perf_counter() - start
    return {"name": f"toy n={n}", "unit": "trials/s", "rate": units / elapsed, "seconds": elapsed, "units": units}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    print(json.dumps([bench(1000, args.seconds), bench(2000, args.seconds)]))
