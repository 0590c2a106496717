"""Every final table: the exact enumeration behind the uniqueness and depth claims.

The solver proves the most cards that can be laid and gives one arrangement;
a puzzle also claims how many distinct final tables reach its goal and how
few table cards must move to reach one. Both need every arrangement, which
puzzles (a few melds and a few hand cards) make affordable: the smallest
card still to place must go into some meld, so the search picks every valid
meld holding it among the cards left and recurses, memoised on the multiset
left. Meld validity is asked of :func:`rami_core.cards.melds.read_meld` (the one
reading of the rules); this module only proposes candidates, a superset of
the valid melds holding a card.

Cards are handled as faces ``(rank, suit)``: which deck a card came from
never matters to a table, so two tables that differ only by the copies of a
card are one table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product

from rami_core.cards import JOKER, Card
from rami_core.cards.melds import MeldRules, rank_at, read_meld

Face = tuple[int, int]
FaceMeld = tuple[Face, ...]  # a meld written in faces (the action that lays melds is `game.actions.Meld`)
Table = tuple[FaceMeld, ...]

JOKER_FACE: Face = (JOKER.rank, JOKER.suit)
DEFAULT_CAP = 400


def faces(cards: Iterable[Card]) -> list[Face]:
    return [(c.rank, c.suit) for c in cards]


def _physical(meld: Sequence[Face]) -> list[Card]:
    seen: Counter = Counter()
    out = []
    for f in meld:
        out.append(Card(f[0], f[1], seen[f]))
        seen[f] += 1
    return out


class Arranger:
    """Enumerates the partitions of a multiset of cards into valid melds."""

    def __init__(self, rules: MeldRules, cap: int = DEFAULT_CAP, max_nodes: int = 200_000):
        self.rules = rules
        self.cap = cap
        self.max_nodes = max_nodes
        self.nodes = 0
        self.capped = False
        self._memo: dict[tuple[int, ...], frozenset[Table]] = {}
        self._valid: dict[FaceMeld, bool] = {}
        self._cands: dict[tuple, list[tuple[FaceMeld, tuple[int, ...]]]] = {}

    def valid(self, meld: FaceMeld) -> bool:
        got = self._valid.get(meld)
        if got is None:
            got = read_meld(_physical(meld), self.rules) is not None
            self._valid[meld] = got
        return got

    def candidates(self, f: Face, avail: Counter) -> list[FaceMeld]:
        """Every valid meld holding the face ``f`` made of ``avail`` (which holds ``f``)."""
        return self._candidates(f, avail)

    def _candidates(self, f: Face, avail: Counter) -> list[FaceMeld]:
        r = self.rules
        out: set[FaceMeld] = set()
        jokers = avail[JOKER_FACE]
        rank, suit = f
        # sets of this rank
        top = r.set_max if r.set_max else 4
        per_suit = [range(min(avail[(rank, s)], 1 if r.set_distinct_suits else top) + 1) for s in range(4)]
        for counts in product(*per_suit):
            if counts[suit] < 1:
                continue
            n = sum(counts)
            if n > top:
                continue
            for j in range(min(jokers, top - n) + 1):
                if n + j < r.set_min:
                    continue
                meld = tuple(
                    sorted([(rank, s) for s in range(4) for _ in range(counts[s])] + [JOKER_FACE] * j)
                )
                out.add(meld)
        # runs of this suit through one of the card's places
        longest = 13
        for p in r.places_of(rank):
            for lo in range(max(r.low_bound, p - longest + 1), p + 1):
                for hi in range(max(p, lo + r.run_min - 1), min(r.high_bound, lo + longest - 1) + 1):
                    if not r.window_ok(lo, hi):
                        continue
                    others = [q for q in range(lo, hi + 1) if q != p]
                    choices = []
                    for q in others:
                        nat = (rank_at(q), suit)
                        opts = []
                        if avail[nat] - (1 if nat == f else 0) > 0:
                            opts.append(nat)
                        if jokers:
                            opts.append(JOKER_FACE)
                        if not opts:
                            break
                        choices.append(opts)
                    else:
                        for pick in product(*choices):
                            if pick.count(JOKER_FACE) > jokers:
                                continue
                            used = Counter(pick)
                            used[f] += 1
                            if any(used[x] > avail[x] for x in used):
                                continue
                            out.add(tuple(sorted((f, *pick))))
                        continue
                    break  # a place with neither: every longer window from lo holds it too
        return sorted(m for m in out if self.valid(m))

    def partitions(self, cards: Iterable[Face]) -> frozenset[Table]:
        """Every table (a sorted tuple of sorted melds) that uses all ``cards``,
        up to ``cap`` of them (``capped`` tells when more exist or the node
        budget ran out)."""
        counts = [0] * 53
        for f in cards:
            counts[_index(f)] += 1
        return self._partitions(tuple(counts))

    def _melds_at(self, i: int, counts: tuple[int, ...]) -> list[tuple[FaceMeld, tuple[int, ...]]]:
        """The candidates holding the face of index ``i``, with their indices."""
        rank, suit = i % 13 + 1, i // 13
        key = (i, counts[rank - 1 : 52 : 13], counts[suit * 13 : suit * 13 + 13], counts[52])
        got = self._cands.get(key)
        if got is None:
            avail = Counter({_face(j): n for j, n in enumerate(counts) if n})
            got = [(m, tuple(_index(f) for f in m)) for m in self._candidates((rank, suit), avail)]
            self._cands[key] = got
        return got

    def _partitions(self, counts: tuple[int, ...]) -> frozenset[Table]:
        got = self._memo.get(counts)
        if got is not None:
            return got
        first = next((i for i, n in enumerate(counts) if n), None)
        if first is None:
            return _EMPTY
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.capped = True
            return frozenset()
        if first == 52:  # only jokers left: a meld needs a natural card
            self._memo[counts] = frozenset()
            return self._memo[counts]
        out: set[Table] = set()
        for meld, idx in self._melds_at(first, counts):
            rest = list(counts)
            for j in idx:
                rest[j] -= 1
            for sub in self._partitions(tuple(rest)):
                out.add(tuple(sorted((*sub, meld))))
                if len(out) >= self.cap:
                    self.capped = True
                    break
            if len(out) >= self.cap:
                break
        res = frozenset(out)
        self._memo[counts] = res
        return res


_EMPTY: frozenset[Table] = frozenset({()})


def _index(f: Face) -> int:
    """A face's place in a count vector: suit by suit, ace to king; the joker last."""
    return 52 if f == JOKER_FACE else f[1] * 13 + f[0] - 1


def _face(i: int) -> Face:
    return JOKER_FACE if i == 52 else (i % 13 + 1, i // 13)


def table_key(melds: Iterable[Iterable[Card]]) -> Table:
    """A table as the enumeration writes it (copies ignored, order ignored)."""
    return tuple(sorted(tuple(sorted(faces(m))) for m in melds))


def _assignment(weights: list[list[int]]) -> int:
    """The largest total weight of a matching of rows to distinct columns
    (scipy's linear_sum_assignment, the Hungarian method)."""
    if not weights or not weights[0]:
        return 0
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    w = np.array(weights)
    rows, cols = linear_sum_assignment(w, maximize=True)
    return int(w[rows, cols].sum())


def moves_and_broken(start: Sequence[FaceMeld], final: Sequence[FaceMeld]) -> tuple[int, int]:
    """How far a final table is from the table as it lies.

    Moves: table cards that leave their meld, the fewest over every way of
    following each starting meld into at most one final meld (a meld that
    grows or loses cards at an end keeps the cards that stay). Broken: the
    starting melds not found whole inside a final meld of their own."""
    starts = [Counter(m) for m in start]
    finals = [Counter(m) for m in final]
    kept = [[sum((a & b).values()) for b in finals] for a in starts]
    whole = [[int(not (a - b)) for b in finals] for a in starts]
    total = sum(len(m) for m in start)
    return total - _assignment(kept), len(start) - _assignment(whole)
