"""A linear-programming path for :func:`rami_core.solver.solve`, exact by certificate.

The table and the hand are a multiset of faces; an arrangement is a multiset
of melds. Every meld the cards could form is a column (its natural faces and
its joker count, with one way of writing it); a column's weight is what its
hand cards would add. The integer program

    maximise  sum_m c_m x_m
    subject   t_f <= sum_m n_mf x_m <= a_f     for every face f
              JT  <= sum_m j_m x_m  <= J       (jokers)
              x_m integer, 0 <= x_m <= u_m

is the arrangement problem: ``t_f`` table cards of face f must go down, at
most ``a_f`` (table and hand) can; the objective counts the hand cards laid
(table copies go down first). Long runs that split into two valid runs are
left out (a split keeps the same cards), so the column set stays small.

HiGHS (scipy) solves the relaxation and, when that is fractional, the integer
program; neither answer is trusted as is:

* the arrangement is rebuilt into melds and re-checked by the caller
  (``check_solution``), and its weight recomputed in integers;
* its optimality needs a certificate computed here in exact integer
  arithmetic: for ANY row multipliers z, weak duality gives

      c.x = sum_m (c_m - z.A_m) x_m + z.(A x)
          <= sum_m max(0, c_m - z.A_m) u_m + sum_f (z_f a_f if z_f > 0 else z_f t_f)

  for every feasible x. The LP duals, rounded to dyadic rationals, give a z;
  the bound is evaluated exactly, and if its floor equals the arrangement's
  weight the arrangement is a proven optimum (the weights are integers).

When the certificate does not close (a gap between the relaxation and the
integers), :func:`lp_solve` says so and the caller runs the exact search with
the arrangement's weight as the value to beat. Floating point only ever
proposes; integers decide.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from ..melds import MeldRules

SCALE = 1 << 24  # dyadic rounding of the duals
MILP_NODES = 200  # branch-and-bound nodes for HiGHS's integer search when the relaxation is
# fractional: a count, not seconds, so that the arrangement proposed (and so the
# optimum returned among equals) does not depend on the machine's load


def columns(a: Counter, J: int, rules: MeldRules):
    """Every meld buildable from the faces ``a`` and ``J`` jokers, up to splits:
    a list of (natural faces tuple, jokers, layout) with layout
    ("run", suit, start place, items 'N'/'J') or ("set", rank, suits, jokers)."""
    L = max(1, rules.run_min)
    N = max(1, rules.min_naturals)
    K = rules.max_jokers
    jm = J if K is None else min(J, K)
    lo = 1 if rules.ace_low else 2
    hi = 14 if rules.ace_high else 13
    out: dict = {}

    def face(p: int, s: int):
        return (1 if p == 14 else p, s)

    for s in range(4):
        for p0 in range(lo, hi - L + 2):
            for n in range(L, min(13, hi - p0 + 1) + 1):
                places = range(p0, p0 + n)
                have = [a.get(face(p, s), 0) > 0 for p in places]
                missing = [i for i in range(n) if not have[i]]
                if len(missing) > jm:
                    continue
                present = [i for i in range(n) if have[i]]
                for extra in range(jm - len(missing) + 1):
                    for drop in combinations(present, extra):
                        jset = set(missing) | set(drop)
                        nat = n - len(jset)
                        if nat < N:
                            continue
                        # leave out runs that split into two valid runs
                        split = False
                        if n >= 2 * L:
                            pre = 0
                            for k in range(1, n):
                                pre += 0 if (k - 1) in jset else 1
                                if L <= k <= n - L and pre >= N and nat - pre >= N:
                                    split = True
                                    break
                        if split:
                            continue
                        faces = tuple(sorted(face(p0 + i, s) for i in range(n) if i not in jset))
                        key = (faces, len(jset))
                        if key not in out:
                            items = ["J" if i in jset else "N" for i in range(n)]
                            out[key] = ("run", s, p0, items)
    size_max = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
    for r in range(1, 14):
        counts = [a.get((r, s), 0) for s in range(4)]
        if not any(counts):
            continue
        if rules.set_distinct_suits:
            vecs = product(*[range(min(1, c) + 1) for c in counts])
        else:
            vecs = product(*[range(min(c, size_max) + 1) for c in counts])
        for vec in vecs:
            nat = sum(vec)
            if nat < N or nat > size_max:
                continue
            suits = [s for s in range(4) for _ in range(vec[s])]
            jcap = min(jm, size_max - nat)
            if rules.set_distinct_suits:
                jcap = min(jcap, 4 - nat)
            for j in range(jcap + 1):
                if not rules.set_min <= nat + j <= size_max:
                    continue
                faces = tuple(sorted((r, s) for s in suits))
                key = (faces, j)
                if key not in out:
                    out[key] = ("set", r, suits, j)
    return [(k[0], k[1], v) for k, v in out.items()]


class LPResult:
    def __init__(self, layouts, value, proven, bound):
        self.layouts = layouts  # list of layouts (with repeats)
        self.value = value  # integer weight of the arrangement (offset included)
        self.proven = proven  # the certificate closed
        self.bound = bound  # exact integer upper bound from the certificate


def lp_solve(
    t: Counter,
    a: Counter,
    JT: int,
    J: int,
    w: dict,
    wj: int,
    rules: MeldRules,
    time_limit: float | None = None,
    total: int | None = None,
    integer: bool = True,
):
    """The arrangement by HiGHS and its certificate, or None if HiGHS finds none
    (then the caller searches exactly). ``w``: weight of a hand card per face,
    ``wj`` of a hand joker. The value counts hand cards laid only. ``total``
    fixes the number of cards down (table and hand): one more row, so that a
    known card count leaves only the points to certify. ``integer`` False
    stops at the relaxation: its arrangement if it is integral, else only
    its exact bound (HiGHS's integer search is the costly part)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import csc_matrix, vstack

    cols = columns(a, J, rules)
    faces = sorted(f for f in a if a[f] > 0)
    fidx = {f: i for i, f in enumerate(faces)}
    nrow = len(faces) + (1 if J else 0) + (1 if total is not None else 0)
    # table faces no column covers: infeasible, let the exact search say so
    covered = set()
    for fs, _j, _l in cols:
        covered.update(fs)
    if any(t[f] > 0 and f not in covered for f in t) or (JT and not any(j for _f, j, _l in cols)):
        return None
    if not cols:
        return None
    rows, colj, vals = [], [], []
    c = []
    ub = []
    for m, (fs, j, _l) in enumerate(cols):
        cnt = Counter(fs)
        u = min(a[f] // k for f, k in cnt.items())
        if j:
            u = min(u, J // j)
        ub.append(u)
        for f, k in cnt.items():
            rows.append(fidx[f])
            colj.append(m)
            vals.append(k)
        if j:
            rows.append(len(faces))
            colj.append(m)
            vals.append(j)
        if total is not None:
            rows.append(nrow - 1)
            colj.append(m)
            vals.append(len(fs) + j)
        c.append(sum(w.get(f, 0) * k for f, k in cnt.items()) + wj * j)
    ncol = len(cols)
    A = csc_matrix((np.array(vals, float), (np.array(rows), np.array(colj))), shape=(nrow, ncol))
    lo = [t.get(f, 0) for f in faces] + ([JT] if J else []) + ([total] if total is not None else [])
    hi = [a[f] for f in faces] + ([J] if J else []) + ([total] if total is not None else [])
    offset = sum(w.get(f, 0) * t.get(f, 0) for f in faces) + wj * JT
    cf = np.array(c, float)
    # the relaxation, as two one-sided blocks for linprog: A x <= hi, -A x <= -lo
    res = linprog(
        -cf,
        A_ub=vstack([A, -A]).tocsc(),
        b_ub=np.array(hi + [-x for x in lo], float),
        bounds=list(zip([0] * ncol, ub, strict=False)),
        method="highs",
        options=None if time_limit is None else {"time_limit": max(0.01, time_limit)},
    )
    if res.status != 0:
        return None
    # certificate from the duals: z = -(marginals of the upper block) + (marginals of the lower block)
    marg = res.ineqlin.marginals
    zf = -marg[:nrow] + marg[nrow:]
    z = [round(x * SCALE) for x in zf]
    bound_s = 0
    for i in range(nrow):
        bound_s += z[i] * (hi[i] if z[i] > 0 else lo[i])
    colrows: list[list[tuple[int, int]]] = [[] for _ in range(ncol)]
    for r_, m, v in zip(rows, colj, vals, strict=False):
        colrows[m].append((r_, v))
    for m in range(ncol):
        rc = c[m] * SCALE - sum(z[r_] * v for r_, v in colrows[m])
        if rc > 0:
            bound_s += rc * ub[m]
    bound = bound_s // SCALE - offset  # floor of an exact upper bound on the hand weight
    x = res.x
    xi = [round(v) for v in x]
    if max(abs(v - xv) for v, xv in zip(x, xi, strict=False)) > 1e-6 or not _feasible(xi, colrows, lo, hi):
        if not integer:
            return LPResult(None, None, False, bound)
        # fractional: HiGHS's integer search, briefly, for an arrangement
        from scipy.optimize import Bounds, LinearConstraint, milp

        r2 = milp(
            -cf,
            constraints=LinearConstraint(A, np.array(lo, float), np.array(hi, float)),
            integrality=np.ones(ncol),
            bounds=Bounds(np.zeros(ncol), np.array(ub, float)),
            options={
                "mip_rel_gap": 0.0,
                "node_limit": MILP_NODES,
                **({} if time_limit is None else {"time_limit": max(0.005, time_limit)}),
            },
        )
        if r2.x is None:
            return LPResult(None, None, False, bound)
        xi = [round(v) for v in r2.x]
        if not _feasible(xi, colrows, lo, hi):
            return LPResult(None, None, False, bound)
    value = sum(cm * k for cm, k in zip(c, xi, strict=False)) - offset
    layouts = []
    for m, k in enumerate(xi):
        layouts += [cols[m][2]] * k
    return LPResult(layouts, value, value >= bound, bound)


def _feasible(xi, colrows, lo, hi) -> bool:
    if any(v < 0 for v in xi):
        return False
    tot = [0] * len(lo)
    for m, k in enumerate(xi):
        if k:
            for r_, v in colrows[m]:
                tot[r_] += v * k
    return all(lo[i] <= tot[i] <= hi[i] for i in range(len(lo)))
