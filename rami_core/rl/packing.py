"""The melds a hand could lay, and what the best packing of them could reach.

The action mask must say whether a pending group can still grow into a lay
the engine accepts. Before an opening that is a question about every way
of packing the hand into melds (51 points with a pure run, a run and a
set, the whole hand at once). Asking the engine about each packing costs
thousands of verdicts with jokers in hand; this module answers the
"surely not" part without the engine, so that the engine is asked only
where an accepted lay may exist:

- `candidates`: every group of the hand's faces the meld reader reads (a
  meld is a run of one suit or a set of one rank, with jokers);
- `PackingBounds.best`: for a multiset of cards, the most points that
  packings of disjoint candidates reach, for each combination of kinds they
  hold (a pure run, a run, a set), by dynamic programming over the lowest
  card;
- `PackingBounds.opening_in_reach`: whether melds added to a lay could make
  it meet `opening.opening_problem`, clause by clause (a necessary
  condition: where it says yes, the engine still judges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..melds import RUN, SET, read_meld
from ..rules import OpeningNeed, Rules
from .draft import Group
from .faces import FACES, JOKER_INDEX

# Kinds a packing holds, as bits.
PURE = 1
ANY_RUN = 2
ANY_SET = 4

Counts = tuple[int, ...]  # copies per face, FACES long


@dataclass(frozen=True)
class Candidate:
    """A group the meld reader reads, with what an opening counts of it."""

    group: Group
    need: tuple[tuple[int, int], ...]  # (face, copies)
    points: int
    kinds: int  # PURE | ANY_RUN | ANY_SET bits
    jokers: int


def candidates(
    hand: Counts, rules: Rules, known: dict[Group, Candidate | None] | None = None
) -> list[Candidate]:
    """Every group of the hand's faces that the meld reader reads as a meld,
    most points first. Complete: a meld's naturals share a suit (a run, one
    card per rank) or a rank (a set, copies allowed), and jokers are added
    in every number the hand holds and the rules allow, written low or not.
    `known`: groups already read under these rules (a game's hands share
    most of them from one state to the next), filled in as groups are read."""
    if known is None:
        known = {}
    mr = rules.melds
    jokers = hand[JOKER_INDEX]
    if mr.max_jokers is not None:
        jokers = min(jokers, mr.max_jokers)
    naturals: set[tuple[int, ...]] = set()
    if mr.min_naturals <= 0:
        naturals.add(())
    for suit in range(4):  # runs: naturals of one suit, one per rank
        naturals.update(_run_naturals([suit * 13 + r for r in range(13) if hand[suit * 13 + r]], jokers))
    for rank in range(13):  # sets: naturals of one rank, copies included
        pool = [su * 13 + rank for su in range(4) for _ in range(hand[su * 13 + rank])]
        top = min(len(pool), mr.set_max)
        for size in range(1, top + 1):
            naturals.update(combinations(pool, size))
    seen: set[Group] = set()
    out: list[Candidate] = []
    for nat in naturals:
        for j in range(jokers + 1):
            for low in range(j + 1) if j else (0,):
                g = Group(low, tuple(sorted(nat + (JOKER_INDEX,) * (j - low))))
                if g in seen or not g.size:
                    continue
                seen.add(g)
                if g in known:
                    c = known[g]
                else:
                    c = known[g] = _read(g, rules, j)
                if c is not None:
                    out.append(c)
    out.sort(key=lambda c: (-c.points, c.group))
    return out


def _read(g: Group, rules: Rules, jokers: int) -> Candidate | None:
    r = read_meld(g.written(), rules.melds)
    if r is None:
        return None
    kinds = (PURE if r.pure else 0) | (ANY_RUN if r.kind == RUN else 0)
    kinds |= ANY_SET if r.kind == SET else 0
    return Candidate(g, tuple(sorted(g.faces().items())), rules.meld_value(r), kinds, jokers)


def _run_naturals(pool: list[int], jokers: int) -> set[tuple[int, ...]]:
    """The naturals of one suit (one per rank) that `jokers` jokers could
    join into a run: their ranks lie on an arc of the rank circle (the circle
    holds runs through the ace, high or wrapping) with at most `jokers`
    ranks missing inside it."""
    out: set[tuple[int, ...]] = set()
    n = len(pool)
    for a in range(n):  # the arc from pool[a], clockwise, to pool[(a + span) % n]
        for span in range(n):
            b = (a + span) % n
            inside = [pool[(a + i) % n] for i in range(1, span)] if span else []
            length = (pool[b] - pool[a]) % 13 + 1
            if length - (span + 1) > jokers:
                break
            ends = (pool[a],) if span == 0 else (pool[a], pool[b])
            # Any interior naturals may stay out while the jokers still fill the gaps.
            spare = jokers - (length - (span + 1))
            for drop in range(min(spare, len(inside)) + 1):
                for out_of in combinations(inside, drop):
                    kept = [f for f in inside if f not in out_of]
                    out.add(tuple(sorted((*ends, *kept))))
    return out


class PackingBounds:
    """What packings of candidate melds can reach, per multiset of cards
    (memoised: the searches of one state share it)."""

    def __init__(self, cands: Sequence[Candidate]):
        self.cands = list(cands)
        self._with_face: list[list[int]] = [[] for _ in range(FACES)]
        for i, c in enumerate(self.cands):
            for f, _ in c.need:
                self._with_face[f].append(i)
        self._best: dict[tuple[Counts, bool], dict[int, int]] = {}
        self._cover: dict[Counts, int] = {}

    def holding(self, face: int) -> list[int]:
        """The candidates holding `face`, most points first."""
        return self._with_face[face]

    def fits(self, i: int, room: Counts) -> bool:
        return all(room[f] >= n for f, n in self.cands[i].need)

    def best(self, room: Counts, jokerless: bool = False) -> dict[int, int]:
        """Kinds held -> the most points of a packing of disjoint candidates
        within `room` (the empty packing included); `jokerless`: candidates
        without a joker only."""
        key = (room, jokerless)
        hit = self._best.get(key)
        if hit is not None:
            return hit
        x = next((f for f in range(FACES) if room[f]), None)
        out: dict[int, int] = {0: 0}
        if x is not None:
            rest = list(room)
            rest[x] -= 1
            out = dict(self.best(tuple(rest), jokerless))  # x stays out of every meld
            for i in self._with_face[x]:
                c = self.cands[i]
                if jokerless and c.jokers:
                    continue
                left = list(room)
                for f, n in c.need:
                    left[f] -= n
                if min(left) < 0:
                    continue
                for kinds, pts in self.best(tuple(left), jokerless).items():
                    k = kinds | c.kinds
                    if out.get(k, -1) < pts + c.points:
                        out[k] = pts + c.points
        self._best[key] = out
        return out

    def uncovered(self, room: Counts) -> int:
        """Cards of `room` that no candidate within `room` holds: at least
        that many stay in hand whatever is laid."""
        hit = self._cover.get(room)
        if hit is None:
            held = [False] * FACES
            for f in range(FACES):
                if room[f] and not held[f]:
                    for i in self._with_face[f]:
                        if self.fits(i, room):
                            for g, _ in self.cands[i].need:
                                held[g] = True
                            break
            hit = sum(n for f, n in enumerate(room) if n and not held[f])
            self._cover[room] = hit
        return hit

    def opening_in_reach(
        self,
        rules: Rules,
        laid: Sequence[Candidate],
        room: Counts,
        *,
        need: OpeningNeed,
        kept: int,
    ) -> bool:
        """Whether `laid` plus melds from `room` could pass
        `opening.opening_problem` for `need` (``Rules.opening_need``, the
        partner rule read there); False only when no packing can (each
        clause read there is met by some packing, all by the same one).
        `kept`: the cards a going-out lay leaves in hand (``Rules.kept_going_out``)."""
        op = need
        have = 0
        for c in laid:
            have |= c.kinds
        points = sum(c.points for c in laid)

        def may_go_out() -> bool:
            return self.uncovered(room) <= kept

        def some(pure: bool, run_and_set: bool, min_points: int, jokerless: bool) -> bool:
            if not (run_and_set or min_points):  # at most a pure run asked: one candidate is enough
                return (
                    not pure
                    or bool(have & PURE)
                    or any(c.kinds & PURE and self.fits(i, room) for i, c in enumerate(self.cands))
                )
            for kinds, pts in self.best(room, jokerless).items():
                k = have | kinds
                if pure and not k & PURE:
                    continue
                if run_and_set and not (k & ANY_RUN and k & ANY_SET):
                    continue
                if points + pts < min_points and not (op.go_out_below_points and may_go_out()):
                    continue
                return True
            return False

        if op.all_at_once and not may_go_out():
            return False
        if not op.jokers and any(c.jokers for c in laid):
            return False
        return some(op.pure_run, op.run_and_set, op.points, not op.jokers)
