"""An exact memoised search over melds, for wrapping runs (K-A-2) where the sweep does not apply.

Correct but exponential: fine for hands and small tables (the only variants
with wrap never rearrange a table), bounded by the same state limit.
"""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations
from typing import Any

from rami_core.cards import Card
from rami_core.cards.melds import MeldRules, read_meld, read_set
from rami_core.solver.pool import CardPool
from rami_core.solver.results import NEG, SolverTimeout


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
    t = Counter(c.face for c in table if not c.is_joker)
    a = t + Counter(c.face for c in hand if not c.is_joker)
    JT = sum(1 for c in table if c.is_joker)
    J = JT + sum(1 for c in hand if c.is_joker)
    w: dict = {}
    for c in hand:
        w.setdefault(c.face if not c.is_joker else "J", weight(c))
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
        best: tuple[int, Any] = (NEG, None)
        first = None
        for i, (tl, _al) in enumerate(state):
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
        _val, step = memo[(state, jl)]
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
    """The search's melds (faces and a joker count) as physical cards, written in order."""
    pool = CardPool(table, hand)
    melds = []
    for fs, nj in chosen:
        cards = [pool.take(f) for f in fs]
        jokers = [pool.take_joker() for _ in range(nj)]
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
