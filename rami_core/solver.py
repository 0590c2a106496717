"""Exact arrangement solver: the best lay for a table and a hand.

Three questions, all answered exactly (a proven optimum, never a heuristic):

* :func:`solve` - rearrange the whole table (every table card stays down) and
  lay as many hand cards as possible (or as many penalty points as possible),
  as rami voleur allows;
* :func:`best_opening` - the best opening from the hand alone under the
  profile's opening settings (points, pure run, run and set, jokers);
* :func:`best_lay_offs` - where laid cards keep their places (every preset but
  voleur): the most hand cards that can be laid off onto the table melds at
  their ends or missing suits, plus new melds from the hand.

How :func:`solve` works
-----------------------
A dynamic program sweeps the run places from the lowest to the highest
(1..13 with the ace low, 2..14 with the ace high, 1..14 with both), in the
manner of van Rijn, Takes and Vis, "The Complexity of Rummikub Problems"
(2015). At each place and for each suit it decides what becomes of the cards
of that face: extend a run in progress, start a run, or go into a set at this
rank; and what becomes of every run in progress: extend it (by a natural card
or a joker) or close it, which only a complete run may do. A run in progress
is summarised by its length and its natural count (capped at what the rules
ask), its jokers (only when the profile limits them) and a flag for a run
that began with a joker; a suit's runs are a sorted tuple of those summaries.
The sets of a rank are checked once the four suits of that place are decided,
from the multiset of per-suit counts sent to sets and the jokers given to
them. Jokers are a counter in the state. Table cards must all be used; hand
cards add their weight. The state is memoised, so the work is polynomial for
a fixed number of suits, copies and jokers: O(places x suits x S x T) where S
is the number of reachable run states (bounded by a constant for fixed
copies, jokers and run_min) and T the transitions per state.

The search is a memoised depth-first branch and bound over that dynamic
program. Its bound is state dependent: a per-suit relaxation (each suit's own
run dynamic program from the current place on, its runs in progress as they
are, with sets limited only by what the other suits and the jokers could
offer at each rank; jokers shared among the suits by a small knapsack). It
also proves a state dead when a suit's table cards cannot all be placed, or
when the suits still to decide at a place cannot complete its sets. The root
asks for the bound first and, on a fail-low, for the next lower card count
(points objective: the next lower point total); the first success is the
proven optimum, and fail-lows stay in the memo as upper bounds. The per-suit
options (a pure function of the run summaries and the counts) and the set
tables are cached across solves.

Hard positions take an exact shortcut (``_run``): past ``LP_BUDGET``
search states, the certified linear program of :mod:`rami_core.solver_lp`
(HiGHS through scipy) proposes an arrangement and an upper bound computed in exact integers from
its duals. A bound met by the arrangement ends the solve; otherwise the
search resumes (its memo kept) with the bound as a cap and the arrangement as
the value to beat. Floating point only proposes; integers decide. (Solving
first with the table jokers optional, then attaching the unused ones, was
tried too: exact, but no faster, the relaxed search being as large.)

Symmetry cuts keep it small without losing optima: runs with equal summaries
are interchangeable; a run never starts with a joker unless it ends at the
highest place (otherwise the joker can move to its top end); runs are never
started where they could not reach run_min before the last place.

With the ace at both ends, a physical ace is used once: at place 1 the solver
decides per suit how many aces stay for place 14 (they travel in the state).
A run begun at place 1 carries a mark that forbids place 14: A..K..A would
be fourteen cards, which no rule allows.

Wrapping runs (K-A-2) break the linear sweep; under ``rules.wrap`` the solver
uses an exact memoised search over melds instead (:func:`_search_solve`),
correct but exponential: fine for hands and small tables (the only variants
with wrap never rearrange a table).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from .cards import JOKER_SUIT, Card, card_points
from .melds import RUN, SET, MeldRules, Reading, lay_off_positional, meld_points, read_meld, read_set

__all__ = [
    "LayOffPlan",
    "Solution",
    "SolverTimeout",
    "best_lay_offs",
    "best_opening",
    "check_solution",
    "solve",
]

NEG = -(10**18)
USE_H = True  # the per-suit relaxation bound; False: the older state-independent hand potential


class SolverTimeout(Exception):
    """Raised inside the search when the time limit is reached."""


@dataclass
class Solution:
    """A new whole table and the hand cards it lays."""

    melds: list[list[Card]]
    laid: list[Card]
    max_cards_laid: int
    optimal: bool = True
    points_laid: int = 0
    feasible: bool = True  # False when the table cards could not all be arranged


@dataclass
class LayOffPlan:
    """Lay offs onto melds that keep their places, plus new melds from the hand."""

    lay_offs: list[tuple[int, list[Card], list[tuple[Card, tuple[int, int]]]]] = field(default_factory=list)
    """(meld index, natural cards, [(joker, face it stands for)])"""
    readings: dict[int, Reading] = field(default_factory=dict)
    """the new reading of every meld that receives cards"""
    new_melds: list[list[Card]] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)

    @property
    def cards_laid(self) -> int:
        return len(self.laid)


# --------------------------------------------------------------------------- weights


def _points_function(points) -> Callable[[Card], int]:
    """A card value function from a callable, a Profile, or a Scoring-like object."""
    if points is None:
        return lambda c: card_points(c, joker=25)
    if callable(points):
        return points
    scoring = getattr(points, "scoring", points)
    jokers = getattr(points, "jokers", None)
    ace = getattr(scoring, "ace_points", 11)
    court = getattr(scoring, "court_points", 10)
    joker = getattr(jokers, "penalty", getattr(points, "joker_penalty", 25))
    return lambda c: card_points(c, ace=ace, court=court, joker=joker)


# --------------------------------------------------------------------------- sets at one rank


@cache
def _set_groups(mvec: tuple[int, ...], jokers: int, rules: MeldRules) -> tuple | None:
    """Partition naturals of one rank (``mvec``: count per suit, or a 1-tuple of
    the total where suits need not differ) and exactly ``jokers`` jokers into
    valid sets. Returns a tuple of groups ``(suits tuple, jokers)`` or None."""
    if not any(mvec):
        return () if jokers == 0 else None
    distinct = rules.set_distinct_suits
    size_max = min(rules.set_max, 4) if distinct else rules.set_max
    jmax = rules.max_jokers if rules.max_jokers is not None else size_max
    i = next(k for k, v in enumerate(mvec) if v)
    if distinct:
        others = [k for k in range(i + 1, len(mvec)) if mvec[k]]
        subsets: Iterable[tuple[int, ...]] = (
            (i,) + combo for r in range(len(others) + 1) for combo in combinations(others, r)
        )
    else:
        subsets = ((i,) * n for n in range(1, min(mvec[i], size_max) + 1))
    for sub in subsets:
        nat = len(sub)
        if nat < rules.min_naturals:
            continue
        for j in range(min(jokers, jmax) + 1):
            size = nat + j
            if not rules.set_min <= size <= size_max:
                continue
            rest = list(mvec)
            for k in sub:
                rest[k] -= 1
            tail = _set_groups(tuple(rest), jokers - j, rules)
            if tail is not None:
                return ((sub, j),) + tail
    return None


@cache
def _set_joker_options(msum: tuple[int, ...], jl: int, rules: MeldRules) -> tuple[int, ...]:
    """Joker counts j <= jl with which the sorted per-suit counts ``msum`` split into sets."""
    if rules.set_distinct_suits:
        vec = tuple(msum) + (0,) * (4 - len(msum))
    else:
        vec = (sum(msum),)
    return tuple(j for j in range(jl + 1) if _set_groups(vec, j, rules) is not None)


@cache
def _sets_completable(msum: tuple[int, ...], caps: tuple[int, ...], jl: int, rules: MeldRules) -> bool:
    """Whether the suits still to decide at a place (at most ``caps`` cards each)
    can send cards to sets so that, with ``msum`` already sent, the place's sets
    close with at most ``jl`` jokers."""
    if not caps:
        return bool(_set_joker_options(msum, jl, rules))
    for k in range(caps[0] + 1):
        nxt = tuple(sorted(msum + (k,), reverse=True)) if k else msum
        if _sets_completable(nxt, caps[1:], jl, rules):
            return True
    return False


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
                    detail + [(code, e, cn, cj)],
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


@cache
def _set_cap(a_s: int, others: tuple[int, ...], jokers: int, rules: MeldRules) -> int:
    """Most cards of one suit (``a_s`` of them) that the sets of one rank can hold
    when the other suits offer ``others`` cards and ``jokers`` jokers, all free."""
    best = 0
    for k in range(1, a_s + 1):
        ok = False
        for sub in product(*[range(o + 1) for o in others]):
            vec = tuple(sorted((k,) + sub, reverse=True)) if rules.set_distinct_suits else (k + sum(sub),)
            if any(_set_groups(vec, j, rules) is not None for j in range(jokers + 1)):
                ok = True
                break
        if not ok:
            break
        best = k
    return best


# --------------------------------------------------------------------------- the sweep


class _Model:
    """Everything fixed for one solve: places, face counts, rule constants."""

    def __init__(
        self, table: Sequence[Card], hand: Sequence[Card], rules: MeldRules, weight: Callable[[Card], int]
    ):
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
        t = Counter(c[:2] for c in table if c.suit != JOKER_SUIT)
        h = Counter(c[:2] for c in hand if c.suit != JOKER_SUIT)
        self.t = t
        self.a = t + h
        self.JT = sum(1 for c in table if c.suit == JOKER_SUIT)
        self.JH = sum(1 for c in hand if c.suit == JOKER_SUIT)
        self.J = self.JT + self.JH
        # weights of a laid hand card, per face
        self.w: dict[tuple[int, int], int] = {}
        for c in hand:
            if c.suit != JOKER_SUIT:
                self.w.setdefault(c[:2], weight(c))
        jok = [c for c in hand if c.suit == JOKER_SUIT]
        self.wj = weight(jok[0]) if jok else 0
        self.places = list(range(self.lo, self.hi + 1))
        self.copies = max([2] + list(self.a.values()))

    def rank(self, place: int) -> int:
        return 1 if place == 14 else place


def _complete(code: tuple[int, int, int, int], L: int, N: int) -> bool:
    return code[0] >= L and code[1] >= N


class _Sweep:
    def __init__(self, m: _Model, deadline: float | None, max_states: int | None = None):
        self.m = m
        self.memo: dict = {}
        self.deadline = deadline
        # a deterministic limit: SolverTimeout at this many states
        self.max_states = max_states if max_states is not None else 1 << 62
        self.calls = 0
        self.suit_cache: dict = {}
        self.gran = 1
        self.use_h = USE_H
        self.incumbent: int | None = None  # a weight known to be reachable: only better is searched
        self.cap: int | None = None  # an upper bound known from outside
        self.budget: int | None = None  # raise _Budget at this many states
        # per place: per suit (t, a, tmin, w)
        self.face: list[list[tuple[int, int, int, int]]] = []
        for p in m.places:
            row = []
            r = m.rank(p)
            for s in range(4):
                t = m.t.get((r, s), 0)
                a = m.a.get((r, s), 0)
                row.append((t, a, t, m.w.get((r, s), 0)))
            self.face.append(row)
        self.n = len(m.places)
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

    def set_cap(self, pi: int, s: int) -> int:
        """Most cards of suit s that sets at place pi could hold, whatever the other
        suits do (their cards and every joker counted free)."""
        row = self.face[pi]
        others = tuple(sorted(row[x][1] for x in range(4) if x != s))
        return _set_cap(row[s][1], others, self.m.J, self.m.rules)

    def hval(self, s: int, pi: int, R: tuple, j: int) -> int:
        """Best hand weight of suit s from place pi on, its runs in progress R, with
        at most j jokers in its runs, sets unconstrained but by set_cap."""
        key = (s, pi, R, j)
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
        if m.both and p == 1:
            tmin = 0
        elif m.both and p == 14:
            t = tmin = 0  # a hand ace here may be a table ace kept from place 1: count it
        cap = self.caps[pi][s]
        best_ = NEG
        for opt in self.suit_options(R, t, tmin, a, w, j, m.hi - p + 1):
            if opt[1] > cap:
                continue
            sub = self.hval(s, pi + 1, opt[0], j - opt[3])
            if sub == NEG:
                continue
            if sub + opt[4] > best_:
                best_ = sub + opt[4]
        self.hmemo[key] = best_
        return best_

    def relaxed_bound(self, pi: int, si: int, runs: tuple, jl: int) -> int:
        hv = self.hval
        tail = self.m.JH * self.m.wj
        if jl == 0 or self.m.J == 0:
            v = tail
            for s in range(4):
                x = hv(s, pi + 1 if s < si else pi, runs[s], 0) if pi < self.n else hv(s, pi, runs[s], 0)
                if x == NEG:
                    return NEG
                v += x
            return v
        # share the jokers left among the suits (small knapsack)
        acc = [0] * (jl + 1)
        for s in range(4):
            q = pi + 1 if (s < si and pi < self.n) else pi
            vals = [hv(s, q, runs[s], j) for j in range(jl + 1)]
            if vals[-1] == NEG:
                return NEG
            new = [NEG] * (jl + 1)
            for j1 in range(jl + 1):
                if acc[j1] == NEG:
                    continue
                for j2 in range(jl + 1 - j1):
                    if vals[j2] != NEG and acc[j1] + vals[j2] > new[j1 + j2]:
                        new[j1 + j2] = acc[j1] + vals[j2]
            acc = new
        return max(acc) + tail

    def best(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple, need: int) -> int:
        """The best weight from this state on if it is at least ``need`` (exact);
        otherwise some upper bound below ``need`` (a fail-low, as in alpha-beta)."""
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
        bound = self.relaxed_bound(pi, si, runs, jl) if self.use_h else self.potential(pi, si, res)
        if bound < need:
            memo[key] = (bound, False)
            return bound
        bestv = NEG
        if si == 4:
            for j in _set_joker_options(msum, jl, m.rules):
                sub = self.best(pi + 1, 0, runs, (), jl - j, res, need if need > bestv + 1 else bestv + 1)
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
                            pre + (opt[0],) + post,
                            tuple(sorted(msum + (opt[1],), reverse=True)) if opt[1] else msum,
                            jl - opt[3],
                            res,
                        ),
                    )
                    for opt in self.suit_options(runs[si], t, tmin, a, wf, jl, m.hi - p + 1)
                )
            best_ = self.best
            for opt, nxt in opts:
                w = opt[4]
                floor = need if need > bestv + 1 else bestv + 1
                sub = best_(pi, si + 1, *nxt, floor - w)
                if sub == NEG:
                    continue
                if sub + w > bestv:
                    bestv = sub + w
                    if bestv >= bound:
                        break  # cannot do better than the bound
        memo[key] = (bestv, bestv >= need or bestv == NEG)
        return bestv

    def _options(self, pi: int, si: int, runs: tuple, msum: tuple, jl: int, res: tuple):
        """(option, (runs, msum, jl, res) after it) for suit si at place index pi."""
        m = self.m
        p = m.places[pi]
        t, a, tmin, w = self.face[pi][si]
        if m.both and p == 1:
            tmin = 0  # the aces not used here stay for place 14
        elif m.both and p == 14:
            t, a = res[si]
            tmin = t
        room = m.hi - p + 1
        for opt in self.suit_options(runs[si], t, tmin, a, w, jl, room):
            newR, mm, u, jused, weight, _detail = opt
            if m.both and p == 1:
                res2 = res[:si] + ((max(0, t - u), a - u),) + res[si + 1 :]
            elif m.both and p == 14:
                res2 = res[:si] + ((0, 0),) + res[si + 1 :]
            else:
                res2 = res
            ms = tuple(sorted(msum + (mm,), reverse=True)) if mm else msum
            yield opt, (runs[:si] + (newR,) + runs[si + 1 :], ms, jl - jused, res2)

    def solve(self) -> int:
        m = self.m
        # suffix potentials: hand weight at (place, suit) and after, plus hand jokers
        n = self.n
        self.ace_w = [m.w.get((1, s), 0) for s in range(4)]
        pot = [[0] * 5 for _ in range(n + 1)]
        tail = m.JH * m.wj
        for pi in range(n - 1, -1, -1):
            p = m.places[pi]
            pot[pi][4] = tail
            for si in range(3, -1, -1):
                t, a, _tmin, w = self.face[pi][si]
                if m.both and p == 14:
                    t, a = 0, 0  # counted at place 1 and through the reserve
                tail += (a - t) * w
                pot[pi][si] = tail
        for si in range(5):
            pot[n][si] = m.JH * m.wj
        self.pot = pot
        self.hmemo = {}
        self.caps = [[self.set_cap(pi, s) for s in range(4)] for pi in range(n)]
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
        ub = self.relaxed_bound(0, 0, self.root[0], m.J) if self.use_h else self.potential(0, 0, self.root[3])
        if self.cap is not None and ub != NEG:
            ub = min(ub, self.cap)
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
            v = self.best(0, 0, *self.root, need)
            if v >= need or v == NEG:
                self.value = v
                return v
            ub = v

    # ---- rebuilding the melds

    def rebuild(self):
        """Walk the memo along an optimal path; returns (runs, sets) in faces:
        runs as (suit, start place, ['N'|'J', ...]), sets as (rank, [suits], jokers)."""
        m = self.m
        runs_state, msum, jl, res = self.root
        target = self.value
        open_runs: list[dict[tuple, list]] = [dict() for _ in range(4)]
        done_runs: list[tuple[int, int, list[str]]] = []
        sets_out: list[tuple[int, list[int], int]] = []
        pi = 0
        mvec = [0, 0, 0, 0]
        si = 0
        while pi < self.n:
            if si == 4:
                for j in _set_joker_options(msum, jl, m.rules):
                    if self.best(pi + 1, 0, runs_state, (), jl - j, res, target) == target:
                        break
                else:  # pragma: no cover - the memo guarantees a witness
                    raise AssertionError("solver rebuild lost its way at the sets")
                vec = tuple(mvec) if m.rules.set_distinct_suits else (sum(mvec),)
                groups = _set_groups(vec, j, m.rules)
                rank = m.rank(m.places[pi])
                if m.rules.set_distinct_suits:
                    for sub, nj in groups:
                        sets_out.append((rank, list(sub), nj))
                else:
                    # suits need not differ: hand out this rank's naturals in order
                    suits_pool = [s for s in range(4) for _ in range(mvec[s])]
                    for sub, nj in groups:
                        take, suits_pool = suits_pool[: len(sub)], suits_pool[len(sub) :]
                        sets_out.append((rank, take, nj))
                jl -= j
                msum = ()
                mvec = [0, 0, 0, 0]
                pi += 1
                si = 0
                continue
            chosen = None
            for opt, nxt in self._options(pi, si, runs_state, msum, jl, res):
                sub = self.best(pi, si + 1, *nxt, target - opt[4])
                if sub != NEG and sub + opt[4] == target:
                    chosen = (opt, nxt)
                    target -= opt[4]
                    break
            if chosen is None:  # pragma: no cover
                raise AssertionError("solver rebuild lost its way")
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
            assert not any(book.values())
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


# --------------------------------------------------------------------------- public: solve


def solve(
    table: Sequence[Card] | Sequence[Sequence[Card]],
    hand: Sequence[Card],
    rules: MeldRules,
    *,
    objective: str = "cards",
    points=None,
    time_limit: float | None = None,
    max_states: int | None = None,
) -> Solution:
    """The arrangement of the whole table that lays the most hand cards.

    ``table`` is the table's cards (a flat list, or a list of melds); every one
    of them stays on the table. ``objective="cards"`` maximises the number of
    hand cards laid (ties: the most points), ``"points"`` the points laid (ties:
    the most cards); ``points`` is a card value function, a Profile (scoring
    values and joker penalty) or None (2-10 face, courts 10, ace 11, joker 25).
    The result is a proven optimum unless a limit cut the search, in which
    case ``optimal`` is False and nothing is laid. ``time_limit`` (seconds)
    suits a person waiting; ``max_states`` (search states, with HiGHS held to
    a node count) gives the same answer on any machine under any load, which
    seeded simulations need."""
    if objective not in ("cards", "points"):
        raise ValueError(f"objective must be 'cards' or 'points', not {objective!r}")
    given_melds: list[list[Card]] | None = None
    if table and not isinstance(table[0], Card) and isinstance(table[0], (list, tuple)):
        given_melds = [list(mm) for mm in table]
        table = [c for mm in given_melds for c in mm]
    table = list(table)
    hand = list(hand)
    value = _points_function(points)
    big = 1 + sum(max(0, value(c)) for c in hand)
    if objective == "cards":
        weight = lambda c: big + value(c)  # noqa: E731
    else:
        weight = lambda c: value(c) * (len(hand) + 1) + 1  # noqa: E731
    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def fallback(optimal: bool, feasible: bool) -> Solution:
        melds = given_melds if given_melds is not None else ([table] if table else [])
        return Solution(
            melds=[list(mm) for mm in melds], laid=[], max_cards_laid=0, optimal=optimal, feasible=feasible
        )

    live = _live_hand(table, hand, rules)
    try:
        if rules.wrap:
            found = _search_solve(table, live, rules, weight, deadline, max_states)
        else:
            found = _sweep_solve(
                table,
                live,
                rules,
                weight,
                deadline,
                big if objective == "cards" else len(hand) + 1,
                max_states,
            )
    except SolverTimeout:
        return fallback(False, True)
    if found is None:
        return fallback(True, False)
    melds = found
    laid = _laid_cards(melds, table)
    sol = Solution(
        melds=melds,
        laid=laid,
        max_cards_laid=len(laid),
        optimal=True,
        points_laid=sum(value(c) for c in laid),
    )
    problem = check_solution(table, hand, sol, rules)
    if problem:  # pragma: no cover - a bug, never a rules question
        raise AssertionError(f"solver produced an invalid table: {problem}")
    return sol


def _live_hand(table: Sequence[Card], hand: Sequence[Card], rules: MeldRules) -> list[Card]:
    """The hand without the cards that fit no meld at all, even with every card
    of the table and the hand free: such a card is never laid, and dropping it
    sharpens the search bound. Repeated until nothing more drops."""
    hand = list(hand)
    jokers = sum(1 for c in list(table) + hand if c.suit == JOKER_SUIT)
    jmax = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    tfaces = Counter(c[:2] for c in table if c.suit != JOKER_SUIT)
    if rules.wrap:
        return hand
    lo_b, hi_b = rules.low_bound, rules.high_bound
    while True:
        avail = tfaces + Counter(c[:2] for c in hand if c.suit != JOKER_SUIT)

        def fits(face: tuple[int, int]) -> bool:
            r, s = face
            # a set at this rank
            if rules.set_distinct_suits:
                others = sum(1 for x in range(4) if x != s and avail.get((r, x)))
                if (
                    others >= 1
                    and others + 1 + min(jmax, 4) >= rules.set_min
                    and rules.min_naturals <= others + 1
                ):
                    return True
                if others + 1 + jmax >= rules.set_min and 1 + others >= rules.min_naturals:
                    return True
            else:
                n = sum(avail.get((r, x), 0) for x in range(4))
                if n + jmax >= rules.set_min and n >= rules.min_naturals:
                    return True
            # a run of run_min places holding this face
            L = rules.run_min
            for p in rules.places_of(r):
                for lo in range(p - L + 1, p + 1):
                    if lo < lo_b or lo + L - 1 > hi_b:
                        continue
                    nat = sum(1 for q in range(lo, lo + L) if avail.get((1 if q == 14 else q, s)))
                    if L - nat <= jmax and nat >= rules.min_naturals:
                        return True
            return False

        keep = [c for c in hand if c.suit == JOKER_SUIT or fits(c[:2])]
        if len(keep) == len(hand):
            return keep
        hand = keep


def _laid_cards(melds: list[list[Card]], table: Sequence[Card]) -> list[Card]:
    tab = Counter(table)
    out = []
    for c in (c for mm in melds for c in mm):
        if tab[c]:
            tab[c] -= 1
        else:
            out.append(c)
    return out


def check_solution(
    table: Sequence[Card], hand: Sequence[Card], sol: Solution, rules: MeldRules
) -> str | None:
    """None if the solution is sound: every meld valid by read_meld, every table
    card kept, the laid cards from the hand; else a reason."""
    for mm in sol.melds:
        if read_meld(mm, rules) is None:
            return f"invalid meld {[str(c) for c in mm]}"
    down = Counter(c for mm in sol.melds for c in mm)
    tab = Counter(table)
    if tab - down:
        return "table cards lost: " + " ".join(str(c) for c in (tab - down).elements())
    extra = down - tab
    if extra - Counter(hand):
        return "cards laid that are not in the hand"
    if Counter(sol.laid) != extra:
        return "laid list does not match the table"
    if sol.max_cards_laid != len(sol.laid):
        return "max_cards_laid does not match laid"
    return None


USE_LP = True  # the certified linear-programming path (needs scipy); False: the search alone


def _lp_path(model: _Model, deadline):
    """HiGHS's arrangement with its exact certificate (rami_core.solver_lp), or None."""
    if not USE_LP or not model.t:
        return None
    from . import solver_lp

    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        raise SolverTimeout
    return solver_lp.lp_solve(model.t, model.a, model.JT, model.J, model.w, model.wj, model.rules, left)


def _layouts_to_faces(layouts):
    runs, sets = [], []
    for lay in layouts:
        if lay[0] == "run":
            runs.append((lay[1], lay[2], list(lay[3])))
        else:
            sets.append((lay[1], list(lay[2]), lay[3]))
    return runs, sets


LP_BUDGET = 2500  # search states before the certified LP is asked (a hard position)


class _Budget(Exception):
    """The search used its state budget (the memo stays valid)."""


def _run(sweep: _Sweep, model: _Model, deadline):
    """Solve one sweep; past its state budget, ask the certified LP. Returns
    (faces runs, sets) of an optimal arrangement, or None if none exists."""
    sweep.budget = LP_BUDGET if (USE_LP and model.t) else None
    try:
        v = sweep.solve()
    except _Budget:
        lp = _lp_path(model, deadline)
        if lp is not None and lp.proven:
            return _layouts_to_faces(lp.layouts)
        sweep.budget = None
        if lp is not None:
            sweep.cap = lp.bound
            if lp.value is not None:
                sweep.incumbent = lp.value
        v = sweep.solve()
        if lp is not None and lp.value is not None and (v == NEG or v <= lp.value):
            return _layouts_to_faces(lp.layouts)
    if v == NEG:
        return None
    # the limits cut the search, not the reading of an optimum it has proven
    sweep.max_states, sweep.deadline = 1 << 62, None
    return sweep.rebuild()


def _sweep_solve(
    table, hand, rules, weight, deadline, gran: int = 1, max_states: int | None = None
) -> list[list[Card]] | None:
    model = _Model(table, hand, rules, weight)
    sweep = _Sweep(model, deadline, max_states)
    sweep.gran = gran
    # the relaxation and the asks from the top pay off when a table must be
    # rearranged; a hand alone is small and searched from below
    sweep.use_h = USE_H and bool(table)
    found = _run(sweep, model, deadline)
    if found is None:
        return None
    return _materialise(*found, table, hand, model)


def _materialise(runs, sets, table, hand, model: _Model) -> list[list[Card]]:
    """Faces to physical cards: table copies first, then hand copies."""
    pool: dict[tuple[int, int], list[Card]] = {}
    for c in sorted(table, key=lambda c: c.copy):
        pool.setdefault(c[:2], []).append(c)
    for c in sorted(hand, key=lambda c: c.copy):
        pool.setdefault(c[:2], []).append(c)
    jpool = [c for c in table if c.suit == JOKER_SUIT] + [c for c in hand if c.suit == JOKER_SUIT]
    melds: list[list[Card]] = []
    for suit, start, items in runs:
        meld = []
        for i, kind in enumerate(items):
            if kind == "J":
                meld.append(jpool.pop(0))
            else:
                meld.append(pool[(model.rank(start + i), suit)].pop(0))
        melds.append(meld)
    for rank, suits, nj in sets:
        meld = [pool[(rank, s)].pop(0) for s in suits]
        meld += [jpool.pop(0) for _ in range(nj)]
        melds.append(meld)
    return melds


# --------------------------------------------------------------------------- exact search over melds (wrap)


def _candidate_melds(avail: Counter, jokers: int, rules: MeldRules) -> list[tuple[tuple, int]]:
    """Every meld as (sorted faces tuple, jokers) buildable from ``avail`` faces and ``jokers``."""
    out: set[tuple[tuple, int]] = set()
    jmax = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    # runs
    if rules.wrap:
        windows = [(lo, n) for n in range(rules.run_min, 14) for lo in range(1, 14)]
    else:
        lo_b, hi_b = rules.low_bound, rules.high_bound
        windows = [(lo, n) for n in range(rules.run_min, hi_b - lo_b + 2) for lo in range(lo_b, hi_b - n + 2)]
    for s in range(4):
        if not any(avail.get((r, s)) for r in range(1, 14)):
            continue
        for lo, n in windows:
            faces = [((lo + i - 1) % 13 + 1, s) for i in range(n)]
            have = [f for f in faces if avail.get(f)]
            missing = n - len(have)
            if missing > jmax or len(have) < rules.min_naturals or not have:
                continue
            # a window may also leave present faces to jokers: only useful when
            # the face is short; keep it exact by allowing any subset when jokers allow
            out.add((tuple(sorted(have)), missing))
            for k in range(1, min(len(have), jmax - missing) + 1):
                for drop in combinations(have, k):
                    keep = [f for f in have if f not in drop]
                    if len(keep) >= max(1, rules.min_naturals):
                        out.add((tuple(sorted(keep)), missing + k))
    # sets
    size_max = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
    for r in range(1, 14):
        faces = [
            (r, s)
            for s in range(4)
            for _ in range(
                avail.get((r, s), 0) if not rules.set_distinct_suits else min(1, avail.get((r, s), 0))
            )
        ]
        for n in range(1, min(len(faces), size_max) + 1):
            for combo in set(combinations(faces, n)):
                if n < rules.min_naturals:
                    continue
                for j in range(jmax + 1):
                    if rules.set_min <= n + j <= size_max:
                        out.add((tuple(sorted(combo)), j))
    return [mm for mm in out if all(Counter(mm[0])[f] <= avail.get(f, 0) for f in set(mm[0]))]


def _search_solve(
    table, hand, rules, weight, deadline, max_states: int | None = None
) -> list[list[Card]] | None:
    """Exact memoised search over melds: cover every table card, then lay the
    best subset of the hand. Used where the sweep does not apply (wrap)."""
    t = Counter(c[:2] for c in table if c.suit != JOKER_SUIT)
    a = t + Counter(c[:2] for c in hand if c.suit != JOKER_SUIT)
    JT = sum(1 for c in table if c.suit == JOKER_SUIT)
    J = JT + sum(1 for c in hand if c.suit == JOKER_SUIT)
    w = {}
    for c in hand:
        w.setdefault(c[:2] if c.suit != JOKER_SUIT else "J", weight(c))
    faces = sorted(a)
    cands = _candidate_melds(a, J, rules)
    by_face: dict = {}
    for mm in cands:
        for f in set(mm[0]):
            by_face.setdefault(f, []).append(mm)
    jcands = [mm for mm in cands if mm[1]]
    memo: dict = {}
    idx = {f: i for i, f in enumerate(faces)}
    calls = [0]

    def rec(state: tuple, jl: int):
        """state: (table left, total left) per face; jl: jokers left (table jokers first)."""
        key = (state, jl)
        if key in memo:
            return memo[key]
        calls[0] += 1
        if max_states is not None and calls[0] >= max_states:
            raise SolverTimeout
        if deadline is not None and not (calls[0] & 255) and time.perf_counter() > deadline:
            raise SolverTimeout
        tj_left = max(0, jl - (J - JT))
        best = (NEG, None)
        first = None
        for i, (tl, al) in enumerate(state):
            if tl:
                first = faces[i]
                break
        if first is None and tj_left == 0:
            # every table card is down: the hand part, optional
            best = (0, None)
            first_h = next((faces[i] for i, (tl, al) in enumerate(state) if al), None)
            if first_h is not None:
                st = list(state)
                i = idx[first_h]
                st[i] = (0, 0)
                best = max(best, (rec(tuple(st), jl)[0], ("skip", first_h)), key=lambda x: x[0])
                options = by_face.get(first_h, [])
            else:
                options = jcands if jl else []
        elif first is None:
            options = jcands
        else:
            options = by_face.get(first, [])
        for mm in options:
            fs, nj = mm
            if nj > jl:
                continue
            need = Counter(fs)
            st = list(state)
            gain = 0
            ok = True
            for f, k in need.items():
                i = idx[f]
                tl, al = st[i]
                if al < k:
                    ok = False
                    break
                use_t = min(tl, k)
                gain += (k - use_t) * w.get(f, 0)
                st[i] = (tl - use_t, al - k)
            if not ok:
                continue
            # jokers: table jokers first
            hand_j_used = max(0, nj - max(0, jl - (J - JT)))
            gain += hand_j_used * w.get("J", 0)
            sub = rec(tuple(st), jl - nj)[0]
            if sub == NEG:
                continue
            if sub + gain > best[0]:
                best = (sub + gain, ("meld", mm, tuple(st), jl - nj))
        memo[key] = best
        return best

    start = tuple((t.get(f, 0), a.get(f, 0)) for f in faces)
    if rec(start, J)[0] == NEG:
        return None
    # rebuild
    chosen = []
    state, jl = start, J
    while True:
        val, step = memo[(state, jl)]
        if step is None:
            break
        if step[0] == "skip":
            st = list(state)
            st[idx[step[1]]] = (0, 0)
            state = tuple(st)
            continue
        _, mm, st, jl2 = step
        chosen.append(mm)
        state, jl = st, jl2
    return _materialise_melds(chosen, table, hand, rules)


def _materialise_melds(chosen, table, hand, rules) -> list[list[Card]]:
    pool: dict[tuple[int, int], list[Card]] = {}
    for c in sorted(table, key=lambda c: c.copy):
        pool.setdefault(c[:2], []).append(c)
    for c in sorted(hand, key=lambda c: c.copy):
        pool.setdefault(c[:2], []).append(c)
    jpool = [c for c in table if c.suit == JOKER_SUIT] + [c for c in hand if c.suit == JOKER_SUIT]
    melds = []
    for fs, nj in chosen:
        cards = [pool[f].pop(0) for f in fs]
        jokers = [jpool.pop(0) for _ in range(nj)]
        melds.append(_written_order(cards, jokers, rules))
    return melds


def _written_order(cards: list[Card], jokers: list[Card], rules: MeldRules) -> list[Card]:
    """Write a meld so that read_meld accepts it (runs in place order)."""
    if read_set(cards + jokers, rules) is not None and len({c.suit for c in cards}) > 1:
        return cards + jokers
    reading = read_meld(cards + jokers, rules)
    if reading is not None:
        return list(reading.cards)
    return cards + jokers


# --------------------------------------------------------------------------- public: best opening


def _meld_candidates_with_points(hand: Sequence[Card], rules: MeldRules, allow_jokers: bool, score: dict):
    """Every meld buildable from the hand, as (cards written in order, reading, points).

    Each meld multiset appears with the written order giving it the most points
    (the engine reads the meld in the order it is written)."""
    nat = [c for c in hand if c.suit != JOKER_SUIT]
    jok = [c for c in hand if c.suit == JOKER_SUIT] if allow_jokers else []
    by_face: dict[tuple[int, int], list[Card]] = {}
    for c in nat:
        by_face.setdefault(c[:2], []).append(c)
    out: dict[tuple, tuple[list[Card], Reading, int]] = {}
    jmax = len(jok) if rules.max_jokers is None else min(len(jok), rules.max_jokers)

    def consider(cards: list[Card]):
        reading = read_meld(cards, rules)
        if reading is None:
            return
        pts = meld_points(reading, **score)
        key = tuple(sorted(cards))
        old = out.get(key)
        if old is None or pts > old[2] or (pts == old[2] and reading.pure and not old[1].pure):
            out[key] = (list(cards), reading, pts)

    # runs, written in place order, jokers at their places. A run that splits
    # into two valid runs is left out: the two halves lay the same cards for
    # the same points (no half starts at place 1 unless the whole run does),
    # and are pure wherever the whole run is. Wrapping runs are all kept (a
    # half starting on the ace would count it low).
    L = rules.run_min
    N = max(1, rules.min_naturals)
    lo_b, hi_b = rules.low_bound, rules.high_bound
    if rules.wrap:
        windows = [(lo, n) for n in range(L, 14) for lo in range(1, 14)]
    else:
        # every piece of L places holds N naturals when jmax <= L - N: then every
        # run of 2L places or more splits
        longest = 2 * L - 1 if SPLIT_LONG_RUNS and jmax <= L - N else hi_b - lo_b + 1
        windows = [
            (lo, n) for n in range(L, min(longest, hi_b - lo_b + 1) + 1) for lo in range(lo_b, hi_b - n + 2)
        ]
    for s in range(4):
        for lo, n in windows:
            places = [lo + i for i in range(n)]
            faces = [((p - 1) % 13 + 1, s) for p in places]
            present = [i for i, f in enumerate(faces) if f in by_face]
            if len(present) + jmax < n:
                continue
            # choose which present places take a natural (others take jokers)
            for k in range(max(1, rules.min_naturals, n - jmax), len(present) + 1):
                for chosen in combinations(present, k):
                    cs = set(chosen)
                    if SPLIT_LONG_RUNS and n >= 2 * L and not rules.wrap and _splits(cs, n, L, N):
                        continue
                    js = list(jok)
                    cards = []
                    for i, f in enumerate(faces):
                        cards.append(by_face[f][0] if i in cs else js.pop())
                    consider(cards)
    # sets
    size_max = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
    for r in range(1, 14):
        if rules.set_distinct_suits:
            faces = [by_face[(r, s)][0] for s in range(4) if (r, s) in by_face]
        else:
            faces = [c for s in range(4) for c in by_face.get((r, s), [])]
        for n in range(max(1, rules.min_naturals), min(len(faces), size_max) + 1):
            for combo in combinations(faces, n):
                for j in range(jmax + 1):
                    if rules.set_min <= n + j <= size_max:
                        consider(list(combo) + jok[:j])
    return list(out.values())


SPLIT_LONG_RUNS = True  # False: every run window (the reference the tests compare with)


def _splits(naturals: set[int], n: int, L: int, N: int) -> bool:
    """A run of n places with naturals at these places splits into two runs of
    at least L places and N naturals each."""
    for k in range(L, n - L + 1):
        first = sum(1 for i in naturals if i < k)
        if first >= N and len(naturals) - first >= N:
            return True
    return False


def best_opening(
    hand: Sequence[Card], rules: MeldRules, opening, *, score: dict | None = None
) -> list[list[Card]] | None:
    """The opening (melds from the hand only) that meets the opening settings and
    lays the most cards (ties: the most points), or None if there is none.

    ``opening`` is a ``profile.Opening`` (points, pure_run, run_and_set, jokers).
    Points follow ``meld_points`` on the meld as it is written (an ace counts 1
    at the bottom of a run, 11 elsewhere; a joker as the face it stands for);
    ``score`` passes ``ace``, ``ace_low`` and ``court`` to it."""
    score = dict(score or {})
    need_points = getattr(opening, "points", 0) or 0
    need_pure = bool(getattr(opening, "pure_run", False))
    need_run_set = bool(getattr(opening, "run_and_set", False))
    allow_jokers = bool(getattr(opening, "jokers", True))
    hand = list(hand)
    cands = _meld_candidates_with_points(hand, rules, allow_jokers, score)
    if not cands:
        return None
    # index candidates by their lowest card (exact cover style search)
    ids = {c: i for i, c in enumerate(sorted(set(hand)))}
    masks = []
    for cards, reading, pts in cands:
        # physical cards: each candidate names specific copies; treat equal faces as
        # interchangeable by counting faces instead
        masks.append((Counter(c for c in cards), reading, pts, cards))
    pool0 = Counter(hand)
    # Faces matter, copies not: rewrite cards as faces with counts
    face_of = lambda c: c[:2]  # noqa: E731
    pool = Counter(face_of(c) for c in hand)
    items = []
    for need, reading, pts, cards in masks:
        fneed = Counter(face_of(c) for c in cards)
        items.append((fneed, reading, pts, cards))
    items.sort(key=lambda it: (-sum(it[0].values()), -it[2]))
    faces_sorted = sorted(pool)
    by_first: dict = {}
    for it in items:
        first = min(it[0])
        by_first.setdefault(first, []).append(it)
    best: list = [(-1, -1), None]
    total_cards = sum(pool.values())

    def rec(
        left: Counter,
        chosen: list,
        ncards: int,
        pts: int,
        pure: bool,
        has_run: bool,
        has_set: bool,
        remaining: int,
    ):
        if ncards + remaining < best[0][0]:
            return
        ok = (
            pts >= need_points
            and (pure or not need_pure)
            and ((has_run and has_set) or not need_run_set)
            and chosen
        )
        if ok and (ncards, pts) > best[0]:
            best[0] = (ncards, pts)
            best[1] = list(chosen)
        first = next((f for f in faces_sorted if left[f]), None)
        if first is None:
            return
        for fneed, reading, p, cards in by_first.get(first, []) + [
            it for f in faces_sorted if f > first and left[f] for it in []
        ]:
            if all(left[f] >= k for f, k in fneed.items()):
                for f, k in fneed.items():
                    left[f] -= k
                n = sum(fneed.values())
                chosen.append(cards)
                rec(
                    left,
                    chosen,
                    ncards + n,
                    pts + p,
                    pure or reading.pure,
                    has_run or reading.kind == RUN,
                    has_set or reading.kind == SET,
                    remaining - n,
                )
                chosen.pop()
                for f, k in fneed.items():
                    left[f] += k
        # or leave one copy of `first` out of every meld
        left[first] -= 1
        rec(left, chosen, ncards, pts, pure, has_run, has_set, remaining - 1)
        left[first] += 1

    rec(Counter(pool), [], 0, 0, False, False, False, total_cards)
    if best[1] is None:
        return None
    # the candidates name the first copy of each face; give distinct physical cards
    spare: dict[tuple[int, int], list[Card]] = {}
    for c in hand:
        spare.setdefault(face_of(c), []).append(c)
    melds = []
    for cards in best[1]:
        melds.append([spare[face_of(c)].pop(0) for c in cards])
    del pool0, ids
    return melds


# --------------------------------------------------------------------------- public: lay offs


def _addition_options(idx: int, reading: Reading, hand: list[Card], rules: MeldRules):
    """Every way to add hand cards to one positional meld: list of
    (faces used Counter, naturals, jokers with faces, new reading)."""
    nat = [c for c in hand if c.suit != JOKER_SUIT]
    jok = [c for c in hand if c.suit == JOKER_SUIT]
    by_face: dict[tuple[int, int], Card] = {}
    for c in nat:
        by_face.setdefault(c[:2], c)
    out = []
    if reading.kind == SET:
        held = {s for (_r, s) in reading.stands}
        room = (min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max) - len(reading.cards)
        cands = [
            by_face[(reading.rank, s)]
            for s in range(4)
            if (reading.rank, s) in by_face and (s not in held or not rules.set_distinct_suits)
        ]
        for n in range(min(room, len(cands)) + 1):
            for combo in combinations(cands, n):
                for j in range(min(room - n, len(jok)) + 1):
                    if n + j == 0:
                        continue
                    res = lay_off_positional(reading, list(combo), [(x, None) for x in jok[:j]], rules)
                    if isinstance(res, Reading):
                        out.append((list(combo), [(x, None) for x in jok[:j]], res))
        return out
    # a run: extend down by d places and up by u places
    lo, hi, suit = reading.start, reading.end, reading.suit
    lo_lim = rules.low_bound if not rules.wrap else lo - (13 - len(reading.cards))
    hi_lim = rules.high_bound if not rules.wrap else hi + (13 - len(reading.cards))
    for d in range(lo - lo_lim + 1):
        for u in range(hi_lim - hi + 1):
            if d + u == 0 or d + u + len(reading.cards) > (13 if rules.wrap else 14):
                continue
            places = list(range(lo - d, lo)) + list(range(hi + 1, hi + u + 1))
            faces = [((p - 1) % 13 + 1, suit) for p in places]
            present = [i for i, f in enumerate(faces) if f in by_face]
            missing = len(places) - len(present)
            if missing > len(jok):
                continue
            # naturals where present; optionally jokers in their place
            for k in range(min(len(present), len(jok) - missing) + 1):
                for drop in combinations(present, k):
                    js = list(jok)
                    naturals, jokers = [], []
                    for i, f in enumerate(faces):
                        if i in present and i not in drop:
                            naturals.append(by_face[f])
                        else:
                            jokers.append((js.pop(), f))
                    res = lay_off_positional(reading, naturals, jokers, rules)
                    if isinstance(res, Reading):
                        out.append((naturals, jokers, res))
    return out


def best_lay_offs(
    table_readings: Sequence[Reading], hand: Sequence[Card], rules: MeldRules, *, new_melds: bool = True
) -> LayOffPlan:
    """The most hand cards that can go down where table melds keep their places:
    lay offs at run ends and into sets' missing suits (checked by
    ``lay_off_positional``), plus new melds from the rest of the hand. Exact:
    every combination of lay offs is tried with a bound, and the new melds of
    what is left come from :func:`solve` with an empty table.

    ``new_melds=False`` skips the new melds: for a hand known to hold none
    (the greedy bot's cheap ``meldable`` test says so), the same search and
    the same plan without a solver call at every leaf."""
    hand = list(hand)
    face = lambda c: c[:2] if c.suit != JOKER_SUIT else "J"  # noqa: E731
    options = []
    for i, rd in enumerate(table_readings):
        opts = _addition_options(i, rd, hand, rules)
        if opts:
            needs = [
                (Counter(face(c) for c in nats) + Counter("J" for _ in joks), nats, joks, res)
                for nats, joks, res in opts
            ]
            options.append((i, needs))
    hand_faces = Counter(face(c) for c in hand)
    best = [-1, None]
    new_cache: dict = {}

    def new_melds_for(left: Counter) -> tuple[int, list[list[Card]]]:
        if not new_melds:
            return 0, []
        key = tuple(sorted(left.items(), key=str))
        if key not in new_cache:
            cards = []
            spare = list(hand)
            for f, k in left.items():
                for _ in range(k):
                    c = next(x for x in spare if face(x) == f)
                    spare.remove(c)
                    cards.append(c)
            sol = solve([], cards, rules)
            new_cache[key] = (sol.max_cards_laid, sol.melds)
        return new_cache[key]

    def rec(k: int, left: Counter, chosen: list, laid: int):
        if laid + sum(left.values()) <= best[0]:
            return
        if k == len(options):
            n, melds = new_melds_for(+left)
            if laid + n > best[0]:
                best[0] = laid + n
                best[1] = (list(chosen), melds)
            return
        i, opts = options[k]
        for need, naturals, jokers, res in opts:
            if any(left[f] < n for f, n in need.items()):
                continue
            rec(k + 1, left - need, chosen + [(i, naturals, jokers, res)], laid + len(naturals) + len(jokers))
        rec(k + 1, left, chosen, laid)

    rec(0, Counter(hand_faces), [], 0)
    plan = LayOffPlan()
    if best[1] is None:
        return plan
    chosen, from_hand = best[1]
    spare = list(hand)

    def take(c: Card) -> Card:
        x = next(x for x in spare if face(x) == face(c))
        spare.remove(x)
        return x

    for i, naturals, jokers, res in chosen:
        nats = [take(c) for c in naturals]
        joks = [(take(j), f) for j, f in jokers]
        final = lay_off_positional(table_readings[i], nats, joks, rules)
        assert isinstance(final, Reading), final
        plan.lay_offs.append((i, nats, joks))
        plan.readings[i] = final
        plan.laid.extend(nats + [j for j, _ in joks])
    for mm in from_hand:
        real = [take(c) for c in mm]
        assert read_meld(real, rules) is not None
        plan.new_melds.append(real)
        plan.laid.extend(real)
    return plan
