#!/usr/bin/env python3
"""An independent NumPy FISTA with restarts for the robust problem's dual.

It solves the problem that `rml train --save-problem P.json` wrote (the
standardized X, the triplets, eta and lambda) and prints its iterations,
seconds and relative gap, for a side-by-side comparison with the Go solver
(docs/figures.md, "Against NumPy"). It shares no code with the Go solver:
the textbook method on the dual (docs/math.md),

    L(q) = -sum(q) + ||pi_+(M(q))||_F^2 / (2 lambda),  M(q) = sum_i q_i K_i,
    K_i = a_i a_i^T - b_i b_i^T,  a_i = x_I - x_K,  b_i = x_I - x_J,
    q in {[0, 1]^N, sum(q) <= m = N eta},

by FISTA with backtracking (Beck & Teboulle 2009) and the function-value
and gradient restarts of O'Donoghue & Candes (2015), no scaling. The
certificate is the same as the Go solver's: the best L(q) and the best
P(A(y)), A(y) = pi_+(M(y))/lambda, P(A) = lambda/2 ||A||^2 + the sum of the
m largest hinge losses; it stops when (L + P)/max(1, |P|) <= tol.

Usage: /usr/bin/python3 docs/numpy_fista.py P.json [--tol 1e-8] [--max-seconds 600]
(Debian's python3-numpy; `apt-get install -y python3-numpy`.)
"""
import argparse
import json
import time

import numpy as np


def project(c, m):
    """Euclidean projection of c onto {q in [0,1]^N, sum q <= m}."""
    q = np.clip(c, 0.0, 1.0)
    if q.sum() <= m:
        return q
    # sum(clip(c - tau, 0, 1)) = m for some tau > 0: bisection to rounding.
    lo, hi = 0.0, float(c.max())
    for _ in range(100):
        tau = (lo + hi) / 2
        if np.clip(c - tau, 0.0, 1.0).sum() > m:
            lo = tau
        else:
            hi = tau
    return np.clip(c - hi, 0.0, 1.0)


def top_sum(h, m):
    """Sum of the floor(m) largest entries of h (>= 0) plus the fraction."""
    k = int(np.floor(m))
    if len(h) <= k:
        return float(h.sum())
    s = np.sort(h)[::-1]
    return float(s[:k].sum() + (m - k) * s[k])


class Dual:
    def __init__(self, x, triplets, eta, lam):
        t = np.asarray(triplets)
        self.a = x[t[:, 0]] - x[t[:, 2]]
        self.b = x[t[:, 0]] - x[t[:, 1]]
        self.lam = lam
        self.m = len(t) * eta

    def mat(self, q):
        return (self.a * q[:, None]).T @ self.a - (self.b * q[:, None]).T @ self.b

    def value(self, q):
        w = np.linalg.eigvalsh(self.mat(q))
        w = w[w > 0]
        return -q.sum() + (w @ w) / (2 * self.lam)

    def full(self, q):
        """L(q), its gradient, and P(A(q))."""
        w, v = np.linalg.eigh(self.mat(q))
        pos = w > 0
        w, v = w[pos], v[:, pos]
        lq = -q.sum() + (w @ w) / (2 * self.lam)
        # tr(K_i A) with A = V diag(w/lam) V^T.
        za, zb = self.a @ v, self.b @ v
        margin = (za * za) @ (w / self.lam) - (zb * zb) @ (w / self.lam)
        grad = margin - 1
        hinge = np.maximum(0.0, 1 - margin)
        p = (w @ w) / (2 * self.lam) + top_sum(hinge[hinge > 0], self.m)
        return lq, grad, p


def fista(f, n, tol, max_seconds):
    start = time.perf_counter()
    x = np.zeros(n)
    y = x.copy()
    fy, g, p = f.full(y)
    best_l, best_p = fy, p
    fx = fy
    lk, theta, it = 1.0, 1.0, 0
    while True:
        lk *= 0.8
        while True:
            xn = project(y - g / lk, f.m)
            d = xn - y
            fxn = f.value(xn)
            if fxn <= fy + g @ d + lk / 2 * (d @ d) + 1e-12 * abs(fy) or d @ d == 0:
                break
            lk *= 2
        it += 1
        best_l = min(best_l, fxn)
        restart = fxn > fx or (y - xn) @ (xn - x) > 0
        if restart:
            theta = 1.0
            y = xn.copy()
        else:
            tn = (1 + np.sqrt(1 + 4 * theta * theta)) / 2
            y = xn + (theta - 1) / tn * (xn - x)
            theta = tn
        x, fx = xn, fxn
        fy, g, p = f.full(y)
        best_l = min(best_l, fy)
        best_p = min(best_p, p)
        rel = max(0.0, best_l + best_p) / max(1.0, abs(best_p))
        el = time.perf_counter() - start
        if rel <= tol or el > max_seconds:
            return it, el, rel, rel <= tol, best_l, best_p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("problem")
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--max-seconds", type=float, default=600)
    args = ap.parse_args()
    with open(args.problem) as fh:
        pr = json.load(fh)
    x = np.asarray(pr["X"], dtype=float)
    f = Dual(x, pr["triplets"], pr["eta"], pr["lambda"])
    it, el, rel, ok, l, p = fista(f, len(pr["triplets"]), args.tol, args.max_seconds)
    status = "converged" if ok else "cut at %g s" % args.max_seconds
    print("numpy fista+restarts: %d iterations, %.2f s, relative gap %.3g (%s); P = %.10g, L = %.10g"
          % (it, el, rel, status, p, l))


if __name__ == "__main__":
    main()
