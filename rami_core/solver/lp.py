"""A linear-programming path for :func:`rami_core.solver.whole_table`, exact by certificate.

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

HiGHS (its own binding, ``highspy``) solves the relaxation and, when that is fractional, the integer
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
from functools import lru_cache
from itertools import combinations, product

# highspy and scipy.sparse take about half a second to import: this module is
# imported by the first solve that asks the LP (solve._lp_path), not with the solver.
import highspy
import numpy as np
from scipy.sparse import csc_matrix

from rami_core.cards.melds import MeldRules

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
    for s in range(4):
        mask = 0
        for p in range(lo, hi + 1):
            if a.get((1 if p == 14 else p, s), 0) > 0:
                mask |= 1 << p
        # a suit's runs depend only on which of its places hold a card: the
        # same few patterns recur across solves (a full suit most often)
        for key, layout in _suit_runs(mask, s, jm, L, N, lo, hi):
            if key not in out:
                out[key] = layout
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


@lru_cache(maxsize=2048)
def _suit_runs(mask: int, s: int, jm: int, L: int, N: int, lo: int, hi: int) -> tuple:
    """The run columns of suit ``s`` whose places holding a card are the bits
    of ``mask``: ((natural faces, jokers), layout), the first way of writing
    each kept, in the order :func:`columns` lists them. The layouts are
    shared by every program that asks (read only)."""
    out: dict = {}
    for p0 in range(lo, hi - L + 2):
        for n in range(L, min(13, hi - p0 + 1) + 1):
            window = (mask >> p0) & ((1 << n) - 1)
            ace_last = p0 + n - 1 == 14  # place 14 is the ace: its rank sorts first
            for offs, nj, items in _window_runs(window, n, jm, L, N):
                if ace_last and offs and offs[-1] == n - 1:
                    ranks = (1, *[p0 + o for o in offs[:-1]])
                else:
                    ranks = tuple([p0 + o for o in offs])
                key = (ranks, nj)
                if key not in out:
                    out[key] = (p0, items)
    return tuple(
        ((tuple([(r, s) for r in k[0]]), k[1]), ("run", s, p0, list(items))) for k, (p0, items) in out.items()
    )


@lru_cache(maxsize=8192)
def _window_runs(window: int, n: int, jm: int, L: int, N: int) -> tuple:
    """The runs of one window of ``n`` places (bit i of ``window``: place i
    holds a card) with at most ``jm`` jokers, leaving out those that split
    into two valid runs: (offsets of the naturals, jokers, items 'N'/'J'), in
    the order of the joker counts, then of the naturals a joker stands in for."""
    missing = [i for i in range(n) if not window >> i & 1]
    if len(missing) > jm:
        return ()
    present = [i for i in range(n) if window >> i & 1]
    out = []
    for extra in range(jm - len(missing) + 1):
        for drop in combinations(present, extra):
            jset = set(missing) | set(drop)
            nat = n - len(jset)
            if nat < N:
                continue
            if n >= 2 * L:
                pre = 0
                split = False
                for k in range(1, n):
                    pre += 0 if (k - 1) in jset else 1
                    if L <= k <= n - L and pre >= N and nat - pre >= N:
                        split = True
                        break
                if split:
                    continue
            offs = tuple(i for i in range(n) if i not in jset)
            out.append((offs, len(jset), tuple("J" if i in jset else "N" for i in range(n))))
    return tuple(out)


class LPResult:
    def __init__(self, layouts, value, proven, bound, duals=None):
        self.layouts = layouts  # list of layouts (with repeats)
        self.value = value  # integer weight of the arrangement (offset included)
        self.proven = proven  # the certificate closed
        self.bound = bound  # exact integer upper bound from the certificate
        # the relaxation's dual per face row (face -> float): the prices of
        # the search's coupled relaxation (sweep._Sweep.price_sets)
        self.duals = duals


class _Program:
    """The parts of the program that depend on the cards and the meld rules
    only, not on the weights: built once and shared by every LP a solve asks
    (the relaxation, the integer search, the points with the card count
    fixed), since building them in Python cost more than HiGHS's solve."""

    def __init__(self, a: Counter, J: int, rules: MeldRules):
        self.cols = cols = columns(a, J, rules)
        self.faces = faces = sorted(f for f in a if a[f] > 0)
        fidx = {f: i for i, f in enumerate(faces)}
        self.covered = {f for fs, _j, _l in cols for f in fs}
        self.joker_column = any(j for _f, j, _l in cols)
        self.J = J
        rows, colj, vals, ub = [], [], [], []
        jrow = len(faces)
        for m, (fs, j, _l) in enumerate(cols):
            if len(set(fs)) == len(fs):  # runs and sets of distinct suits: each face once
                u = min([a[f] for f in fs])
                rows += [fidx[f] for f in fs]
                colj += [m] * len(fs)
                vals += [1] * len(fs)
            else:
                cnt = Counter(fs)
                u = min(a[f] // k for f, k in cnt.items())
                for f, k in cnt.items():
                    rows.append(fidx[f])
                    colj.append(m)
                    vals.append(k)
            if j:
                u = min(u, J // j)
            ub.append(u)
            if j:
                rows.append(jrow)
                colj.append(m)
                vals.append(j)
        self.ncol = ncol = len(cols)
        self.ub = np.array(ub, dtype=np.int64)
        self.jokers = np.array([j for _f, j, _l in cols], dtype=np.int64)
        self.sizes = np.array([len(fs) + j for fs, j, _l in cols], dtype=np.int64)
        # the face rows alone, for the objective: c_m = sum_f w_f n_mf + wj j_m
        face_entries = [i for i, r in enumerate(rows) if r < jrow]
        self.face_rows = np.array([rows[i] for i in face_entries], dtype=np.int64)
        self.face_cols = np.array([colj[i] for i in face_entries], dtype=np.int64)
        self.face_vals = np.array([vals[i] for i in face_entries], dtype=np.int64)
        self._matrices: dict[bool, tuple] = {}
        base = (rows, colj, vals)

        def build(with_total: bool):
            r, c, v = list(base[0]), list(base[1]), list(base[2])
            nrow = len(faces) + (1 if J else 0) + (1 if with_total else 0)
            if with_total:
                r += [nrow - 1] * ncol
                c += list(range(ncol))
                v += [int(x) for x in self.sizes]
            A = csc_matrix(
                (np.array(v, dtype=np.int64), (np.array(r, dtype=np.int64), np.array(c, dtype=np.int64))),
                shape=(nrow, ncol),
            )
            return nrow, A, A.astype(float)

        self._build = build

    def matrices(self, with_total: bool):
        """(rows, A in integers, A in floats) with or without the card-count row."""
        got = self._matrices.get(with_total)
        if got is None:
            got = self._matrices[with_total] = self._build(with_total)
        return got


@lru_cache(maxsize=32)
def _program(a_items: tuple, J: int, rules: MeldRules) -> _Program:
    return _Program(Counter(dict(a_items)), J, rules)


# Past these sizes the certificate is summed in Python integers (never met
# with real weights: int64 holds the sums with a wide margin below them).
_Z_MAX = 1 << 36
_C_MAX = 1 << 16


# The last few relaxations without a time limit, (program and inputs,
# the relaxation's (x, z)), newest last: a solve asks the same relaxation up to three
# times (its arrangement or bound, its duals for the points search, then with
# HiGHS's integer search), with the card-count row's program in between.
_RELAXATIONS_KEPT = 4
_last_relaxation: list = []


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
    prog = _program(tuple(sorted((f, n) for f, n in a.items() if n > 0)), J, rules)
    cols, faces = prog.cols, prog.faces
    # table faces no column covers: infeasible, let the exact search say so
    if any(t[f] > 0 and f not in prog.covered for f in t) or (JT and not prog.joker_column):
        return None
    if not cols:
        return None
    _nrow, A, Af = prog.matrices(total is not None)
    ncol = prog.ncol
    wf = np.array([w.get(f, 0) for f in faces], dtype=np.int64)
    c = np.zeros(ncol, dtype=np.int64)
    np.add.at(c, prog.face_cols, wf[prog.face_rows] * prog.face_vals)
    c += wj * prog.jokers
    lo = [t.get(f, 0) for f in faces] + ([JT] if J else []) + ([total] if total is not None else [])
    hi = [a[f] for f in faces] + ([J] if J else []) + ([total] if total is not None else [])
    lo_a, hi_a = np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)
    offset = sum(w.get(f, 0) * t.get(f, 0) for f in faces) + wj * JT
    cf = c.astype(float)
    ub = prog.ub
    # a solve asks the relaxation alone first, then (its search cut again)
    # the same program with HiGHS's integer search: the relaxation, the same
    # program with the same inputs, is not solved twice
    key = (prog, c.tobytes(), lo_a.tobytes(), hi_a.tobytes()) if time_limit is None else None
    res = None
    if key is not None:
        for k, r in list(_last_relaxation):  # a copy: the server's bot threads share the list
            if k == key:
                res = r
    if res is None:
        res = _relaxation(cf, Af, lo_a, hi_a, ub, time_limit)
        if key is not None:
            _last_relaxation.append((key, res))
            del _last_relaxation[:-_RELAXATIONS_KEPT]
    if res is None:
        return None
    x, zf = res
    bound = _bound(zf, c, A, ub, lo, hi) - offset  # floor of an exact upper bound on the hand weight
    duals = dict(zip(faces, zf[: len(faces)].tolist(), strict=True))
    xi = np.round(x).astype(np.int64)
    if float(np.max(np.abs(x - xi))) > 1e-6 or not _feasible(xi, A, lo_a, hi_a):
        if not integer:
            return LPResult(None, None, False, bound, duals)
        # fractional: HiGHS's integer search, briefly, for an arrangement
        x2 = _integer_search(cf, Af, lo_a, hi_a, ub, time_limit)
        if x2 is None:
            return LPResult(None, None, False, bound, duals)
        xi = np.round(x2).astype(np.int64)
        if not _feasible(xi, A, lo_a, hi_a):
            return LPResult(None, None, False, bound, duals)
    value = int(c @ xi) - offset
    layouts = []
    for m in np.flatnonzero(xi):
        layouts += [cols[m][2]] * int(xi[m])
    return LPResult(layouts, value, value >= bound, bound, duals)


class _QuietHighs(highspy.Highs):
    """A HiGHS solver whose output is off before its first call.

    ``highspy.Highs()`` installs its Python callbacks in its constructor, a
    HiGHS call made while ``output_flag`` is still on: HiGHS then writes its
    banner to the process's standard output (ERGO-Code/HiGHS#2749), which
    would land in the middle of ``rami solve``'s answer. The LP uses none of
    the callbacks (only passModel, run and the solution), so the binding's
    solver is built without them."""

    def __init__(self) -> None:
        super(highspy.Highs, self).__init__()  # the binding's solver, past highspy.Highs.__init__
        self.setOptionValue("output_flag", False)


def _run(cf, Af, lo_a, hi_a, ub, integer: bool, options: dict) -> _QuietHighs:
    """HiGHS run on: minimise -c.x subject to lo <= A x <= hi, 0 <= x <= ub
    (every column integer if ``integer``), with rows two-sided as HiGHS takes
    them and the matrix passed column-wise as it is held."""
    nrow, ncol = Af.shape
    lp = highspy.HighsLp()
    lp.num_col_ = ncol
    lp.num_row_ = nrow
    lp.a_matrix_.num_col_ = ncol
    lp.a_matrix_.num_row_ = nrow
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.col_cost_ = -cf
    lp.col_lower_ = np.zeros(ncol)
    lp.col_upper_ = ub.astype(float)
    lp.row_lower_ = lo_a.astype(float)
    lp.row_upper_ = hi_a.astype(float)
    lp.a_matrix_.start_ = Af.indptr
    lp.a_matrix_.index_ = Af.indices
    lp.a_matrix_.value_ = Af.data
    if integer:
        lp.integrality_ = [highspy.HighsVarType.kInteger] * ncol
    h = _QuietHighs()
    for name, value in options.items():
        h.setOptionValue(name, value)
    h.passModel(lp)
    h.run()
    return h


def _relaxation(cf, Af, lo_a, hi_a, ub, time_limit: float | None):
    """The relaxation's optimum and its duals, (x, z) with z the price of
    each row for the maximisation, or None where HiGHS finds no optimum.
    The duals only propose: the bound is summed exactly from them
    (:func:`_bound`)."""
    options = {} if time_limit is None else {"time_limit": max(0.01, time_limit)}
    h = _run(cf, Af, lo_a, hi_a, ub, False, options)
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    sol = h.getSolution()
    # HiGHS minimises -c: its row duals are the maximisation's prices negated
    return np.array(sol.col_value), -np.array(sol.row_dual)


_STOPPED = (
    highspy.HighsModelStatus.kTimeLimit,
    highspy.HighsModelStatus.kIterationLimit,
    highspy.HighsModelStatus.kSolutionLimit,
)


def _integer_search(cf, Af, lo_a, hi_a, ub, time_limit: float | None):
    """HiGHS's integer search, briefly: an arrangement (x as floats), the
    optimum or the best found when the node budget or the clock stopped it,
    or None where it found none."""
    options = {
        "mip_rel_gap": 0.0,
        "mip_max_nodes": MILP_NODES,
        # HiGHS's presolve of these programs (many run columns that share
        # rows) cost 3-5 times the search itself on the hard tables; without
        # it the same arrangements come back sooner
        "presolve": "off",
        **({} if time_limit is None else {"time_limit": max(0.005, time_limit)}),
    }
    h = _run(cf, Af, lo_a, hi_a, ub, True, options)
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal and not (
        status in _STOPPED and h.getInfo().objective_function_value != highspy.kHighsInf
    ):
        return None
    return np.array(h.getSolution().col_value)


def _bound(zf, c, A, ub, lo: list[int], hi: list[int]) -> int:
    """The floor of sum_m max(0, c_m - z.A_m) u_m + sum_f (z_f hi_f if z_f > 0 else z_f lo_f),
    scaled by SCALE, for the duals rounded to dyadic rationals: an exact
    upper bound on c.x over the integer and the fractional arrangements."""
    z = np.round(zf * SCALE).astype(np.int64)
    if int(np.max(np.abs(z), initial=0)) < _Z_MAX and int(np.max(np.abs(c), initial=0)) < _C_MAX:
        side = np.where(z > 0, np.array(hi, dtype=np.int64), np.array(lo, dtype=np.int64))
        bound_s = int(z @ side)
        rc = c * SCALE - A.T @ z
        pos = rc > 0
        bound_s += sum((rc[pos] * ub[pos]).tolist())
        return bound_s // SCALE
    # the same sums in Python integers
    zi = [int(v) for v in z]
    bound_s = sum(zv * (hi[i] if zv > 0 else lo[i]) for i, zv in enumerate(zi))
    At = A.T.tocsr()
    for m in range(At.shape[0]):
        lo_p, hi_p = At.indptr[m], At.indptr[m + 1]
        rc = int(c[m]) * SCALE - sum(
            zi[int(r)] * int(v) for r, v in zip(At.indices[lo_p:hi_p], At.data[lo_p:hi_p], strict=True)
        )
        if rc > 0:
            bound_s += rc * int(ub[m])
    return bound_s // SCALE


def _feasible(xi, A, lo, hi) -> bool:
    """Every row of the integer arrangement within its bounds."""
    if bool(np.any(xi < 0)):
        return False
    tot = A @ xi
    return bool(np.all(lo <= tot) and np.all(tot <= hi))
