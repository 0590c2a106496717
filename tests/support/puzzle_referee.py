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
  forming new melds of its own.
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
