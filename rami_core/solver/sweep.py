"""The dynamic program over card places (the "sweep") behind :func:`solve`.

See the package docstring for the method.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import accumulate, chain, product
from typing import Any, cast

from rami_core.cards import JOKER_SUIT, Card
from rami_core.cards.melds import MeldRules
from rami_core.solver.results import NEG, SolverTimeout
from rami_core.solver.sets import _set_cap, _set_groups, _set_joker_options, _sets_completable
from rami_core.words.errors import InternalError

PURE_ENV = "RAMI_SOLVER_PURE"
# every compiled hot path off (the sweep's search, best_opening's), not the solver's alone
PURE_ALL_ENV = "RAMI_PURE"


def pure_asked(*names: str) -> bool:
    """Some of these environment variables (and always ``RAMI_PURE``) ask for
    the Python twin of a compiled search: set, and neither empty nor ``0``."""
    return any(os.environ.get(name, "") not in ("", "0") for name in (PURE_ALL_ENV, *names))


# The priced relaxation's unit: prices (hand weights minus the LP's duals)
# are integers in 1/PRICE_SCALE of a weight.
PRICE_SCALE = 1 << 12


@cache
def compiled_sweep() -> Any:
    """The C module of the search (``_sweepc``), or None: not built on this
    machine (no compiler at install time), or ``RAMI_SOLVER_PURE=1`` in the
    environment, which runs the Python search everywhere (CI runs the test
    suite's solver tests both ways), or ``RAMI_PURE=1``, which turns off
    every compiled hot path (this one and best_opening's,
    :func:`rami_core.solver.best_opening.compiled_opening`). Read once per
    process."""
    if pure_asked(PURE_ENV):
        return None
    try:
        from rami_core.solver import _sweepc  # type: ignore[attr-defined]
    except ImportError:
        return None
    if not hasattr(_sweepc.Sweep, "set_prices"):
        # a build of an older _sweepc.c (a worktree merged without `pip
        # install -e .` again): it cannot price the sets, so the Python
        # search runs, slower but with the same answers
        return None
    return _sweepc


@cache
def _row_caps(row: tuple[int, ...], jokers: int, rules: MeldRules) -> tuple[int, ...]:
    """Per suit, the most cards of a rank's face that its sets could hold (the
    other suits' ``row`` counts and every joker free): :func:`_set_cap`."""
    return tuple(
        _set_cap(row[s], tuple(sorted(row[x] for x in range(4) if x != s)), jokers, rules) for s in range(4)
    )


# rules -> ((rows, jokers) -> caps table, (row, jokers) -> row caps): the
# rules hashed (and compared) once per model, not once per place; bounded
_CAPS: dict[MeldRules, tuple[dict, dict]] = {}


def _caps_table(
    rows: tuple[tuple[int, ...], ...], jokers: int, rules: MeldRules
) -> tuple[tuple[int, ...], ...]:
    """:func:`_row_caps` for every place of a model."""
    memo = _CAPS.get(rules)
    if memo is None:
        if len(_CAPS) >= 16:
            _CAPS.clear()
        memo = _CAPS[rules] = ({}, {})
    tables, by_row = memo
    key = (rows, jokers)
    hit = tables.get(key)
    if hit is None:
        if len(tables) >= 1 << 14:
            tables.clear()
        if len(by_row) >= 1 << 14:
            by_row.clear()
        out = []
        for row in rows:
            caps = by_row.get((row, jokers))
            if caps is None:
                caps = by_row[(row, jokers)] = _row_caps(row, jokers, rules)
            out.append(caps)
        hit = tables[key] = tuple(out)
    return hit


@cache
def _set_masks(B: int, J: int, rules: MeldRules) -> tuple[int, ...]:
    """Per count vector (four digits in base B, largest first where it
    matters): bit j set when the counts close into sets with j jokers."""
    out = []
    for vec in product(range(B), repeat=4):
        msum = tuple(sorted((v for v in vec if v), reverse=True))
        out.append(sum(1 << j for j in _set_joker_options(msum, J, rules)))
    return tuple(out)


@cache
def _suit_options_base(R: tuple, tmin: int, a: int, jl: int, room: int, L: int, N: int, K: int | None):
    """Options for one suit at one place, weights aside (a pure function of the
    run summaries and the counts, shared by every solve): a tuple of
    (new R, m to sets, naturals used, jokers used, detail), most naturals first.

    R: sorted run summaries in progress; tmin: fewest naturals of the face to
    use here, a: most; jl: jokers left; room: places from here to the last one;
    L, N, K: run_min, min_naturals, max_jokers (None: not tracked).

    Fourteen places from here can only be place 1 with the ace at both ends:
    a run started there is marked (ld 2) and never reaches place 14, where
    one place is left (A..K..A would be fourteen cards)."""
    first = room == 14
    groups = sorted(Counter(R).items())
    # per distinct code: list of (ends, cont_nat, cont_jok, resulting codes, nat, jok)
    per_code = []
    for code, k in groups:
        ln, nt, jk, ld = code
        comp = ln >= L and nt >= N
        nat_code = (min(ln + 1, L), min(nt + 1, N), jk, ld)
        jok_ok = K is None or jk + 1 <= K
        jok_code = (min(ln + 1, L), nt, jk + 1 if K is not None else 0, ld)
        # a continued run must still be able to reach run_min by the last place
        nat_viable = nat_code[0] + room - 1 >= L
        jok_viable = jok_ok and jok_code[0] + room - 1 >= L
        if ld == 2 and room == 1:  # begun at the low ace: it cannot take the high one
            nat_viable = jok_viable = False
        opts = []
        for e in range(k + 1):
            if e and (not comp or ld == 1):
                break
            for cn in range(k - e + 1):
                cj = k - e - cn
                if cn and not nat_viable:
                    continue
                if cj and not jok_viable:
                    continue
                opts.append((e, cn, cj))
        if not opts:
            return []
        per_code.append((code, nat_code, jok_code, opts))

    out = []

    def rec(i: int, runs: list, nat: int, jok: int, detail: list):
        if nat > a or jok > jl:
            return
        if i < len(per_code):
            code, nat_code, jok_code, opts = per_code[i]
            for e, cn, cj in opts:
                rec(
                    i + 1,
                    runs + [nat_code] * cn + [jok_code] * cj,
                    nat + cn,
                    jok + cj,
                    [*detail, (code, e, cn, cj)],
                )
            return
        # new runs: started by a natural, or by a joker (then it must reach the last place)
        max_new_nat = a - nat if room >= L else 0
        # (a joker-led run from place 1 would have to reach place 14: never under `first`)
        max_new_jok = (jl - jok) if (room >= L and (K is None or K >= 1) and not first) else 0
        new_code = (1, min(1, N), 0, 2 if first else 0)
        for nn in range(max_new_nat + 1):
            for nj in range(max_new_jok + 1):
                runs2 = runs + [new_code] * nn + [(1, 0, 1 if K is not None else 0, 1)] * nj
                newR = tuple(sorted(runs2))
                used_runs = nat + nn
                lo_m = max(0, tmin - used_runs)
                hi_m = a - used_runs
                for mm in range(lo_m, hi_m + 1):
                    u = used_runs + mm
                    out.append((newR, mm, u, jok + nj, (tuple(detail), nn, nj)))

    rec(0, [], 0, 0, [])
    out.sort(key=lambda o: -o[2])
    return tuple(out)


# --------------------------------------------------------------------------- the sweep


class _Model:
    """Everything fixed for one solve: places, face counts, rule constants.

    ``base``: a model of the same table, hand and rules under another weight
    (the two-phase search's card count and its points): the faces, counts
    and the tables derived from them (:meth:`shape`) are shared, only the
    weights are read again."""

    def __init__(
        self,
        table: Sequence[Card],
        hand: Sequence[Card],
        rules: MeldRules,
        weight: Callable[[Card], int],
        base: _Model | None = None,
    ):
        if base is not None:
            base.shape()  # computed before the copy, to be shared
            self.__dict__.update(base.__dict__)
        else:
            self.rules = rules
            self.L = max(1, rules.run_min)
            self.N = max(1, rules.min_naturals)
            self.K = rules.max_jokers  # None: jokers per run not tracked
            if rules.ace_low:
                self.lo = 1
            else:
                self.lo = 2
            self.hi = 14 if rules.ace_high else 13
            self.both = rules.ace_low and rules.ace_high
            # a card's first two fields are its face (its suit the second): read
            # as a tuple, not through the properties, since a model is built for
            # every bot rebuild, where the Python around the search costs most.
            # The faces of the table then the hand counted in one pass: the
            # same counts, in the same order, as the table's plus the hand's
            tfaces = [c[:2] for c in table if c[1] != JOKER_SUIT]
            self.t = Counter(tfaces)
            self.a = Counter(tfaces + [c[:2] for c in hand if c[1] != JOKER_SUIT])
            self.JT = len(table) - len(tfaces)
            self.jok = [c for c in hand if c[1] == JOKER_SUIT]
            self.JH = len(self.jok)
            self.J = self.JT + self.JH
            self.places = list(range(self.lo, self.hi + 1))
            self.copies = max([2, *list(self.a.values())])
            self._shape: tuple | None = None
        # weights of a laid hand card, per face
        w: dict[tuple[int, int], int] = {}
        for c in hand:
            if c[1] != JOKER_SUIT:
                f = c[:2]
                if f not in w:
                    w[f] = weight(c)
        self.w = w
        self.wj = weight(self.jok[0]) if self.jok else 0

    def shape(self) -> tuple:
        """The weight-free tables every sweep of this model (and of the models
        built on it) starts from, computed once: (the (place index, suit,
        table count, count, face) of every face present, per place the set
        caps of its four suits (:func:`_caps_table`), the table counts and
        the counts place by place and suit by suit, flat, and the caps
        flat)."""
        if self._shape is None:
            lo, hi = self.places[0], self.places[-1]
            n = len(self.places)
            t_of = self.t.get
            entries = []
            tflat = [0] * (4 * n)
            aflat = [0] * (4 * n)
            for f, a in self.a.items():
                r, s = f
                t = t_of(f, 0)
                for p in (r, 14) if r == 1 else (r,):
                    if lo <= p <= hi:
                        entries.append((p - lo, s, t, a, f))
                        k = 4 * (p - lo) + s
                        tflat[k] = t
                        aflat[k] = a
            rows = tuple(zip(aflat[0::4], aflat[1::4], aflat[2::4], aflat[3::4]))
            caps = _caps_table(rows, self.J, self.rules)
            self._shape = (entries, caps, tflat, aflat, list(chain.from_iterable(caps)))
        return self._shape

    def rank(self, place: int) -> int:
        return 1 if place == 14 else place


def _complete(code: tuple[int, int, int, int], L: int, N: int) -> bool:
    return code[0] >= L and code[1] >= N


class _Budget(Exception):
    """The search used its state budget (the memo stays valid)."""


class _RelaxNow(Exception):
    """The search has spent ``relax_from`` states on the hand's potential
    alone: time to build the relaxation (the memo stays valid: its values
    are exact or upper bounds, whichever bound found them)."""


class _BoundSpent(Exception):
    """The relaxation's work reached the state limit: the search goes on with
    the hand's potential as its bound (weaker, still admissible)."""


class _PricesSpent(Exception):
    """The priced relaxation's work reached the state limit: the plain
    relaxation goes on alone."""


class _Sweep:
    def __init__(
        self, m: _Model, deadline: float | None, max_states: int | None = None, compiled: bool = True
    ):
        self.m = m
        # the compiled twin of best/hval/relaxed_bound (built in solve()), when asked and importable
        self.compiled = compiled and compiled_sweep() is not None
        self._c: Any = None
        self.prepared = False
        self.bound_on = True
        self.memo: dict = {}
        self.deadline = deadline
        # a deterministic limit: SolverTimeout at this many states
        self.max_states = max_states if max_states is not None else 1 << 62
        self.calls = 0
        self.hcalls = 0
        self.pcalls = 0
        self.suit_cache: dict = {}
        self.gran = 1
        self.use_h = True  # the per-suit relaxation bound; False: the plain hand potential
        # states searched on the hand's potential alone before the relaxation
        # is built: most positions settle in a few hundred states, where the
        # relaxation (every suit's program for every joker count) would cost
        # more than the whole search; 0 builds it at once
        self.relax_from = 0
        self.relax_pending = False
        self.incumbent: int | None = None  # a weight known to be reachable: only better is searched
        self.cap: int | None = None  # an upper bound known from outside
        # the LP's prices of the cards sent to sets (see price_sets), scaled
        # by PRICE_SCALE; None: the relaxation as built (sets unpriced)
        self.prices: list[list[int]] | None = None
        self.priced_once = False
        self.joint_lp: Any = None  # the combined program's relaxation, where a card search asked it
        self.set_suffix: list[list[int]] = []
        self.budget: int | None = None  # raise _Budget at this many states
        # per place: per suit (t, a, tmin, w)
        # filled from the faces present (most places and suits hold none)
        w_of = m.w.get
        zero = (0, 0, 0, 0)
        n = len(m.places)
        face: list[list[tuple[int, int, int, int]]] = [[zero] * 4 for _ in range(n)]
        wflat = [0] * (4 * n)  # the weights alone, flat (the compiled search's)
        for pi, s, t, a, f in m.shape()[0]:
            w = w_of(f, 0)
            face[pi][s] = (t, a, t, w)
            wflat[4 * pi + s] = w
        self.face = face
        self.wflat = wflat
        self.n = n
        # with the ace at both ends, aces are shared between the first and the last place
        self.first_both = m.both

    # ---- per-suit options at one place

    def suit_options(self, R: tuple, t: int, tmin: int, a: int, w: int, jl: int, room: int):
        """Options for one suit at one place.

        R: sorted run summaries in progress; t: table cards of the face (for the
        weight), tmin: fewest naturals of the face to use here, a: most; w: weight
        of a hand card; jl: jokers left; room: places from here to the last one.
        Returns a list of (new R, m to sets, naturals used, jokers used, weight, detail)."""
        key = (R, t, tmin, a, w, jl, room)
        hit = self.suit_cache.get(key)
        if hit is not None:
            return hit
        m = self.m
        base = _suit_options_base(R, tmin, a, jl, room, m.L, m.N, m.K)
        out = [(o[0], o[1], o[2], o[3], (o[2] - t) * w if o[2] > t else 0, o[4]) for o in base]
        self.suit_cache[key] = out
        return out

    # ---- the recursion: memoised depth-first search with an admissible bound

    def potential(self, pi: int, si: int, res: tuple) -> int:
        """Most weight the hand can still add from (place pi, suit si) on."""
        v = self.pot[pi][si]
        if self.m.both:
            for s in range(4):
                t14, a14 = res[s]
                if a14 > t14:
                    v += (a14 - t14) * self.ace_w[s]
        return v

    # ---- the per-suit relaxation: an admissible, state-dependent bound

    def hval(self, s: int, pi: int, R: tuple, j: int, r: tuple[int, int], priced: bool = False) -> int:
        """Best hand weight of suit s from place pi on, its runs in progress R, with
        at most j jokers in its runs, sets unconstrained but by set_cap; ``r``
        is the suit's aces kept for place 14 (table, all) where the ace is at
        both ends, so that an ace is counted once, as in the search."""
        key = (s, pi, R, j, r, priced)
        hit = self.hmemo.get(key)
        if hit is not None:
            return hit
        m = self.m
        if pi == self.n:
            L, N = m.L, m.N
            v = 0 if all(c[0] >= L and c[1] >= N for c in R) else NEG
            self.hmemo[key] = v
            return v
        p = m.places[pi]
        t, a, tmin, w = self.face[pi][s]
        at1 = m.both and p == 1
        at14 = m.both and p == 14
        if at1:
            tmin = 0  # the aces not used here stay for place 14
        elif at14:
            t, a = r
            tmin = t
        cap = self.caps[pi][s]
        price = cast(list, self.prices)[pi][s] if priced else None
        best_ = NEG
        options = self.suit_options(R, t, tmin, a, w, j, m.hi - p + 1)
        # the bound's work (its transitions, which grow with copies and jokers)
        # is held to the same limit as the search's states, counted apart;
        # past it the search goes on with the hand's potential alone
        if priced:
            # the priced relaxation's work has a count and a limit of its own:
            # past it the plain relaxation goes on alone
            self.pcalls += 1 + len(options)
            if self.pcalls >= self.max_states:
                raise _PricesSpent
        else:
            self.hcalls += 1 + len(options)
            if self.hcalls >= self.max_states:
                raise _BoundSpent
        for opt in options:
            if opt[1] > cap:
                continue
            u = opt[2]
            r2 = (max(0, t - u), a - u) if at1 else ((0, 0) if at14 else r)
            sub = self.hval(s, pi + 1, opt[0], j - opt[3], r2, priced)
            if sub == NEG:
                continue
            wt = opt[4] if price is None else opt[4] * PRICE_SCALE - price * opt[1]
            if sub + wt > best_:
                best_ = sub + wt
        self.hmemo[key] = best_
        return best_

    def relaxed_bound(self, pi: int, si: int, runs: tuple, jl: int, res: tuple) -> int:
        if self._c is not None:
            try:
                return self._compiled_call(self._c.relaxed_bound(pi, si, runs, jl, res, self._limits()))
            except OverflowError:
                self._c = None
        return self._relaxed_bound(pi, si, runs, jl, res)

    def _relaxed_bound(self, pi: int, si: int, runs: tuple, jl: int, res: tuple) -> int:
        plain = self._plain_bound(pi, si, runs, jl, res)
        if self.prices is None or plain == NEG:
            return plain
        # the two bounds, the smaller kept: neither is tighter everywhere
        # (the LP's duals price the sets for the root, not for every state)
        try:
            priced = self._priced_bound(pi, si, runs, jl, res)
        except _PricesSpent:
            self.prices = None
            return plain
        return priced if priced < plain else plain

    def _plain_bound(self, pi: int, si: int, runs: tuple, jl: int, res: tuple) -> int:
        hv = self.hval
        tail = self.m.JH * self.m.wj
        if jl == 0 or self.m.J == 0:
            v = tail
            for s in range(4):
                x = (
                    hv(s, pi + 1 if s < si else pi, runs[s], 0, res[s])
                    if pi < self.n
                    else hv(s, pi, runs[s], 0, res[s])
                )
                if x == NEG:
                    return NEG
                v += x
            return v
        best = self._share_jokers(pi, si, runs, jl, res, [0] * (jl + 1), False)
        return NEG if best is None else best + tail

    def _share_jokers(
        self, pi: int, si: int, runs: tuple, jl: int, res: tuple, acc: list, priced: bool
    ) -> int | None:
        """The jokers left shared among the four suits (a small knapsack),
        on top of ``acc`` (what the rest earns with each number of jokers:
        nothing, or the priced sets): the best total, None where a suit
        cannot be laid even with every joker. One knapsack for the plain and
        the priced relaxations, as ``share_jokers`` in _sweepc.c."""
        hv = self.hval
        for s in range(4):
            q = pi + 1 if (s < si and pi < self.n) else pi
            vals = [hv(s, q, runs[s], j, res[s], priced) for j in range(jl + 1)]
            if vals[-1] == NEG:
                return None
            new = [NEG] * (jl + 1)
            for j1 in range(jl + 1):
                if acc[j1] == NEG:
                    continue
                for j2 in range(jl + 1 - j1):
                    if vals[j2] != NEG and acc[j1] + vals[j2] > new[j1 + j2]:
                        new[j1 + j2] = acc[j1] + vals[j2]
            acc = new
        return max(acc)

    def _priced_bound(self, pi: int, si: int, runs: tuple, jl: int, res: tuple) -> int:
        """The relaxation with the sets priced (:meth:`price_sets`): every
        suit's program pays each card it sends to a set at this place its
        price, and the sets of each place earn the prices of the cards they
        take; the jokers are shared among the four suits and the sets by
        the same knapsack. Exact in integers (scaled by PRICE_SCALE), the
        floor of the scaled sum is the bound."""

        def hv(s: int, q: int, R: tuple, j: int, r: tuple[int, int]) -> int:
            return self.hval(s, q, R, j, r, True)

        n = self.n
        prices = cast(list, self.prices)
        v = self.m.JH * self.m.wj * PRICE_SCALE
        if pi < n and 0 < si < 4:
            # this place's sets as far as the suits still to decide go: each
            # of their cards at its price (where positive), no joker taken
            row, caps = self.face[pi], self.caps[pi]
            at14 = self.m.both and self.m.places[pi] == 14
            for s in range(si, 4):
                if prices[pi][s] > 0:
                    a = res[s][1] if at14 else row[s][1]
                    v += prices[pi][s] * min(a, caps[s])
        sets = self.set_suffix[pi + 1 if (pi < n and si > 0) else pi]
        if jl == 0 or self.m.J == 0:
            v += sets[0]
            for s in range(4):
                q = pi + 1 if (s < si and pi < n) else pi
                x = hv(s, q, runs[s], 0, res[s])
                if x == NEG:
                    return NEG
                v += x
            return v // PRICE_SCALE
        best = self._share_jokers(pi, si, runs, jl, res, list(sets[: jl + 1]), True)
        return NEG if best is None else (best + v) // PRICE_SCALE

    def price_sets(self, duals: dict) -> None:
        """Couple the suits through the sets, with the LP's duals as prices.

        The relaxation lets each suit send cards to sets as if partners were
        always there; the sets are what couples the suits. Relaxing "the
        cards a suit sends to the sets of a place are the cards those sets
        take" with a price per face (Lagrange) gives, for ANY prices, an
        admissible bound: each suit's program pays the price of every card it
        sends, and the sets of each place, chosen alone among the valid ones,
        earn the prices of the cards they take. With the LP's duals ``z``
        (face -> float) the price of a face is its hand weight minus z_f, and
        the bound at the root is at most the LP's own (the suits' programs
        are integral where the LP's columns are not): the search sees what
        the LP sees, and keeps seeing it state by state. The prices are
        rounded to integers (in 1/PRICE_SCALE), which is again a choice of
        prices, so the bound stays exact. Both searches, compiled and Python,
        then use it; the memo stays valid (its values are exact or upper
        bounds)."""
        m = self.m
        if not self.prepared:
            self._prepare()
        if self.priced_once:
            return  # once per sweep: the priced memo holds the first prices' values
        self.priced_once = True
        n = self.n
        prices = [[0] * 4 for _ in range(n)]
        for pi, p in enumerate(m.places):
            r = m.rank(p)
            for s in range(4):
                if self.face[pi][s][1]:
                    prices[pi][s] = round((m.w.get((r, s), 0) - duals.get((r, s), 0.0)) * PRICE_SCALE)
        B = max([1, *m.a.values()]) + 1
        masks = _set_masks(B, m.J, m.rules)
        J = m.J
        suffix = [[0] * (J + 1) for _ in range(n + 1)]
        for pi in range(n - 1, -1, -1):
            # the best sets of this place alone, with at most j jokers
            here = [0] * (J + 1)
            lims = [min(self.face[pi][s][1], self.caps[pi][s]) for s in range(4)]
            for y in product(*[range(lim + 1) for lim in lims]):
                mask = masks[((y[0] * B + y[1]) * B + y[2]) * B + y[3]]
                if not mask or not any(y):
                    continue
                v = sum(prices[pi][s] * y[s] for s in range(4))
                for j in range((mask & -mask).bit_length() - 1, J + 1):
                    if v > here[j]:
                        here[j] = v
            nxt = suffix[pi + 1]
            row = suffix[pi]
            for j in range(J + 1):
                row[j] = max(here[j1] + nxt[j - j1] for j1 in range(j + 1))
        self.prices = prices
        self.set_suffix = suffix
        if self._c is not None:
            self._c.set_prices(
                [x for row in prices for x in row], [x for row in suffix for x in row], PRICE_SCALE
            )

    def _limits(self) -> tuple[int, int, float]:
        budget = -1 if self.budget is None else self.budget
        return budget, self.max_states, -1.0 if self.deadline is None else self.deadline

    def _compiled_call(self, status_value: tuple[int, int]) -> int:
        status, value = status_value
        if status == 1:
            raise _Budget
        if status == 2:
            raise SolverTimeout
        if status == 4:
            raise _BoundSpent
        return value

    def best(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple, need: int) -> int:
        """The best weight from this state on if it is at least ``need`` (exact);
        otherwise some upper bound below ``need`` (a fail-low, as in alpha-beta)."""
        if self._c is not None:
            try:
                return self._compiled_call(self._c.best((pi, si, runs, msum, jl, res, need), self._limits()))
            except OverflowError:
                # beyond the compiled search's fixed sizes (never with real decks):
                # the Python search goes on; the values found so far stay true
                self._c = None
        return self._best(pi, si, runs, msum, jl, res, need)

    def _best(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple, need: int) -> int:
        key = (pi, si, runs, msum, jl, res)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            v, exact = hit
            if exact or v < need:
                return v
        self.calls += 1
        if self.calls == self.budget:
            raise _Budget
        if self.calls >= self.max_states:
            raise SolverTimeout
        if self.deadline is not None and not (self.calls & 1023) and time.perf_counter() > self.deadline:
            raise SolverTimeout
        m = self.m
        if pi == self.n:
            L, N = m.L, m.N
            ok = all(c[0] >= L and c[1] >= N for suit in runs for c in suit)
            used = m.J - jl
            v = (used - m.JT) * m.wj if ok and used >= m.JT else NEG
            memo[key] = (v, True)
            return v
        if msum and 0 < si < 4:
            if m.both and m.places[pi] == 14:
                caps = tuple(res[x][1] for x in range(si, 4))
            else:
                row = self.face[pi]
                caps = tuple(row[x][1] for x in range(si, 4))
            if not _sets_completable(msum, caps, jl, m.rules):
                memo[key] = (NEG, True)
                return NEG
        bound = self.potential(pi, si, res)
        if self.bound_on:
            # two admissible bounds, the smaller kept
            try:
                relaxed = self._relaxed_bound(pi, si, runs, jl, res)
            except _BoundSpent:
                self.bound_on = False  # from here on the hand's potential alone
                relaxed = bound
            if relaxed < bound:
                bound = relaxed
        if bound < need:
            memo[key] = (bound, False)
            return bound
        bestv = NEG
        if si == 4:
            for j in _set_joker_options(msum, jl, m.rules):
                sub = self._best(pi + 1, 0, runs, (), jl - j, res, need if need > bestv + 1 else bestv + 1)
                if sub > bestv:
                    bestv = sub
        else:
            p = m.places[pi]
            t, a, tmin, wf = self.face[pi][si]
            special = m.both and (p == 1 or p == 14)
            if special:
                opts = self._options(pi, si, runs, msum, jl, res)
            else:
                pre, post = runs[:si], runs[si + 1 :]
                opts = (
                    (
                        opt,
                        (
                            (*pre, opt[0], *post),
                            tuple(sorted((*msum, opt[1]), reverse=True)) if opt[1] else msum,
                            jl - opt[3],
                            res,
                        ),
                    )
                    for opt in self.suit_options(runs[si], t, tmin, a, wf, jl, m.hi - p + 1)
                )
            best_ = self._best
            for opt, nxt in opts:
                w = opt[4]
                floor = need if need > bestv + 1 else bestv + 1
                sub = best_(pi, si + 1, nxt[0], nxt[1], nxt[2], nxt[3], floor - w)
                if sub == NEG:
                    continue
                if sub + w > bestv:
                    bestv = sub + w
                    if bestv >= bound:
                        break  # cannot do better than the bound
        memo[key] = (bestv, bestv >= need or bestv == NEG)
        return bestv

    def _options(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple, only: int = -1):
        """(option, (runs, msum, jl, res) after it) for suit si at place index pi;
        ``only``: just the option of that index (the compiled walk names it)."""
        m = self.m
        p = m.places[pi]
        t, a, tmin, w = self.face[pi][si]
        if m.both and p == 1:
            tmin = 0  # the aces not used here stay for place 14
        elif m.both and p == 14:
            t, a = res[si]
            tmin = t
        room = m.hi - p + 1
        options = self.suit_options(runs[si], t, tmin, a, w, jl, room)
        for opt in options if only < 0 else options[only : only + 1]:
            newR, mm, u, jused, _weight, _detail = opt
            if m.both and p == 1:
                res2 = (*res[:si], (max(0, t - u), a - u), *res[si + 1 :])
            elif m.both and p == 14:
                res2 = (*res[:si], (0, 0), *res[si + 1 :])
            else:
                res2 = res
            ms = tuple(sorted((*msum, mm), reverse=True)) if mm else msum
            yield opt, ((*runs[:si], newR, *runs[si + 1 :]), ms, jl - jused, res2)

    def _compiled_rebuild(self, runs: list, places: list) -> tuple[list, list]:
        """(runs, sets) as :meth:`rebuild` returns them, from the compiled
        rebuild's runs and its per-place counts to sets."""
        sets_out: list[tuple[int, list[int], int]] = []
        for pi, (mvec, j) in enumerate(places):
            if j or any(mvec):
                self._place_sets(pi, list(mvec), j, sets_out)
        return [(s, start, list(items)) for s, start, items in runs], sets_out

    def _place_sets(self, pi: int, mvec: list[int], j: int, sets_out: list) -> None:
        """The sets of place index pi from its per-suit counts and ``j``
        jokers, appended to ``sets_out`` as (rank, [suits], jokers)."""
        m = self.m
        distinct = m.rules.set_distinct_suits
        groups = _set_groups(tuple(mvec) if distinct else (sum(mvec),), j, m.rules)
        if groups is None:  # pragma: no cover - the memo guarantees sets
            raise InternalError("solver rebuild found no sets where the search did")
        rank = m.rank(m.places[pi])
        if distinct:
            for sub, nj in groups:
                sets_out.append((rank, list(sub), nj))
        else:
            # suits need not differ: hand out this rank's naturals in order
            suits_pool = [s for s in range(4) for _ in range(mvec[s])]
            for sub, nj in groups:
                take, suits_pool = suits_pool[: len(sub)], suits_pool[len(sub) :]
                sets_out.append((rank, take, nj))

    def _option_at(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple, index: int):
        """The option of that index (the compiled walk names it) and the state
        after it: :meth:`_options` for one option, without its generator."""
        m = self.m
        p = m.places[pi]
        t, a, tmin, w = self.face[pi][si]
        res2 = res
        if m.both and (p == 1 or p == 14):
            return next(self._options(pi, si, runs, msum, jl, res, only=index), None)
        options = self.suit_options(runs[si], t, tmin, a, w, jl, m.hi - p + 1)
        if not 0 <= index < len(options):  # pragma: no cover - the walk names an option
            return None
        opt = options[index]
        mm = opt[1]
        ms = tuple(sorted((*msum, mm), reverse=True)) if mm else msum
        return opt, ((*runs[:si], opt[0], *runs[si + 1 :]), ms, jl - opt[3], res2)

    def _prepare(self) -> None:
        """The tables every solve of this sweep shares, built once: a resumed
        solve (after a budget pause) keeps its memos, in Python as in C."""
        m = self.m
        # suffix potentials: hand weight at (place, suit) and after, plus hand jokers
        n = self.n
        self.ace_w = [m.w.get((1, s), 0) for s in range(4)]
        # pot[pi][si]: the hand jokers' weight plus the hand weight of every
        # (place, suit) from (pi, si) on in the search's order, si = 4 the
        # next place's start: suffix sums of the faces present, flat (index
        # 4 * pi + si), the rows overlapping slices of them
        delta = [0] * (4 * n)
        face = self.face
        skip = n - 1 if m.both and m.places[-1] == 14 else -1  # counted at place 1 and through the reserve
        for pi, s, _t, _a, _f in m.shape()[0]:
            if pi != skip:
                t, a, _tmin, w = face[pi][s]
                delta[4 * pi + s] = (a - t) * w
        delta.reverse()
        suffix = list(accumulate(delta, initial=m.JH * m.wj))
        suffix.reverse()
        self.pot = [suffix[4 * pi : 4 * pi + 5] for pi in range(n)] + [[suffix[-1]] * 5]
        self.pot_flat = list(chain.from_iterable(self.pot))
        self.hmemo: dict = {}
        self.caps = m.shape()[1]
        # the bound in use: the relaxation while its work is within the limit
        # (and once the search has spent relax_from states without it)
        self.relax_pending = self.use_h and self.relax_from > 0
        self.bound_on = self.use_h and not self.relax_pending
        if self.compiled:
            self._c = self._build_compiled()
            if self._c is not None:
                self._c.set_bound(self.bound_on)
        self.prepared = True

    def states(self) -> int:
        """Search states visited so far (by whichever search runs)."""
        return self._c.counts()[0] if self._c is not None else self.calls

    def _root_bound(self, ub: int) -> int:
        """``ub`` capped by the relaxation at the root, where it is in use."""
        if self.bound_on:
            try:
                ub = min(ub, self.relaxed_bound(0, 0, self.root[0], self.m.J, self.root[3]))
            except _BoundSpent:
                self.bound_on = False
        return ub

    def _ask(self, need: int) -> int:
        """The root's value if at least ``need``, else an upper bound below it;
        raises _RelaxNow where the search reaches ``relax_from`` states while
        the relaxation waits (an outer budget set lower still raises _Budget)."""
        outer = self.budget
        pause = self.relax_from
        if not self.relax_pending or (outer is not None and outer <= pause):
            return self.best(0, 0, *self.root, need)
        if self.states() >= pause:
            raise _RelaxNow
        self.budget = pause
        try:
            return self.best(0, 0, *self.root, need)
        except _Budget:
            raise _RelaxNow from None
        finally:
            self.budget = outer

    def _relax_now(self) -> None:
        self.relax_pending = False
        self.bound_on = True
        if self._c is not None:
            self._c.set_bound(True)

    def solve(self) -> int:
        m = self.m
        if not self.prepared:
            self._prepare()
        self.root = ((),) * 4, (), m.J, ((0, 0),) * 4
        # Search from the top: ask for the bound, and on a fail-low (an upper
        # bound below the ask) ask again for the next lower multiple of the
        # granularity. A success returns the exact optimum; fail-lows stay in
        # the memo as upper bounds for the next round.
        if not self.use_h:
            # hand only (openings, new melds): the plain search from below is quicker
            self.value = self.best(0, 0, *self.root, NEG + 1)
            return self.value
        gran = max(1, self.gran)
        ub = self._root_bound(self.potential(0, 0, self.root[3]))
        if self.cap is not None and ub != NEG:
            ub = min(ub, self.cap)
        fails = 0
        while True:
            if ub == NEG:
                self.value = NEG
                return NEG
            if self.incumbent is not None and ub <= self.incumbent:
                # nothing better than the incumbent (found outside): report the bound
                self.value = ub
                return ub
            need = ub - ub % gran if ub >= 0 else ub
            if self.incumbent is not None and need <= self.incumbent:
                need = self.incumbent + 1
            try:
                v = self._ask(need)
            except _RelaxNow:
                self._relax_now()
                ub = self._root_bound(ub)
                continue
            if v >= need or v == NEG:
                self.value = v
                return v
            ub = v
            fails += 1
            if fails == 2 and gran == 1:
                # Two asks from the top fell short, by a card each: rather
                # than a round per card down to the optimum, ask from below.
                # An ask that succeeds returns the exact optimum whatever its
                # floor, and the fail-lows in the memo prune it. (Measured:
                # the median solve 10% faster, and the bots' 2,000-state
                # rebuilds proven more often.)
                ub = min(ub, 0 if self.incumbent is None else self.incumbent + 1)

    def _build_compiled(self) -> Any:
        """The compiled search over this model, or None where the position is
        beyond its fixed limits (then the Python search runs)."""
        m = self.m
        mod = compiled_sweep()
        n = self.n
        B = max([1, *m.a.values()]) + 1
        # its fixed sizes: runs in progress per suit (copies + jokers) within
        # MAXR and the splits of equal runs within MAXOPTS, masks of 64 jokers
        if mod is None or m.J > 63 or B > 16 or n > 14 or B - 1 + m.J > 14:
            return None
        try:
            return mod.Sweep(
                n,
                m.L,
                m.N,
                -1 if m.K is None else m.K,
                m.hi,
                int(m.both),
                m.places,
                m.shape()[2],
                m.shape()[3],
                self.wflat,
                m.shape()[4],
                self.pot_flat,
                self.ace_w,
                m.J,
                m.JT,
                m.JH,
                m.wj,
                B,
                _set_masks(B, m.J, m.rules),
                int(self.use_h),
            )
        except OverflowError:
            return None

    # ---- rebuilding the melds

    def rebuild(self):
        """Walk the memo along an optimal path; returns (runs, sets) in faces:
        runs as (suit, start place, ['N'|'J', ...]), sets as (rank, [suits], jokers)."""
        m = self.m
        self.budget = None  # the walk only reads what the search proved
        runs_state, msum, jl, res = self.root
        target = self.value
        open_runs: list[dict[tuple, list]] = [{} for _ in range(4)]
        done_runs: list[tuple[int, int, list[str]]] = []
        sets_out: list[tuple[int, list[int], int]] = []
        pi = 0
        mvec = [0, 0, 0, 0]
        si = 0
        # the compiled search walks its own memo and keeps the run book
        # itself; where it cannot, Python follows its choices
        if self._c is not None:
            walked = self._c.rebuild((0, 0, runs_state, msum, jl, res, target), self._limits())
            if walked is not None:
                return self._compiled_rebuild(*walked)
        path = None
        if self._c is not None:
            path = self._c.walk((0, 0, runs_state, msum, jl, res, target), self._limits())
            if path is None:  # pragma: no cover - the memo guarantees a witness
                raise InternalError("solver rebuild lost its way")
        step = 0
        while pi < self.n:
            if si == 4:
                if path is not None:
                    j = path[step]
                    step += 1
                else:
                    for j in _set_joker_options(msum, jl, m.rules):
                        if self.best(pi + 1, 0, runs_state, (), jl - j, res, target) == target:
                            break
                    else:  # pragma: no cover - the memo guarantees a witness
                        raise InternalError("solver rebuild lost its way at the sets")
                self._place_sets(pi, mvec, j, sets_out)
                jl -= j
                msum = ()
                mvec = [0, 0, 0, 0]
                pi += 1
                si = 0
                continue
            chosen = None
            if path is not None:
                if (
                    path[step] == 0
                    and not runs_state[si]
                    and not self.face[pi][si][1]
                    and not (m.both and m.places[pi] in (1, 14))
                ):
                    # no card of this face and no run in progress: the first
                    # option (start nothing) changes nothing
                    step += 1
                    mvec[si] = 0
                    si += 1
                    continue
                chosen = self._option_at(pi, si, runs_state, msum, jl, res, path[step])
                step += 1
            else:
                for opt, nxt in self._options(pi, si, runs_state, msum, jl, res):
                    sub = self.best(pi, si + 1, nxt[0], nxt[1], nxt[2], nxt[3], target - opt[4])
                    if sub != NEG and sub + opt[4] == target:
                        chosen = (opt, nxt)
                        target -= opt[4]
                        break
            if chosen is None:  # pragma: no cover
                raise InternalError("solver rebuild lost its way")
            opt, nxt = chosen
            p = m.places[pi]
            detail, nn, nj = opt[5]
            book = open_runs[si]
            newbook: dict[tuple, list] = {}
            for code, e, cn, cj in detail:
                lst = book.pop(code)
                ln, nt, jk, ld = code
                for _ in range(e):
                    run = lst.pop()
                    done_runs.append((si, run[0], run[1]))
                for _ in range(cn):
                    run = lst.pop()
                    run[1].append("N")
                    newbook.setdefault((min(ln + 1, m.L), min(nt + 1, m.N), jk, ld), []).append(run)
                for _ in range(cj):
                    run = lst.pop()
                    run[1].append("J")
                    newbook.setdefault(
                        (min(ln + 1, m.L), nt, jk + 1 if m.K is not None else 0, ld), []
                    ).append(run)
            if any(book.values()):  # pragma: no cover
                raise InternalError("solver rebuild left a run unaccounted for")
            for _ in range(nn):
                newbook.setdefault((1, min(1, m.N), 0, 2 if m.hi - p + 1 == 14 else 0), []).append([p, ["N"]])
            for _ in range(nj):
                newbook.setdefault((1, 0, 1 if m.K is not None else 0, 1), []).append([p, ["J"]])
            open_runs[si] = newbook
            mvec[si] = opt[1]
            runs_state, msum, jl, res = nxt
            si += 1
        for s in range(4):
            for lst in open_runs[s].values():
                for run in lst:
                    done_runs.append((s, run[0], run[1]))
        return done_runs, sets_out
