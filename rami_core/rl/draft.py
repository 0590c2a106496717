"""The cards a seat puts aside during its turn before one lay commits them.

A lay of several melds at once (an opening that needs a run and a set, or
51 points over three melds) is one engine action, too large to be one
choice of a fixed action space. The environment lets the seat build it card
by card: the cards go into pending groups, a group is closed, and one
sub-step commits every group as one action. The engine sees only that
action; the groups are a draft the environment keeps, dropped as soon as the
seat makes any other move.

A group is a multiset of faces; jokers come in two kinds, written before
the naturals (standing at the low end of a run) or after them (the engine's
default: a joker takes the highest free place). The group is written for the
engine in one canonical order, so that the same multiset always means the
same meld: low jokers, the naturals by rank with jokers filling the gaps,
then the other jokers.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from rami_core.cards import JOKER, Card
from rami_core.rl.faces import JOKER_INDEX, face_card


@dataclass(frozen=True, order=True)
class Group:
    """`low`: jokers written first; `body`: the other faces (jokers as index 52), sorted."""

    low: int = 0
    body: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return self.low + len(self.body)

    def faces(self) -> Counter[int]:
        c = Counter(self.body)
        if self.low:
            c[JOKER_INDEX] += self.low
        return c

    def add(self, face: int, low: bool = False) -> Group:
        if low:
            return Group(self.low + 1, self.body)
        return Group(self.low, tuple(sorted((*self.body, face))))

    def within(self, other: Group) -> bool:
        """This group can grow into `other` by adding cards."""
        if self.low > other.low:
            return False
        mine, theirs = Counter(self.body), Counter(other.body)
        return all(theirs[f] >= k for f, k in mine.items())

    def written(self) -> tuple[Card, ...]:
        """The group as the engine reads it (DESIGN's written order: a run in
        the order written, else a set, else a run in any order). Worked out
        once per group (the masks write the same groups again and again)."""
        hit = _WRITTEN.get(self)
        if hit is None:
            if len(_WRITTEN) >= _WRITTEN_MAX:
                _WRITTEN.clear()
            hit = _WRITTEN[self] = self._write()
        return hit

    def _write(self) -> tuple[Card, ...]:
        naturals = sorted((face_card(f) for f in self.body if f != JOKER_INDEX), key=lambda c: c.rank)
        jokers = sum(1 for f in self.body if f == JOKER_INDEX)
        out: list[Card] = [JOKER] * self.low
        run_like = len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(naturals)
        if run_like and naturals:
            gaps = sum(b.rank - a.rank - 1 for a, b in itertools.pairwise(naturals))
            if gaps <= jokers:
                for a, b in itertools.pairwise(naturals):
                    out.append(a)
                    out.extend([JOKER] * (b.rank - a.rank - 1))
                out.append(naturals[-1])
                return tuple(out) + (JOKER,) * (jokers - gaps)
        return tuple(out) + tuple(naturals) + (JOKER,) * jokers


# Group -> its written cards (a pure function of the group).
_WRITTEN: dict[Group, tuple[Card, ...]] = {}
_WRITTEN_MAX = 200_000


@dataclass
class Draft:
    """Closed groups and the group being built."""

    closed: list[Group] = field(default_factory=list)
    current: Group = Group()

    @property
    def empty(self) -> bool:
        return not self.closed and self.current.size == 0

    def groups(self) -> list[Group]:
        """Every group that a commit would lay, in the canonical order."""
        out = list(self.closed)
        if self.current.size:
            out.append(self.current)
        return sorted(out)

    def faces(self) -> Counter[int]:
        c: Counter[int] = Counter()
        for g in [*self.closed, self.current]:
            c.update(g.faces())
        return c

    def clear(self) -> None:
        self.closed = []
        self.current = Group()
