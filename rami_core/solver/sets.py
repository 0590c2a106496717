"""The sets of one rank: which counts of naturals and jokers split into valid sets.

Pure functions of small tuples, cached across solves.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations, product

from rami_core.cards.melds import MeldRules


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
            (i, *combo) for r in range(len(others) + 1) for combo in combinations(others, r)
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
                return ((sub, j), *tail)
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
        nxt = tuple(sorted((*msum, k), reverse=True)) if k else msum
        if _sets_completable(nxt, caps[1:], jl, rules):
            return True
    return False


@cache
def _set_cap(a_s: int, others: tuple[int, ...], jokers: int, rules: MeldRules) -> int:
    """Most cards of one suit (``a_s`` of them) that the sets of one rank can hold
    when the other suits offer ``others`` cards and ``jokers`` jokers, all free."""
    best = 0
    for k in range(1, a_s + 1):
        ok = False
        for sub in product(*[range(o + 1) for o in others]):
            vec = tuple(sorted((k, *sub), reverse=True)) if rules.set_distinct_suits else (k + sum(sub),)
            if any(_set_groups(vec, j, rules) is not None for j in range(jokers + 1)):
                ok = True
                break
        if not ok:
            break
        best = k
    return best
