"""An independent checker of puzzle claims, written apart from rami_core.

It reads the puzzle's text itself and judges melds with its own code (the
voleur rules: a run is three or more cards of one suit in sequence, the ace
low or high but not both; a set is three or four cards of one rank in
distinct suits; a joker stands for any card, with at least one natural card
in every meld), so a mistake in rami_core's meld reading, solver or
enumeration cannot hide itself here. Checks:

* the witness uses exactly the table's cards and the hand's (goal ``all``),
  every meld of it valid;
* no shortcut: the hand cannot all go down with the table's melds kept as
  they lie (each meld may only grow into a valid meld), the rest of the hand
  forming new melds of its own;
* the count of distinct final tables, the fewest card moves and melds broken
  to reach one, and that every hand card is needed (tables of natural cards:
  the generator deals no jokers).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def card(text: str) -> tuple[int, str]:
    if text == "JK":
        return (0, "*")
    rank, suit = text[:-1], text[-1]
    return (RANKS[rank] if rank in RANKS else int(rank), suit)


def cards(text: str) -> tuple[tuple[int, str], ...]:
    return tuple(sorted(card(t) for t in text.split()))


def valid(meld: tuple[tuple[int, str], ...]) -> bool:
    naturals = [c for c in meld if c[1] != "*"]
    jokers = len(meld) - len(naturals)
    if not naturals or len(meld) < 3:
        return False
    ranks = [r for r, _ in naturals]
    suits = [s for _, s in naturals]
    if len(set(ranks)) == 1 and len(set(suits)) == len(suits) and len(meld) <= 4:
        return True  # a set
    if len(set(suits)) != 1 or len(meld) > 13:
        return False
    for high_ace in (False, True):
        places = sorted(14 if (r == 1 and high_ace) else r for r in ranks)
        if len(set(places)) != len(places):
            continue
        gaps = places[-1] - places[0] + 1 - len(places)
        if gaps <= jokers:
            spare = jokers - gaps  # spare jokers go at the ends, within A..A
            if places[-1] - places[0] + 1 + spare <= (14 if high_ace or 1 not in ranks else 13):
                return True
    return False


def witness_ok(table: list[str], hand: str, witness: list[str]) -> bool:
    given = Counter(c for m in table for c in cards(m)) + Counter(cards(hand))
    got = Counter(c for m in witness for c in cards(m))
    return given == got and all(valid(cards(m)) for m in witness)


def shortcut_exists(table: list[str], hand: str) -> bool:
    """Whether every hand card can go down keeping the table's melds as they lie."""
    melds = [cards(m) for m in table]
    held = cards(hand)
    n = len(held)

    def sub(mask: int) -> tuple:
        return tuple(held[i] for i in range(n) if mask >> i & 1)

    # the hand subsets each meld can take, and those that form new melds alone
    grow = [{m for m in range(1, 1 << n) if valid(tuple(sorted(meld + sub(m))))} for meld in melds]
    alone = {m for m in range(1, 1 << n) if _partitionable(sub(m))}

    @cache
    def reach(i: int, left: int) -> bool:
        if i == len(melds):
            return left == 0 or left in alone
        if reach(i + 1, left):
            return True
        return any(m & left == m and reach(i + 1, left & ~m) for m in grow[i])

    return reach(0, (1 << n) - 1)


def _partitionable(cs: tuple) -> bool:
    if not cs:
        return True
    first, rest = cs[0], cs[1:]
    for k in range(2, len(rest) + 1):
        for others in combinations(range(len(rest)), k):
            meld = tuple(sorted((first, *(rest[i] for i in others))))
            if valid(meld):
                left = tuple(rest[i] for i in range(len(rest)) if i not in others)
                if _partitionable(left):
                    return True
    return False


# ---------------------------------------------------------------- every final table


SUITS = "SHDC"


def _natural(cs: tuple) -> None:
    if any(s == "*" for _, s in cs):
        raise ValueError("this checker enumerates tables of natural cards only")


def final_tables(table: list[str], hand: str, cap: int = 1000) -> set[tuple]:
    """Every distinct table (a sorted tuple of sorted melds) of the table's
    cards and the whole hand, found by its own search: the smallest card left
    goes into a run or a set made of the cards left, every way."""
    pool = tuple(sorted(c for m in table for c in cards(m)) + sorted(cards(hand)))
    _natural(pool)
    out: set[tuple] = set()

    @cache
    def tables(left: tuple) -> frozenset:
        if not left:
            return frozenset({()})
        first, rest = left[0], Counter(left[1:])
        found = set()
        for meld in _melds_with(first, rest):
            after = Counter(left)
            after.subtract(meld)
            for sub in tables(tuple(sorted(after.elements()))):
                found.add(tuple(sorted((*sub, meld))))
                if len(found) > cap:
                    raise ValueError("more final tables than this checker counts")
        return frozenset(found)

    out |= tables(tuple(sorted(pool)))
    return out


def _melds_with(first: tuple[int, str], rest: Counter) -> list[tuple]:
    """The valid melds of ``first`` and cards of ``rest`` (a set of its rank,
    a run of its suit through it)."""
    rank, suit = first
    out = []
    others = [s for s in SUITS if s != suit and rest[(rank, s)]]
    for k in (2, 3):
        for pick in combinations(others, k):
            out.append(tuple(sorted([first, *((rank, s) for s in pick)])))
    for place in {rank, 14} if rank == 1 else {rank}:
        for lo in range(max(1, place - 12), place + 1):
            for hi in range(max(place, lo + 2), min(14, lo + 12) + 1):
                need = [(14 if q == 14 else q) for q in range(lo, hi + 1) if q != place]
                faces = [((1 if q == 14 else q), suit) for q in need]
                if all(rest[f] >= faces.count(f) for f in faces):
                    out.append(tuple(sorted([first, *faces])))
    return [m for m in set(out) if valid(m)]


def distance(start: list[tuple], final: tuple) -> tuple[int, int]:
    """(card moves, melds broken) from the table as it lies to a final table:
    each starting meld followed into at most one final meld, the best such
    matching by a search over the final melds still free (its own dynamic
    programme, not the prover's assignment)."""
    total = sum(len(m) for m in start)

    def best(score) -> int:
        @cache
        def go(i: int, used: int) -> int:
            if i == len(start):
                return 0
            top = go(i + 1, used)
            for j, f in enumerate(final):
                if not used >> j & 1:
                    top = max(top, score(start[i], f) + go(i + 1, used | 1 << j))
            return top

        return go(0, 0)

    kept = best(lambda a, b: sum((Counter(a) & Counter(b)).values()))
    whole = best(lambda a, b: int(not (Counter(a) - Counter(b))))
    return total - kept, len(start) - whole


def claims(table: list[str], hand: str) -> dict:
    """The claims of a goal-``all`` puzzle, measured by this checker alone:
    the distinct final tables, the fewest card moves and melds broken over
    them, whether the table as it lies must change (no shortcut)."""
    start = [cards(m) for m in table]
    tables = final_tables(table, hand)
    dist = [distance(start, t) for t in tables]
    return {
        "solutions": len(tables),
        "min_moves": min((d[0] for d in dist), default=None),
        "min_broken": min((d[1] for d in dist), default=None),
        "shortcut": shortcut_exists(table, hand),
        "tables": tables,
    }


def every_card_needed(table: list[str], hand: str, moves: int) -> bool:
    """No hand card can go with the rest still a puzzle as deep: solvable,
    with no shortcut, in at least ``moves`` card moves."""
    held = hand.split()
    for c in dict.fromkeys(held):
        i = held.index(c)
        rest = " ".join(held[:i] + held[i + 1 :])
        if not rest:
            continue
        got = claims(table, rest)
        if got["solutions"] and not got["shortcut"] and got["min_moves"] >= moves:
            return False
    return True
