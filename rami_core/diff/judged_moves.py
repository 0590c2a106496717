"""The moves worth judging at a state: every draw, discard, lay off and
joker swap the hand allows, and the melds its cards can make.

Wider than a bot's choice on purpose: a bot plays what its rules allow,
while a difference between two profiles hides in what one of them refuses.
The candidates name cards by face, as a player does; the engine judges them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from rami_core.cards import Card, format_card
from rami_core.game.state import DRAW, LAY, GameState

MAX_MELDS = 24  # candidate melds per hand: enough for every shape, bounded for a long hand
MAX_REBUILT = 2  # table melds a rearrangement candidate grows (each a costly judgement)


def face(c: Card) -> str:
    return format_card(c.face_card)


def candidates(
    state: GameState, extra: Iterable[dict[str, Any]] = (), rearrange: bool = True
) -> list[dict[str, Any]]:
    """Every move worth judging for the seat to play (dict forms, no duplicates,
    in a fixed order); `rearrange`: whether rebuilding the table is worth trying
    (neither profile allows it: both refuse it alike, at a cost)."""
    seat = state.turn
    out: list[dict[str, Any]] = list(extra)
    if state.phase == DRAW:
        out += [{"player": seat, "draw": "stock"}, {"player": seat, "draw": "discard"}]
    elif state.phase == LAY:
        hand = state.hands[seat]
        faces = sorted({face(c) for c in hand}, key=_order)
        melds = hand_melds(hand)
        out += [{"player": seat, "meld": [m]} for m in melds]
        counts = Counter(face(c) for c in hand)
        out += [{"player": seat, "meld": combo} for combo in meld_combos(melds, counts)]
        for i, tm in enumerate(state.table):
            for f in faces:
                out.append({"player": seat, "layoff": [{"card": f, "to": i}]})
            if any(c.is_joker for c in tm.cards):
                for f in faces:
                    if f != "JK":
                        out.append({"player": seat, "swap": {"card": f, "meld": i}})
                if tm.reading.kind == "set":
                    for x, y in combinations([f for f in faces if f != "JK"], 2):
                        out.append({"player": seat, "swap": {"cards": [x, y], "meld": i}})
            if not rearrange or i >= MAX_REBUILT:
                continue
            table = [[face(c) for c in m.cards] for m in state.table]
            for f in faces:
                grown = [list(m) for m in table]
                grown[i].append(f)
                out.append({"player": seat, "rearrange": grown})
            out += [{"player": seat, "rearrange": t} for t in split_tables(table, i, hand)]
            out += [{"player": seat, "rearrange": t} for t in freed_tables(state, i, faces)]
        out += [{"player": seat, "discard": f} for f in faces]
        out.append({"player": seat, "end_turn": True})
    seen: set[str] = set()
    unique = []
    for c in out:
        key = repr(c)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def _order(text: str) -> tuple[int, str]:
    return (len(text), text)


def hand_melds(hand: list[Card]) -> list[list[str]]:
    """Runs and sets the hand's cards may make (a joker or not), at most MAX_MELDS, longest first."""
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = sorted({c.face for c in hand if not c.is_joker})
    found: list[list[str]] = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, set[int]] = {}
    for rank, suit in naturals:
        by_rank.setdefault(rank, []).append(suit)
        by_suit.setdefault(suit, set()).add(rank)
    for rank, suits in sorted(by_rank.items()):
        cards = [format_card(Card(rank, s)) for s in sorted(suits)]
        for size in range(2, len(cards) + 1):
            found.append(cards[:size])
        if jokers:
            found.append(cards[:3] + ["JK"])
    for suit, ranks in sorted(by_suit.items()):
        places = sorted(ranks | ({14} if 1 in ranks else set()))
        for lo in places:
            run = [lo]
            gap_used = False
            place = lo + 1
            while place <= 14 and len(run) < 13:
                if place in places:
                    run.append(place)
                elif jokers and not gap_used and place + 1 in places:
                    run.append(0)
                    gap_used = True
                else:
                    break
                place += 1
                if len(run) >= 2:
                    found.append([_run_card(p, suit) for p in run])
            if jokers and len(run) >= 2 and not gap_used:
                found.append([_run_card(p, suit) for p in run] + ["JK"])
    for suit, ranks in sorted(by_suit.items()):
        found += _wrapped(suit, ranks)
    found.sort(key=lambda m: (-len(m), m))
    return found[:MAX_MELDS]


def _wrapped(suit: int, ranks: set[int]) -> list[list[str]]:
    """Runs that turn the corner (K-A-2, and the longest run through it the
    suit's cards make): what melds.wrap allows and every other file refuses."""
    if not {13, 1, 2} <= ranks:
        return []
    lo, hi = 13, 2
    while lo - 1 in ranks and lo - 1 > hi + 1:
        lo -= 1
    while hi + 1 in ranks and hi + 1 < lo - 1:
        hi += 1
    corner = [format_card(Card(r, suit)) for r in (13, 1, 2)]
    longest = [format_card(Card(r, suit)) for r in [*range(lo, 14), *range(1, hi + 1)]]
    return [corner] if longest == corner else [longest, corner]


def _run_card(place: int, suit: int) -> str:
    if place == 0:
        return "JK"
    return format_card(Card(1 if place == 14 else place, suit))


def meld_combos(melds: list[list[str]], counts: Counter[str]) -> list[list[list[str]]]:
    """Disjoint melds laid together, the longest first: what an opening worth
    several melds, or going out, is made of."""
    out: list[list[list[str]]] = []
    for first in range(min(len(melds), 6)):
        chosen: list[list[str]] = []
        used: dict[str, int] = {}
        for m in melds[first:] + melds[:first]:
            need: dict[str, int] = {}
            for c in m:
                need[c] = need.get(c, 0) + 1
            if all(used.get(c, 0) + k <= counts[c] for c, k in need.items()):
                chosen.append(m)
                for c, k in need.items():
                    used[c] = used.get(c, 0) + k
        if len(chosen) > 1:
            out.append(chosen)
    return out


def split_tables(table: list[list[str]], i: int, hand: list[Card]) -> list[list[list[str]]]:
    """Table `i`'s end card taken off its meld into a new meld with hand
    cards (a set or a run the hand makes with it): a rearrangement that
    splits a meld, what a house rule on a joker's meld may refuse."""
    meld = table[i]
    if len(meld) < 2:
        return []
    out = []
    for end in {0, len(meld) - 1}:
        card = meld[end]
        if card == "JK":
            continue
        rest = meld[:end] + meld[end + 1 :]
        made = [m for m in hand_melds([*hand, _card_of(card)]) if card in m]
        for m in made[:MAX_REBUILT]:
            new = [list(x) for x in table]
            new[i] = rest
            out.append([*new, m])
    return out


def freed_tables(state: GameState, i: int, faces: list[str]) -> list[list[list[str]]]:
    """Table `i`'s joker replaced by the natural card it stands for taken from
    another table meld (the joker put there in its place), and one hand card
    added to either meld: a joker freed with a table card rather than a hand
    card, a joker moved between melds."""
    stands = [
        s for c, s in zip(state.table[i].cards, state.table[i].reading.stands, strict=True) if c.is_joker
    ]
    table = [[face(c) for c in m.cards] for m in state.table]
    out = []
    for rank, suit in stands:
        if not 0 <= suit < 4:
            continue
        want = format_card(Card(rank, suit))
        for j, other in enumerate(table):
            if j == i or want not in other:
                continue
            new = [list(m) for m in table]
            new[i][new[i].index("JK")] = want
            new[j][new[j].index(want)] = "JK"
            for f in faces:
                if f == "JK":
                    continue
                for k in (i, j):
                    grown = [list(m) for m in new]
                    grown[k].append(f)
                    out.append(grown)
    return out


def _card_of(text: str) -> Card:
    from rami_core.cards import parse_card

    return parse_card(text)
