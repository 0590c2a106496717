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

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, compress
from operator import attrgetter, gt
from typing import Any

from rami_core.cards.melds import RUN, SET, read_meld
from rami_core.profile.rules import OpeningNeed, Rules
from rami_core.rl.draft import Group
from rami_core.rl.faces import FACES, JOKER_INDEX
from rami_core.solver.sweep import pure_asked  # RAMI_PURE, read as the solver reads it

# Kinds a packing holds, as bits.
PURE = 1
ANY_RUN = 2
ANY_SET = 4

Counts = tuple[int, ...]  # copies per face, FACES long

# Multisets of cards whose bounds one game keeps at most (then forgotten).
MEMO_LIMIT = 200_000

# A multiset of cards also as one integer, WIDTH bits per face (copies of
# face f at bit WIDTH * f): "these cards hold those" is then one subtraction
# (SWAR: each field keeps its top bit as a guard against borrows), and the
# integer is a cheap key for the memo of `best`.
WIDTH = 8
GUARD = sum(1 << (WIDTH * f + WIDTH - 1) for f in range(FACES))
MAX_COPIES = (1 << (WIDTH - 1)) - 1
assert WIDTH == 8  # as_bits reads the counts as bytes


# 1 << (WIDTH * f) per face: the compiled side's "the room without one card of f".
_UNITS = tuple(1 << (WIDTH * f) for f in range(FACES))


@cache
def compiled_packing() -> Any:
    """The C module of `PackingBounds._best_of` (``_packingc``), or None: not
    built on this machine (no compiler at install time), or ``RAMI_PURE=1``
    in the environment (the Python dynamic program everywhere)."""
    if pure_asked():
        return None
    try:
        from rami_core.rl import _packingc  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _packingc


def as_bits(counts: Counts) -> int:
    """The integer of a multiset given as copies per face (FACES long): with
    WIDTH 8 its little-endian bytes (pairs_bits refuses a count out of range)."""
    try:
        raw = bytes(counts)
    except (ValueError, TypeError):
        return pairs_bits(enumerate(counts))
    if raw and max(raw) > MAX_COPIES:
        return pairs_bits(enumerate(counts))
    return int.from_bytes(raw, "little")


def pairs_bits(pairs: Iterable[tuple[int, int]]) -> int:
    """The integer of a multiset given as (face, copies) pairs."""
    out = 0
    for f, n in pairs:
        if n:
            if not 0 < n <= MAX_COPIES:
                raise ValueError(f"{n} copies of face {f}: at most {MAX_COPIES} are counted")
            out |= n << (WIDTH * f)
    return out


def holds_bits(room: int, need: int) -> bool:
    """Every field of `room` is at least that of `need` (both as_bits integers)."""
    return ((room | GUARD) - need) & GUARD == GUARD


@dataclass(frozen=True)
class Candidate:
    """A group the meld reader reads, with what an opening counts of it."""

    group: Group
    need: tuple[tuple[int, int], ...]  # (face, copies)
    points: int
    kinds: int  # PURE | ANY_RUN | ANY_SET bits
    jokers: int
    # The group's body as face -> copies: `holds` asks it for every pending group.
    body: dict[int, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    bits: int = field(default=0, compare=False, hash=False, repr=False)  # `need` as_bits
    # The sort key of candidate lists, most points first: (-points, group)
    # as plain tuples (Group orders as (low, body)), compared at C speed.
    order: tuple = field(default=(), compare=False, hash=False, repr=False)
    # `body` as_bits: `holds` as one subtraction where the mask asks it in a loop
    body_bits: int = field(default=0, compare=False, hash=False, repr=False)

    def holds(self, low: int, body: dict[int, int]) -> bool:
        """A pending group (`low` low jokers, `body` face -> copies) can grow into
        this one by adding cards (Group.within, without building Counters)."""
        if low > self.group.low:
            return False
        mine = self.body
        return all(mine.get(f, 0) >= k for f, k in body.items())


# (naturals, jokers) -> the candidates of those naturals with 0..jokers jokers,
# in `candidates`' order: a memo over `known`, kept and cleared with it.
ByNaturals = dict[tuple[tuple[int, ...], int], tuple[Candidate, ...]]


def candidates(
    hand: Counts,
    rules: Rules,
    known: dict[Group, Candidate | None] | None = None,
    touching: frozenset[int] | None = None,
    by_naturals: ByNaturals | None = None,
) -> list[Candidate]:
    """Every group of the hand's faces that the meld reader reads as a meld,
    most points first. Complete: a meld's naturals share a suit (a run, one
    card per rank) or a rank (a set, copies allowed), and jokers are added
    in every number the hand holds and the rules allow, written low or not.
    `known`: groups already read under these rules (a game's hands share
    most of them from one state to the next), filled in as groups are read.
    `touching`: only the groups holding one of these natural faces.
    `by_naturals`: what `known` gave for a tuple of naturals and a number
    of jokers, kept with it (cleared whenever `known` is: every group of an
    entry is in `known`), so that a tuple seen again is one lookup, with no
    Group built per joker split."""
    if known is None:
        known = {}
    if by_naturals is None:
        by_naturals = {}
    mr = rules.melds
    jokers = hand[JOKER_INDEX]
    if mr.max_jokers is not None:
        jokers = min(jokers, mr.max_jokers)
    naturals: set[tuple[int, ...]] = set()
    if mr.min_naturals <= 0 and touching is None:
        naturals.add(())
    suits = range(4) if touching is None else sorted({f // 13 for f in touching})
    ranks = range(13) if touching is None else sorted({f % 13 for f in touching})
    for suit in suits:  # runs: naturals of one suit, one per rank
        naturals.update(
            _run_naturals_of(tuple(suit * 13 + r for r in range(13) if hand[suit * 13 + r]), jokers)
        )
    for rank in ranks:  # sets: naturals of one rank, copies included
        pool = [su * 13 + rank for su in range(4) for _ in range(hand[su * 13 + rank])]
        top = min(len(pool), mr.set_max)
        for size in range(1, top + 1):
            naturals.update(combinations(pool, size))
    if touching is not None:
        naturals = {nat for nat in naturals if not touching.isdisjoint(nat)}
    out: list[Candidate] = []
    for nat in naturals:
        hit = by_naturals.get((nat, jokers))
        if hit is None:
            hit = by_naturals[nat, jokers] = _read_naturals(nat, jokers, rules, known)
        out.extend(hit)
    out.sort(key=_ORDER)
    return out


def _read_naturals(
    nat: tuple[int, ...], jokers: int, rules: Rules, known: dict[Group, Candidate | None]
) -> tuple[Candidate, ...]:
    """The candidates of the naturals `nat` (sorted, no joker) with 0 to
    `jokers` jokers, each split low or not, read through `known` (filling it).
    Every split is a distinct group (the body is `nat` then the jokers not low)."""
    found: list[Candidate] = []
    for j in range(jokers + 1):
        for low in range(j + 1) if j else (0,):
            g = Group(low, tuple(sorted(nat + (JOKER_INDEX,) * (j - low))))
            if not g.size:
                continue
            if g in known:
                c = known[g]
            else:
                c = known[g] = _read(g, rules, j)
            if c is not None:
                found.append(c)
    return tuple(found)


def candidates_after(
    before: Counts,
    found: Sequence[Candidate],
    hand: Counts,
    rules: Rules,
    known: dict[Group, Candidate | None] | None = None,
    by_naturals: ByNaturals | None = None,
) -> list[Candidate]:
    """`candidates(hand, rules)`, from `found = candidates(before, rules)`:
    the groups of `before` that `hand` still holds, and those holding a face
    `hand` has more of (the only new ones). The same list, for a hand that
    changed by a card or two (a seat's hand from one turn to the next)."""
    more = frozenset(compress(range(FACES), map(gt, hand, before)))  # faces held more of (at C speed)
    if JOKER_INDEX in more:
        return candidates(hand, rules, known, by_naturals=by_naturals)  # a joker more: most groups are new
    have_bits = as_bits(hand) | GUARD
    kept = [c for c in found if (have_bits - c.bits) & GUARD == GUARD]  # holds_bits, inlined
    if not more:
        return kept
    have = {c.group for c in kept}
    new = candidates(hand, rules, known, touching=more, by_naturals=by_naturals)
    out = kept + [c for c in new if c.group not in have]
    out.sort(key=_ORDER)
    return out


_ORDER = attrgetter("order")


def _read(g: Group, rules: Rules, jokers: int) -> Candidate | None:
    r = read_meld(g.written(), rules.melds)
    if r is None:
        return None
    kinds = (PURE if r.pure else 0) | (ANY_RUN if r.kind == RUN else 0)
    kinds |= ANY_SET if r.kind == SET else 0
    need = tuple(sorted(g.faces().items()))
    points = rules.meld_value(r)
    order = (-points, g.low, g.body)
    body = dict(Counter(g.body))
    return Candidate(g, need, points, kinds, jokers, body, pairs_bits(need), order, pairs_bits(body.items()))


# (a suit's naturals held, jokers) -> _run_naturals of them: a pure function,
# asked again and again as hands change by a card a turn (read only).
_RUN_NATURALS: dict[tuple[tuple[int, ...], int], set[tuple[int, ...]]] = {}
_RUN_NATURALS_MAX = 100_000


def _run_naturals_of(pool: tuple[int, ...], jokers: int) -> set[tuple[int, ...]]:
    """`_run_naturals(pool, jokers)`, kept (do not write into the set returned)."""
    key = (pool, jokers)
    hit = _RUN_NATURALS.get(key)
    if hit is None:
        if len(_RUN_NATURALS) >= _RUN_NATURALS_MAX:
            _RUN_NATURALS.clear()
        hit = _RUN_NATURALS[key] = _run_naturals(list(pool), jokers)
    return hit


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


class BoundsMemo:
    """The packing bounds of one game's multisets of cards, kept across its
    states (see PackingBounds)."""

    def __init__(self) -> None:
        self.best: dict[tuple[int, bool], dict[int, int]] = {}  # keyed by as_bits of the room
        self.cover: dict[Counts, int] = {}

    def trim(self) -> None:
        """Forget everything past MEMO_LIMIT multisets (a long game's memory stays bounded)."""
        if len(self.best) + len(self.cover) > MEMO_LIMIT:
            self.best.clear()
            self.cover.clear()


class PackingBounds:
    """What packings of candidate melds can reach, per multiset of cards.

    `memo`: the answers of `best` and `uncovered`, shared by every state of
    one game (a state's bounds are made anew for each hand, but what a
    multiset of cards can reach depends only on the cards and the meld rules:
    the candidates within it are all read, whichever hand it came from, as
    `candidates` is complete)."""

    def __init__(self, cands: Sequence[Candidate], memo: BoundsMemo | None = None):
        self.cands = list(cands)
        self._with_face: list[list[int]] = [[] for _ in range(FACES)]
        for i, c in enumerate(self.cands):
            for f, _ in c.need:
                self._with_face[f].append(i)
        memo = memo if memo is not None else BoundsMemo()
        memo.trim()
        self._best = memo.best
        self._cover = memo.cover
        # The compiled `_best_of` over these candidates, made at the first
        # room not in the memo (None: not made yet, False: none).
        self._packer: Any = None
        # Per face, the most points per card of a candidate holding it: a
        # packing's points are at most the sum over its cards (each meld's
        # points spread evenly over its cards, each card taking its best).
        self._per_card = [0.0] * FACES
        for c in self.cands:
            share = c.points / c.group.size
            for f, _ in c.need:
                if share > self._per_card[f]:
                    self._per_card[f] = share

    def __getstate__(self) -> dict[str, Any]:
        """Without the compiled object, which cannot be pickled: an
        environment copied or pickled mid-round makes it again at its next
        room missed (the same answers either way)."""
        state = self.__dict__.copy()
        state["_packer"] = None
        return state

    def holding(self, face: int) -> list[int]:
        """The candidates holding `face`, most points first."""
        return self._with_face[face]

    def fits(self, i: int, room: Counts) -> bool:
        return all(room[f] >= n for f, n in self.cands[i].need)

    def best(self, room: Counts, jokerless: bool = False) -> dict[int, int]:
        """Kinds held -> the most points of a packing of disjoint candidates
        within `room` (the empty packing included); `jokerless`: candidates
        without a joker only."""
        return self._best_of(as_bits(room), jokerless)

    def _best_of(self, room: int, jokerless: bool) -> dict[int, int]:
        """`best` of a room as_bits: in C where `_packingc` is built (the
        same dict, entries in the same order, the same memo), else
        `_best_of_python`."""
        hit = self._best.get((room, jokerless))
        if hit is not None:
            return hit
        packer = self._packer
        if packer is None:
            mod = compiled_packing()
            packer = mod.make(self.cands, self._with_face, self._best, _UNITS) if mod is not None else None
            packer = self._packer = packer if packer is not None else False
        if packer:
            out = packer.best_of(room, jokerless)
            if out is not NotImplemented:  # else something did not fit in C
                return out
        return self._best_of_python(room, jokerless)

    def _best_of_python(self, room: int, jokerless: bool) -> dict[int, int]:
        """`_best_of` by dynamic programming over the room's lowest card x,
        which stays out of every meld or is laid in one of the candidates
        holding it (the reference of ``_packingc.c``)."""
        key = (room, jokerless)
        hit = self._best.get(key)
        if hit is not None:
            return hit
        out: dict[int, int] = {0: 0}
        if room:
            x = ((room & -room).bit_length() - 1) // WIDTH
            # x stays out of every meld
            out = dict(self._best_of_python(room - (1 << (WIDTH * x)), jokerless))
            cands = self.cands
            for i in self._with_face[x]:
                c = cands[i]
                if jokerless and c.jokers:
                    continue
                need = c.bits
                if ((room | GUARD) - need) & GUARD != GUARD:
                    continue  # the room lacks some card of it
                for kinds, pts in self._best_of_python(room - need, jokerless).items():
                    k = kinds | c.kinds
                    if out.get(k, -1) < pts + c.points:
                        out[k] = pts + c.points
        self._best[key] = out
        return out

    def points_bound(self, room: Counts) -> float:
        """At least the points of any packing within `room` (a quick bound, no search)."""
        per = self._per_card
        return sum(n * per[f] for f, n in enumerate(room) if n)

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
            if (
                min_points
                and points + self.points_bound(room) + 1e-6 < min_points  # float sums: a margin
                and not (op.go_out_below_points and may_go_out())
            ):
                return False  # not even the quick bound reaches the points
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
