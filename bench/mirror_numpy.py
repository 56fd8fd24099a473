#!/usr/bin/env python3
"""The `mirror` experiment's training loop (docs/mirror.md s.1, s.2, s.4) in plain NumPy, written
the way the authors' Python would do it (their SMD optimiser, vectorised over the n sequences), as a
reference for the benchmark only: prints normalised l_p mirror-descent steps per second as JSON, one
entry per mirror workload of `attnlab bench`, in the same order and with the same names (bench/run.sh
appends them to the separation and regression lists).

One step, with X (n x T x d), z (n x d), Y (n), v (d) and W (d x d):
  s_i = softmax(X_i W z_i) (max-subtracted), f_i = v^T X_i^T s_i, logistic loss l(u) = log(1 + e^-u),
  grad = (1/n) sum_i l'(Y_i f_i) Y_i X_i^T (diag(s_i) - s_i s_i^T) X_i v z_i^T   (the direct form),
  G = grad / (||grad||_q + eps), entrywise q-norm, q = p / (p - 1), eps = 2.22e-16,
  W <- sign(T) |T|^(1/(p-1)) with T = sign(W) |W|^(p-1) - eta G, eta = 0.1.
This is the code's normalisation (grad / (norm + eps)), not the C++ side's log-domain direction; the
two take the same steps until the softmax saturates (spec s.6).

The data and W0 are the C++ workload's: synthetic_dataset(n = 6, T = 8, d = 10, seed 1) and W0 ~ N(0, 1)
from stream 99, drawn with a port of the project's generator (src/core/rng.cpp: xoshiro256** seeded
through splitmix64, Marsaglia polar normals), so both sides train the same problem from the same start
(up to the last bit of log()). Like the C++ workload, the loop restarts from W0 every 2000 steps; the
data setup is not timed, the restarts are.

usage: mirror_numpy.py [--seconds S] [--trace STEPS]
  --trace STEPS: instead of timing, print sum(W) and the largest softmax after STEPS steps from W0
  for each p (a check against the C++ trainer)."""
import argparse
import json
import math
import time

import numpy as np

N, T_TOKENS, D, SEED, ETA, RESTART = 6, 8, 10, 1, 0.1, 2000
PS = (("1.75", 1.75), ("2", 2.0), ("3", 3.0))  # the bench's order
EPS = np.finfo(np.float64).eps  # the code's eps (torch.finfo(torch.double).eps)


# --- the project's generator (src/core/rng.cpp), for the same data and W0 as the C++ workload -------
M64 = (1 << 64) - 1


def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


class Rng:
    def __init__(self, seed):
        self.s, x = [], seed
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            self.s.append(mix64(x))
        self.spare = None

    @classmethod
    def for_stream(cls, seed, stream):
        return cls(mix64(seed) ^ mix64((stream + 0x632BE59BD9B4E019) & M64))

    def next_u64(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next_u64() >> 11) * 2.0**-53

    def normal(self):
        if self.spare is not None:
            out, self.spare = self.spare, None
            return out
        while True:
            u, v = 2.0 * self.uniform() - 1.0, 2.0 * self.uniform() - 1.0
            s = u * u + v * v
            if 0.0 < s < 1.0:
                break
        f = math.sqrt(-2.0 * math.log(s) / s)
        self.spare = v * f
        return u * f


def synthetic_dataset(n, T, d, seed):
    """src/experiments/mirror/dataset.cpp synthetic_dataset(): unit tokens and queries, Y = +-1, unit v."""
    rng = Rng.for_stream(seed, 0)

    def unit():
        u = np.array([rng.normal() for _ in range(d)])
        return u / np.linalg.norm(u)

    X, z = np.zeros((n, T, d)), np.zeros((n, d))
    for i in range(n):
        for t in range(T):
            X[i, t] = unit()
        z[i] = unit()
    Y = np.array([1.0 if rng.next_u64() >> 63 else -1.0 for _ in range(n)])
    return X, z, Y, unit()


def initial_W(d, seed):
    """W0 ~ N(0, 1) from stream 99, filled column by column like the C++ (Eigen, column-major)."""
    rng = Rng.for_stream(seed, 99)
    return np.array([rng.normal() for _ in range(d * d)]).reshape(d, d, order="F")


# --- the training step (the authors' SMD optimiser on the W-model, in NumPy) ----------------------
def forward(X, z, v, W):
    logits = np.einsum("ntd,nd->nt", X, z @ W.T)  # a_it = x_it^T W z_i
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    s = e / e.sum(axis=1, keepdims=True)
    Xv = X @ v  # n x T
    return s, Xv, (s * Xv).sum(axis=1)  # f_i = v^T X_i^T s_i


def gradient(X, z, Y, v, W):
    s, Xv, f = forward(X, z, v, W)
    lprime = -1.0 / (1.0 + np.exp(Y * f))  # l'(u) of l(u) = log(1 + e^-u)
    r = s * Xv - s * (s * Xv).sum(axis=1, keepdims=True)  # (diag(s_i) - s_i s_i^T) X_i v
    h = np.einsum("nt,ntd->nd", r, X)  # h_i = X_i^T (diag(s_i) - s_i s_i^T) X_i v
    return ((lprime * Y)[:, None] * h).T @ z / X.shape[0]  # (1/n) sum_i l' Y_i h_i z_i^T


def md_step(W, X, z, Y, v, p, eta=ETA):
    grad = gradient(X, z, Y, v, W)
    q = p / (p - 1.0)
    G = grad / (np.sum(np.abs(grad) ** q) ** (1.0 / q) + EPS)
    Tm = np.sign(W) * np.abs(W) ** (p - 1.0) - eta * G
    return np.sign(Tm) * np.abs(Tm) ** (1.0 / (p - 1.0))


def bench(label, p, data, W0, seconds):
    X, z, Y, v = data
    units, checksum, elapsed, start = 0, 0.0, 0.0, time.perf_counter()
    while elapsed < seconds:
        W = W0.copy()
        for k in range(RESTART):
            W = md_step(W, X, z, Y, v, p)
            units += 1
            if k % 50 == 49:
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
        checksum += W.sum()
    elapsed = time.perf_counter() - start
    rate = units / elapsed if checksum == checksum else 0.0
    return {"name": f"mirror p={label} n={N} T={T_TOKENS} d={D}", "unit": "steps/s", "rate": rate,
            "seconds": elapsed, "units": units}


def trace(p, data, W0, steps):
    X, z, Y, v = data
    W = W0.copy()
    for _ in range(steps):
        W = md_step(W, X, z, Y, v, p)
    s = forward(X, z, v, W)[0]
    return {"p": p, "steps": steps, "sum_W": W.sum(), "min_max_softmax": s.max(axis=1).min()}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--trace", type=int, default=0, metavar="STEPS")
    args = ap.parse_args()
    data, W0 = synthetic_dataset(N, T_TOKENS, D, SEED), initial_W(D, SEED)
    if args.trace > 0:
        print(json.dumps([trace(p, data, W0, args.trace) for _, p in PS], indent=1))
    else:
        print(json.dumps([bench(label, p, data, W0, args.seconds) for label, p in PS]))
