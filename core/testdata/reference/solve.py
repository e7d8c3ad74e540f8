#!/usr/bin/python3
"""Reference optima of small robust metric learning problems, from an
independent convex solver: CVXOPT's cone QP (Debian's python3-cvxopt).

It writes problem.json beside itself: the data, the triplets, and for each
(eta, lambda) the primal optimum P* and the optimal A. core's
TestReferenceOptimum compares Solve with it. Rerun (not needed for the
tests) with:  apt-get install python3-cvxopt && /usr/bin/python3 solve.py

The primal  P(A) = lambda/2 ||A||_F^2 + max_{q in Q(eta)} sum_i q_i (1 - tr(A K_i))_+
over A >= 0 is solved in the form the LP dual of the inner maximum gives:

  minimise    lambda/2 ||A||_F^2 + m tau + sum_i s_i
  subject to  s_i + tau + tr(A K_i) >= 1,  s_i >= 0,  tau >= 0,  A PSD,

with m = N eta and K_i = u u' - v v', u = x_I - x_K, v = x_I - x_J. No code
of the project is used: the data are drawn here, by a fixed linear
congruential generator, so that the file can be rebuilt bit for bit.
"""
import json
import os

import cvxopt
from cvxopt import matrix, solvers, spmatrix

N_ROWS, D = 9, 3


def lcg(seed):
    state = seed
    while True:
        state = (6364136223846793005 * state + 1442695040888963407) % 2**64
        yield (state >> 11) / 2**53


def problem():
    r = lcg(20101)
    x = [[round(4 * next(r) - 2, 6) for _ in range(D)] for _ in range(N_ROWS)]
    # Two groups by the first feature; triplets from them, three of them
    # reversed so that the budget has something to discard.
    group = [0 if row[0] < 0 else 1 for row in x]
    trip = []
    for i in range(N_ROWS):
        same = [j for j in range(N_ROWS) if j != i and group[j] == group[i]]
        diff = [j for j in range(N_ROWS) if group[j] != group[i]]
        if same and diff:
            trip.append([i, same[int(next(r) * len(same))], diff[int(next(r) * len(diff))]])
            trip.append([i, same[int(next(r) * len(same))], diff[int(next(r) * len(diff))]])
    for k in (1, 6, 11):
        t = trip[k]
        trip[k] = [t[0], t[2], t[1]]
    return x, trip


def kmat(x, t):
    i, j, k = t
    u = [x[i][c] - x[k][c] for c in range(D)]
    v = [x[i][c] - x[j][c] for c in range(D)]
    return [[u[a] * u[b] - v[a] * v[b] for b in range(D)] for a in range(D)]


def solve(x, trip, eta, lam):
    n = len(trip)
    m = n * eta
    nv = D * D + 1 + n  # vec(A) column-major, tau, s
    P = spmatrix([lam] * (D * D), range(D * D), range(D * D), (nv, nv))
    q = matrix([0.0] * (D * D) + [m] + [1.0] * n)
    rows, cols, vals = [], [], []
    h = []
    r = 0
    for i, t in enumerate(trip):  # -(tr(A K_i) + tau + s_i) <= -1
        K = kmat(x, t)
        for a in range(D):
            for b in range(D):
                rows.append(r); cols.append(b * D + a); vals.append(-K[a][b])
        rows.append(r); cols.append(D * D); vals.append(-1.0)
        rows.append(r); cols.append(D * D + 1 + i); vals.append(-1.0)
        h.append(-1.0); r += 1
    for i in range(n):  # -s_i <= 0
        rows.append(r); cols.append(D * D + 1 + i); vals.append(-1.0); h.append(0.0); r += 1
    rows.append(r); cols.append(D * D); vals.append(-1.0); h.append(0.0); r += 1  # -tau <= 0
    nl = r
    for k in range(D * D):  # h - G x = vec(A) in the PSD cone
        rows.append(nl + k); cols.append(k); vals.append(-1.0); h.append(0.0)
    G = spmatrix(vals, rows, cols, (nl + D * D, nv))
    h = matrix(h)
    # A symmetric.
    er, ec, ev = [], [], []
    e = 0
    for a in range(D):
        for b in range(a + 1, D):
            er += [e, e]; ec += [b * D + a, a * D + b]; ev += [1.0, -1.0]; e += 1
    Aeq = spmatrix(ev, er, ec, (e, nv))
    beq = matrix([0.0] * e)
    solvers.options.update({"show_progress": False, "abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10, "maxiters": 200})
    sol = solvers.coneqp(P, q, G, h, {"l": nl, "q": [], "s": [D]}, Aeq, beq)
    xs = sol["x"]
    A = [[xs[b * D + a] for b in range(D)] for a in range(D)]
    # P(A) evaluated directly at the solver's A (not its objective value).
    hinge = sorted((max(0.0, 1 - sum(A[a][b] * kmat(x, t)[b][a] for a in range(D) for b in range(D))) for t in trip), reverse=True)
    fm = int(m)
    top = sum(hinge[:fm]) + ((m - fm) * hinge[fm] if fm < n else 0.0)
    primal = lam / 2 * sum(A[a][b] ** 2 for a in range(D) for b in range(D)) + top
    return {"eta": eta, "lambda": lam, "status": sol["status"], "primal": primal,
            "objective": sol["primal objective"], "A": A}


def lmnn(x, trip, lam):
    """LMNN in the paper's triplet form: minimise sum_i (1 - tr(A K_i))_+ +
    lambda/2 tr(W A), W = (1/N) sum_i v_i v_i', over A PSD; as a cone LP
    (CVXOPT conelp): minimise lambda/2 <W, A> + sum_i s_i subject to
    s_i + tr(A K_i) >= 1, s_i >= 0, A PSD."""
    n = len(trip)
    W = [[0.0] * D for _ in range(D)]
    for i, j, k in trip:
        v = [x[i][c] - x[j][c] for c in range(D)]
        for a in range(D):
            for b in range(D):
                W[a][b] += v[a] * v[b] / n
    nv = D * D + n
    c = matrix([lam / 2 * W[a][b] for b in range(D) for a in range(D)] + [1.0] * n)
    rows, cols, vals, h = [], [], [], []
    r = 0
    for i, t in enumerate(trip):
        K = kmat(x, t)
        for a in range(D):
            for b in range(D):
                rows.append(r); cols.append(b * D + a); vals.append(-K[a][b])
        rows.append(r); cols.append(D * D + i); vals.append(-1.0)
        h.append(-1.0); r += 1
    for i in range(n):
        rows.append(r); cols.append(D * D + i); vals.append(-1.0); h.append(0.0); r += 1
    nl = r
    for k in range(D * D):
        rows.append(nl + k); cols.append(k); vals.append(-1.0); h.append(0.0)
    G = spmatrix(vals, rows, cols, (nl + D * D, nv))
    er, ec, ev = [], [], []
    e = 0
    for a in range(D):
        for b in range(a + 1, D):
            er += [e, e]; ec += [b * D + a, a * D + b]; ev += [1.0, -1.0]; e += 1
    sol = solvers.conelp(c, G, matrix(h), {"l": nl, "q": [], "s": [D]}, spmatrix(ev, er, ec, (e, nv)), matrix([0.0] * e))
    xs = sol["x"]
    A = [[xs[b * D + a] for b in range(D)] for a in range(D)]
    hinge = sum(max(0.0, 1 - sum(A[a][b] * kmat(x, t)[b][a] for a in range(D) for b in range(D))) for t in trip)
    f = hinge + lam / 2 * sum(W[a][b] * A[a][b] for a in range(D) for b in range(D))
    return {"lambda": lam, "status": sol["status"], "objective": f, "A": A}


def main():
    x, trip = problem()
    cases = [solve(x, trip, eta, lam) for eta in (1.0, 0.35, 0.25) for lam in (0.25, 4.0)]
    out = {"source": "core/testdata/reference/solve.py: CVXOPT %s coneqp on the primal, conelp for LMNN (see its docstrings)" % cvxopt.__version__,
           "X": x, "triplets": trip, "cases": cases, "lmnn": [lmnn(x, trip, lam) for lam in (0.25, 4.0)]}
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "problem.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
