"""Setups aimed at the settings that differ: where a rule's edge is.

A random deal rarely puts a hand at 50 points with a pure run, a joker on the
table beside the card it stands for, or a stock of one card. These setups do,
on purpose: melds built around each opening threshold either profile names,
table melds holding jokers with their exact cards in hand, cards that extend
a table meld, a short stock and a discard pile to draw from, scores a round
away from each target. The referees judge every move from them; the search
keeps what they disagree on.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rami_core.cards import Card, format_card, parse_card
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import OpeningNeed

SUITS = 4


@dataclass(frozen=True)
class Focus:
    """What the differing settings point the setups at."""

    thresholds: tuple[int, ...]  # opening points either profile asks (0 dropped)
    targets: tuple[int, ...]  # game targets: scores are set just below them
    players: tuple[int, ...]  # seat counts both profiles play
    decks: int  # copies of a card both decks hold
    jokers: int  # jokers both decks hold
    short_stock: bool  # an empty-stock rule differs
    scores: bool  # a scoring or game-end rule differs
    rearrange: bool = False  # either profile rebuilds the table
    shapes: Shapes = field(default_factory=lambda: Shapes(), compare=False)  # an opening's melds, in turn
    all_at_once: bool = False  # either profile lays every meld at once, going out
    # The scores a setup gives at each seat count: one per side where both
    # profiles count the same sides there (two teams at four), else None:
    # no table of scores is one of both (a team game against one of seats).
    sides: tuple[tuple[int, int | None], ...] = ()

    def score_count(self, players: int) -> int | None:
        return dict(self.sides).get(players, players)


def focus_for(a: Profile, b: Profile, paths: list[str]) -> Focus | None:
    """The focus for profiles `a` and `b` (None: no seat count both play)."""
    counts = tuple(n for n in a.player_counts() if b.allows_players(n))
    if not counts:
        return None
    groups = {p.split(".")[0] for p in paths}
    # What each profile's rules make of its settings at every seat count both
    # play (a team game's target is the team target).
    rules = [rules_for(p, n) for p in (a, b) for n in counts]
    thresholds = tuple(sorted({r.opening.points for r in rules if r.opening.points}))
    targets = tuple(sorted({r.target for r in rules if r.target}))
    return Focus(
        thresholds=thresholds,
        targets=targets,
        players=counts,
        decks=min(a.deck.decks, b.deck.decks),
        jokers=min(a.deck.jokers, b.deck.jokers),
        short_stock=bool(groups & {"draw", "game"}),
        scores=bool(groups & {"scoring", "game", "jokers", "teams"}),
        rearrange=any(r.may_rearrange for r in rules),
        all_at_once=any(r.lays_all_at_once for r in rules),
        shapes=Shapes(tuple(r.opening for r in rules)),
        sides=tuple((n, _same_sides(rules_for(a, n).sides, rules_for(b, n).sides)) for n in counts),
    )


def _same_sides(x: int, y: int) -> int | None:
    return x if x == y else None


def scores_near(rng: random.Random, focus: Focus, players: int, below: int) -> list[int] | None:
    """Scores a round away from one of the targets (None where no scores suit both profiles)."""
    n = focus.score_count(players)
    if n is None or not focus.targets:
        return None
    target = rng.choice(focus.targets)
    return [max(0, target - rng.randint(1, below)) for _ in range(n)]


class Pool:
    """The cards still free for a setup: a card no more often than both decks hold it."""

    def __init__(self, focus: Focus, rng: random.Random):
        self.rng = rng
        self.left: Counter[str] = Counter()
        for rank in range(1, 14):
            for suit in range(SUITS):
                self.left[format_card(Card(rank, suit))] = focus.decks
        self.left["JK"] = focus.jokers

    def take(self, text: str) -> bool:
        if self.left[text] <= 0:
            return False
        self.left[text] -= 1
        return True

    def take_all(self, cards: list[str]) -> list[str] | None:
        need = Counter(cards)
        if any(self.left[c] < k for c, k in need.items()):
            return None
        self.left.subtract(need)
        return list(cards)

    def random_card(self, weights: str = "any") -> str | None:
        choices = [c for c, k in self.left.items() if k > 0]
        if not choices:
            return None
        choices.sort()
        if weights == "costly":  # jokers, aces and courts: what makes a penalty differ
            costly = [c for c in choices if c == "JK" or c[0] in "AJQK"]
            choices = costly or choices
        card = self.rng.choice(choices)
        self.left[card] -= 1
        return card

    def random_cards(self, n: int) -> list[str]:
        """Up to ``n`` free cards drawn as :meth:`random_card` draws them, fewer
        where the pool runs out."""
        return [c for c in (self.random_card() for _ in range(n)) if c]


def other_hands(rng: random.Random, pool: Pool, players: int) -> list[list[str]]:
    """The hands of the seats a setup does not aim at: one to three free cards each."""
    return [pool.random_cards(rng.randint(1, 3)) for _ in range(players - 1)]


def _card(rank: int, suit: int) -> str:
    return format_card(Card((rank - 1) % 13 + 1, suit))


def random_meld(rng: random.Random, pool: Pool, high: bool) -> list[str] | None:
    """A run or a set around the usual shapes and just outside them (two
    cards, five, a wrapped corner, two of a suit), sometimes with a joker."""
    if rng.random() < 0.5:
        length = rng.choice([2, 3, 3, 4, 4, 5, 6])
        start = rng.randint(8, 13) if high else rng.randint(1, 13)
        suit = rng.randrange(SUITS)
        cards = [_card(start + i, suit) for i in range(length)]
    else:
        rank = rng.choice([1, 11, 12, 13, 10]) if high else rng.randint(1, 13)
        size = rng.choice([2, 3, 3, 4, 4, 5])
        suits = list(range(SUITS))
        rng.shuffle(suits)
        if size > 4 or rng.random() < 0.15:
            suits = suits[: size - 1] + [suits[0]]
        cards = [_card(rank, s) for s in suits[:size]]
    if rng.random() < 0.35 and len(cards) >= 2:
        cards[rng.randrange(len(cards))] = "JK"
    return pool.take_all(cards)


def fits(meld: list[str], stands: list[tuple[int, int]], kind: str) -> list[str]:
    """Cards that extend a table meld, and the exact cards its jokers stand for."""
    out: list[str] = []
    if kind == "run":
        ranks = [r for r, _ in stands]
        suit = stands[0][1]
        out += [_card(min(ranks) - 1, suit), _card(max(ranks) + 1, suit)]
    else:
        rank = stands[0][0]
        present = {s for c, (_, s) in zip(meld, stands, strict=True) if c != "JK"}
        out += [_card(rank, s) for s in range(SUITS) if s not in present]
    for c, (r, s) in zip(meld, stands, strict=True):
        if c == "JK" and 0 <= s < SUITS:
            out.append(_card(r, s))
    return out


def random_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any]:
    """One setup around the focus. `table_reader(cards)` gives a table meld's
    (kind, stands) under a profile, or None where it is no meld there."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    high = bool(focus.thresholds) and rng.random() < 0.6
    table: list[dict[str, Any]] = []
    hand: list[str] = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        meld = random_meld(rng, pool, high=False)
        read = table_reader(meld) if meld else None
        if meld is None or read is None:
            continue
        owner = rng.choice([None, *range(players)])
        table.append({"cards": meld, "owner": owner} if owner is not None else {"cards": meld})
        kind, stands = read
        for f in fits(meld, stands, kind):
            if rng.random() < 0.6 and pool.take(f):
                hand.append(f)
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
        meld = random_meld(rng, pool, high)
        if meld:
            hand += meld
    going_out = rng.random() < 0.3  # melds and one card: the hand may go out (rami sec, penalties, targets)
    if going_out:
        hand = [
            c for m in (random_meld(rng, pool, high) for _ in range(rng.choice([1, 2, 3]))) if m for c in m
        ]
        table = [] if rng.random() < 0.5 else table
    for _ in range(1 if going_out else rng.choice([0, 1, 2])):
        card = pool.random_card()
        if card:
            hand.append(card)
    if not going_out and rng.random() < 0.25 and pool.take("JK"):
        hand.append("JK")
    if not hand:
        card = pool.random_card()
        hand = [card] if card else []
    rng.shuffle(hand)
    others = [
        [
            c
            for c in (pool.random_card("costly" if focus.scores else "any") for _ in range(rng.randint(1, 3)))
            if c
        ]
        for _ in range(players - 1)
    ]
    stock_size = rng.choice([0, 1, 1, 2]) if focus.short_stock else rng.choice([1, 2, 3])
    stock = pool.random_cards(stock_size)
    discard = pool.random_cards(rng.choice([0, 1, 2, 3]))
    if hand and rng.random() < 0.3:
        # the discard top a hand card's twin: a draw that completes something, a throw back
        twin = rng.choice(hand)
        if pool.take(twin):
            discard.append(twin)
    setup: dict[str, Any] = {"hands": [hand, *others], "stock": stock, "discard": discard, "table": table}
    owners = {m.get("owner") for m in table}
    opened = [i in owners or rng.random() < 0.4 for i in range(players)]
    setup["opened"] = opened
    if rng.random() < 0.6:
        setup["phase"] = "lay"
    if focus.scores and rng.random() < 0.5:
        scores = scores_near(rng, focus, players, 60)
        if scores is not None:
            setup["scores"] = scores
    return setup


def end_setup(rng: random.Random, focus: Focus) -> dict[str, Any]:
    """A round one discard from its end: the seat to play opened, holding one
    card, the others holding a few costly ones, and (where a target is in
    play) every score just below a target. What a penalty, a rami sec, a
    target or a team's target decides shows on the next move."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    card = pool.random_card()
    hands = [[card] if card else []]
    for _ in range(players - 1):
        hands.append([c for c in (pool.random_card("costly") for _ in range(rng.randint(1, 4))) if c])
    setup: dict[str, Any] = {
        "hands": hands,
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": [],
        "opened": [True] + [rng.random() < 0.7 for _ in range(players - 1)],
        "phase": "lay",
    }
    scores = scores_near(rng, focus, players, 40)
    if scores is not None:
        setup["scores"] = scores
    return setup


def laid_out_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A round one lay from its end: the seat to play opened, its hand one
    meld or a card or two that lay off to a table meld, the others holding
    costly cards (jokers among them), scores a round from a target. Where a
    file ends its turns without a discard (voleur), a round ends only so:
    what a penalty or a target decides shows on that lay."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    table: list[dict[str, Any]] = []
    hand: list[str] = []
    if rng.random() < 0.5:
        for _ in range(4):
            meld = random_meld(rng, pool, high=False)
            read = table_reader(meld) if meld else None
            if meld is None or read is None:
                if meld:
                    pool.left.update(meld)
                continue
            table.append({"cards": meld})
            hand = [f for f in fits(meld, read[1], read[0]) if pool.take(f)][: rng.choice([1, 1, 2])]
            break
    if not hand:
        for _ in range(4):
            meld = random_meld(rng, pool, high=False)
            if meld is not None and table_reader(meld) is not None and len(meld) >= 3:
                hand = meld
                break
            if meld:
                pool.left.update(meld)
    if not hand:
        return None
    hands = [hand]
    for _ in range(players - 1):
        hands.append([c for c in (pool.random_card("costly") for _ in range(rng.randint(1, 4))) if c])
    setup: dict[str, Any] = {
        "hands": hands,
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": table,
        # where a file lays all at once, a seat goes out before it has opened
        "opened": [not (focus.all_at_once and rng.random() < 0.5)]
        + [rng.random() < 0.7 for _ in range(players - 1)],
        "phase": "lay",
    }
    scores = scores_near(rng, focus, players, 40)
    if scores is not None:
        setup["scores"] = scores
    return setup


def going_out_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A hand not yet opened that may go out at once: melds (a run with no
    joker first, mostly) worth less than a threshold, and one card to
    discard. Where an opening below the points by going out is allowed under
    one profile and not the other, this is its edge."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    want = aimed_points(rng, focus)
    melds = opening_melds(rng, pool, focus, table_reader, want)
    if not melds:
        return None
    hand = [c for m in melds for c in m]
    card = pool.random_card()
    if card is None:
        return None
    hand.append(card)
    rng.shuffle(hand)
    others = other_hands(rng, pool, players)
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": [],
        "opened": [False] + [rng.random() < 0.5 for _ in range(players - 1)],
        "phase": "lay",
    }


def aimed_points(rng: random.Random, focus: Focus) -> int:
    """An opening's rough worth in one of the bands the thresholds cut
    (below the lowest, between two, just above the highest), each band as
    likely: where two files' thresholds differ, the hand between them."""
    cuts = [5, *focus.thresholds] if focus.thresholds else [5, 40]
    bands = [(lo, hi - 1) for lo, hi in itertools.pairwise(cuts)] + [(cuts[-1], cuts[-1] + 10)]
    lo, hi = rng.choice(bands)
    return rng.randint(lo, max(lo, hi))


def _points(card: str) -> int:
    """A card's rough worth in an opening (a joker as a court): enough to aim near a threshold."""
    if card == "JK" or card[0] in "JQK" or card.startswith("10"):
        return 10
    if card[0] == "A":
        return 11
    return int(card[:-1])


def opening_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A hand not yet opened whose melds (a joker in some) just reach one of
    the thresholds, with a card or two beside: where an opening's points,
    its pure run, its jokers or its run and set are judged."""
    if not focus.thresholds:
        return None
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    want = rng.choice(focus.thresholds) + rng.randint(-5, 12)
    melds = opening_melds(rng, pool, focus, table_reader, want)
    if not melds:
        return None
    hand = [c for m in melds for c in m]
    hand += pool.random_cards(rng.choice([1, 1, 2]))
    rng.shuffle(hand)
    others = other_hands(rng, pool, players)
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": [],
        "opened": [False] + [rng.random() < 0.5 for _ in range(players - 1)],
        "phase": "lay",
    }


def swap_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A table meld holding a joker, the card (or a set's two cards) it
    stands for in the hand of a seat that has opened, and a card or two
    beside: where a swap, a joker kept past the turn or a set's joker is judged."""
    if focus.jokers == 0:
        return None
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    meld = None
    for _ in range(6):
        cards = random_meld(rng, pool, high=False)
        if cards is None:
            continue
        if "JK" not in cards:
            pool.left.update(cards)
            continue
        read = table_reader(cards)
        if read is None:
            pool.left.update(cards)
            continue
        meld = (cards, read)
        break
    if meld is None:
        return None
    cards, (kind, stands) = meld
    hand = [f for f in fits(cards, stands, kind) if rng.random() < 0.8 and pool.take(f)]
    hand += pool.random_cards(rng.choice([1, 1, 2]))
    rng.shuffle(hand)
    others = other_hands(rng, pool, players)
    owner = rng.choice([None, *range(players)])
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": [{"cards": cards, "owner": owner} if owner is not None else {"cards": cards}],
        "opened": [rng.random() < 0.85] + [rng.random() < 0.6 for _ in range(players - 1)],
        "phase": "lay",
    }


def aimed_setup(path: str, rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A setup at the edge of setting `path` (None: none aimed at it, or none
    could be made this time): its own search tries these first. A plugin's
    edge is its own: every kind of setup is tried in turn."""
    group = path.split(".")[0]
    roll = rng.random()
    if group == "plugins":
        edge = PLUGIN_EDGE.get(path.split(".")[1]) if "." in path else None
        if edge is not None and roll < 0.8:
            return edge(rng, focus, table_reader)
        makers = PLUGIN_SETUPS
        return makers[rng.randrange(len(makers))](rng, focus, table_reader)
    if path in CORNER and roll < 0.6:
        return corner_setup(rng, focus, table_reader)
    if group == "melds" or path in MELD_SHAPE:
        # What a meld may be: table melds with cards (jokers too) that extend them, or openings.
        if roll < 0.5:
            return table_setup(rng, focus, table_reader)
        return opening_setup(rng, focus, table_reader) if roll < 0.75 else None
    if group == "jokers" and path != "jokers.penalty":
        if roll < 0.2 and focus.rearrange:
            return table_setup(rng, focus, table_reader)
        return swap_setup(rng, focus, table_reader)
    if group == "opening":
        # Each opening setting's own edge mostly, the others' now and then.
        # Where a file lays all at once, an opening is going out.
        first = OPENING_EDGE.get(path, going_out_setup if focus.all_at_once else opening_setup)
        if roll < (0.8 if path in OPENING_EDGE else 0.5):
            return first(rng, focus, table_reader)
        others = (opening_setup, going_out_setup, taken_discard_setup, partner_setup)
        return others[rng.randrange(len(others))](rng, focus, table_reader)
    if group in ("draw", "discard"):
        return taken_discard_setup(rng, focus, table_reader) if roll < 0.6 else None
    if group == "table":
        return table_setup(rng, focus, table_reader) if roll < 0.5 else None
    if group == "scoring":
        if roll < 0.4:
            return end_setup(rng, focus)
        return (going_out_setup if roll < 0.7 else opening_setup)(rng, focus, table_reader)
    if group == "teams" and roll < 0.5:
        return partner_setup(rng, focus, table_reader)
    if group in ("game", "teams") or path == "jokers.penalty":
        if roll < 0.5:
            return laid_out_setup(rng, focus, table_reader)
        return end_setup(rng, focus)
    return None


class Shapes:
    """The shapes an opening's melds take, in turn: with or without a run
    that has no joker, a set, a joker (eight). An opening rule is judged on
    just these (and the points): taken in turn, every combination comes
    within a few setups, where drawn at random the one that parts two files
    (going out with a set and a joker's run, no pure run) may not come in a
    setting's few states. Fixed order, so a seed gives one report."""

    ALL: tuple[tuple[bool, bool, bool], ...] = tuple(
        (p, q, j) for p, q, j in itertools.product((True, False), repeat=3)
    )

    def __init__(self, needs: tuple[OpeningNeed, ...] = ()) -> None:
        # Only the shapes some profile's opening accepts (its points aside):
        # where both refuse a shape alike, its setups show nothing.
        self.order = [s for s in self.ALL if not needs or any(_accepts(n, *s) for n in needs)] or list(
            self.ALL
        )
        self.next = 0

    def take(self) -> tuple[bool, bool, bool]:
        shape = self.order[self.next % len(self.order)]
        self.next += 1
        return shape


def _accepts(need: OpeningNeed, pure: bool, with_set: bool, joker: bool) -> bool:
    """Whether an opening of this shape meets `need`'s conditions but its points
    (a run and a set: the set beside a pure run or a joker's run)."""
    return (
        (pure or not need.pure_run)
        and (joker is False or need.jokers)
        and (not need.run_and_set or (with_set and (pure or joker)))
    )


def opening_melds(
    rng: random.Random, pool: Pool, focus: Focus, table_reader: Any, want: int
) -> list[list[str]]:
    """Melds of the deck (each read as one by A's meld rules), high ones
    while far below, until their rough worth reaches `want`: the hand an opening near a
    threshold is made of, in the next shape of :class:`Shapes` (with or
    without a pure run, a set, a joker: a meld that breaks the shape is put
    back)."""
    pure, with_set, joker = focus.shapes.take()
    melds: list[list[str]] = []

    def add(meld: list[str] | None) -> None:
        if meld is None:
            return
        is_run = table_reader(meld)
        if (
            is_run is None
            or (not joker and "JK" in meld)
            or (not pure and is_run[0] == "run" and "JK" not in meld)
            or (not with_set and is_run[0] == "set")
        ):
            pool.left.update(meld)
            return
        melds.append(meld)

    if pure:
        suit, start = rng.randrange(SUITS), rng.randint(1, 11)
        add(pool.take_all([_card(start + i, suit) for i in range(rng.choice([3, 3, 4]))]))
    if with_set:
        rank = rng.randint(1, 13)
        add(pool.take_all([_card(rank, x) for x in rng.sample(range(SUITS), 3)]))
    for _ in range(8):
        worth = sum(_points(c) for m in melds for c in m)
        if melds and worth >= want:
            break
        add(random_meld(rng, pool, high=want - worth > 25))  # courts and aces only where far below
    if melds and joker and not any("JK" in m for m in melds) and pool.take("JK"):
        # a joker beside a meld's cards (a set's fourth, a run's end), or in a run's place
        for m in reversed(melds):
            if table_reader([*m, "JK"]) is not None:
                m.append("JK")
                break
        else:
            pool.left["JK"] += 1
    return melds


def taken_discard_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A seat in its draw whose melds lack one card, the discard pile's top:
    taken, it completes a run (mostly) or a set, and the hand may open with
    it, or go out with all but one card, near a threshold. Where what may be
    done with the card taken is judged: drawing it before opening, laying it
    this turn, throwing it back, going out below the points with a run built
    without it."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    want = aimed_points(rng, focus)
    melds = opening_melds(rng, pool, focus, table_reader, want)
    if not melds:
        return None
    gap = next((m for m in melds if (table_reader(m) or ("",))[0] == "run"), melds[0])  # a run's card, mostly
    naturals = [j for j, c in enumerate(gap) if c != "JK"]
    if not naturals:
        return None
    # A run gives up an end card or an inner one; a set any of its cards.
    taken = gap.pop(rng.choice(naturals))
    hand = [c for m in melds for c in m]
    # One card beside (taken, the hand goes out with a discard), or two.
    extra = 1 if rng.random() < 0.7 else 2
    hand += pool.random_cards(extra)
    rng.shuffle(hand)
    under = pool.random_cards(rng.choice([0, 1, 2]))
    others = other_hands(rng, pool, players)
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [*under, taken],
        "table": [],
        "opened": [rng.random() < 0.15] + [rng.random() < 0.5 for _ in range(players - 1)],
    }


def partner_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A team game's seat not yet opened whose partner (two seats on) has,
    a meld of the partner's on the table with cards in hand that extend it,
    and melds in hand of every shape (a set, a run with a joker, a pure run),
    low or near a threshold: where what a partner's opening frees is judged.
    None where no seat count both play seats partners (four)."""
    team_counts = [n for n in focus.players if n >= 4 and n % 2 == 0]
    if not team_counts:
        return None
    pool = Pool(focus, rng)
    players = rng.choice(team_counts)
    partner = 2
    table: list[dict[str, Any]] = []
    hand: list[str] = []
    for _ in range(6):
        meld = random_meld(rng, pool, high=False)
        if meld is None:
            continue
        read = table_reader(meld)
        if read is None:
            pool.left.update(meld)
            continue
        table.append({"cards": meld, "owner": partner})
        kind, stands = read
        hand += [f for f in fits(meld, stands, kind) if rng.random() < 0.5 and pool.take(f)]
        break
    want = (
        rng.choice(focus.thresholds) + rng.randint(-15, 5) if focus.thresholds and rng.random() < 0.4 else 0
    )
    for meld in opening_melds(rng, pool, focus, table_reader, want):
        hand += meld
    hand += pool.random_cards(rng.choice([1, 1, 2]))
    rng.shuffle(hand)
    others = other_hands(rng, pool, players)
    opened = [False] + [rng.random() < 0.5 for _ in range(players - 1)]
    opened[partner] = True
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": table,
        "opened": opened,
        "phase": "lay",
    }


def table_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A table to rebuild: two or three melds, one holding a joker where the
    decks have any, the card that joker stands for sometimes in another meld
    on the table (a set of its rank), cards in hand that extend a meld or
    make a new one with a table meld's end card, a joker or two sometimes, the
    seat opened. Where a rearrangement that splits a meld, moves a joker, or
    frees it with a table card rather than a hand card is judged, and what a
    meld may hold (a corner turned, jokers) on a lay off."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    table: list[dict[str, Any]] = []
    hand: list[str] = []
    for k in range(8):
        if len(table) >= rng.choice([2, 2, 3]):
            break
        cards = random_meld(rng, pool, high=False)
        if cards is None:
            continue
        if k == 0 and focus.jokers and "JK" not in cards and len(cards) >= 3 and pool.take("JK"):
            pool.left[cards[1]] += 1
            cards[1] = "JK"
        read = table_reader(cards)
        if read is None:
            pool.left.update(cards)
            continue
        kind, stands = read
        table.append({"cards": cards})
        for c, (r, su) in zip(cards, stands, strict=True):
            if c == "JK" and 0 <= su < SUITS and rng.random() < 0.6:
                # the joker's card in a set of its rank on the table: a table card could free it
                rest = [_card(r, x) for x in range(SUITS) if x != su]
                rng.shuffle(rest)
                mate = pool.take_all([_card(r, su), *rest[:2]])
                if mate and table_reader(mate) is not None:
                    table.append({"cards": mate})
                elif mate:
                    pool.left.update(mate)
        hand += [f for f in fits(cards, stands, kind) if rng.random() < 0.4 and pool.take(f)]
        end = cards[-1] if cards[-1] != "JK" else cards[0]
        if end != "JK" and rng.random() < 0.6:
            # two of the end card's rank: a new set with the end card taken off its meld
            rank = stands[cards.index(end)][0]
            pair = [_card(rank, x) for x in range(SUITS) if _card(rank, x) != end][:2]
            hand += [c for c in pair if pool.take(c)]
    if not table:
        return None
    for m in table:
        if rng.random() < 0.5:
            m["owner"] = rng.randrange(players)
    for _ in range(rng.choice([0, 0, 1, 2])):  # jokers to lay off (a meld's most jokers, fewest naturals)
        if pool.take("JK"):
            hand.append("JK")
    hand += pool.random_cards(rng.choice([1, 1, 2]))
    rng.shuffle(hand)
    others = other_hands(rng, pool, players)
    return {
        "hands": [hand, *others],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": table,
        "opened": [rng.random() < 0.9] + [rng.random() < 0.6 for _ in range(players - 1)],
        "phase": "lay",
    }


def _joker_run(
    rng: random.Random, pool: Pool, table_reader: Any, length: int, inner: bool
) -> tuple[list[str], str] | None:
    """A run of `length` with one joker (at an inner place where `inner`),
    read as a meld, and the card that joker stands for: None where the pool
    or the meld rules do not allow one this time."""
    suit, start = rng.randrange(SUITS), rng.randint(1, 14 - length)
    cards = [_card(start + i, suit) for i in range(length)]
    place = rng.randrange(1, length - 1) if inner else rng.randrange(length)
    natural = cards[place]
    cards[place] = "JK"
    if pool.take_all(cards) is None:
        return None
    read = table_reader(cards)
    if read is None or read[0] != "run":
        pool.left.update(cards)
        return None
    return cards, natural


def _opened_setup(
    rng: random.Random, pool: Pool, focus: Focus, players: int, hand: list[str], table: list[dict[str, Any]]
) -> dict[str, Any]:
    """Seat 0 opened and in its lay, with `hand` (a random card beside) and
    `table`: what a move on the table is judged from."""
    hand = hand + pool.random_cards(rng.choice([0, 1, 1, 2]))
    rng.shuffle(hand)
    for m in table:
        if rng.random() < 0.4:
            m["owner"] = rng.randrange(players)
    return {
        "hands": [hand, *other_hands(rng, pool, players)],
        "stock": pool.random_cards(rng.choice([1, 2])),
        "discard": [],
        "table": table,
        "opened": [True] + [rng.random() < 0.6 for _ in range(players - 1)],
        "phase": "lay",
    }


def freed_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A joker freed with a table card (joker_freed_from_hand's edge): a run
    holding a joker, the card it stands for in a set of its rank on the
    table (three or four naturals: the joker takes its place there), and a
    hand card that extends either meld. The rearrangement that trades the
    two (:func:`.candidates.freed_tables`) is judged from here."""
    if focus.jokers == 0:
        return None
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    run = _joker_run(rng, pool, table_reader, rng.choice([3, 3, 4]), inner=rng.random() < 0.7)
    if run is None:
        return None
    cards, natural = run
    others = [_card(_rank_of(natural), x) for x in range(SUITS) if _card(_rank_of(natural), x) != natural]
    rng.shuffle(others)
    mate = pool.take_all([natural, *others[: rng.choice([2, 2, 3])]])
    if mate is None or table_reader(mate) is None:
        return None
    table = [{"cards": cards}, {"cards": mate}]
    read = table_reader(cards)
    hand = [f for f in fits(cards, read[1], read[0]) if f != natural and rng.random() < 0.7 and pool.take(f)]
    hand += [f for f in others[len(mate) - 1 :] if pool.take(f)]  # the set's missing suit
    return _opened_setup(rng, pool, focus, players, hand, table)


def split_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A meld holding a joker that a rearrangement may split (no_joker_split's
    edge): a run of four or five with an inner joker, or a set of four with
    one, and in hand what makes a new meld with its end card (two of that
    rank, or the two cards after it in its suit). The split
    (:func:`.candidates.split_tables`) is judged from here."""
    if focus.jokers == 0:
        return None
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    if rng.random() < 0.6:
        run = _joker_run(rng, pool, table_reader, rng.choice([4, 5]), inner=True)
        if run is None:
            return None
        cards = run[0]
    else:
        rank = rng.randint(1, 13)
        cards = [_card(rank, x) for x in rng.sample(range(SUITS), 3)] + ["JK"]
        if pool.take_all(cards) is None:
            return None
        if table_reader(cards) is None:
            return None
    end = cards[rng.choice([0, -1])]
    if end == "JK":
        end = cards[0]
    rank, suit = _rank_of(end), _suit_of(end)
    if rng.random() < 0.5:
        want = [_card(rank, x) for x in range(SUITS) if x != suit][:2]
    else:
        want = [_card(rank + 1, (suit + 1) % SUITS), _card(rank + 2, (suit + 1) % SUITS)]
        want = [_card(rank, (suit + 1) % SUITS)] + want[:1] if rng.random() < 0.3 else want
    hand = [c for c in want if pool.take(c)]
    table = [{"cards": cards}]
    if rng.random() < 0.4:
        extra = random_meld(rng, pool, high=False)
        if extra is not None and table_reader(extra) is not None:
            table.append({"cards": extra})
    return _opened_setup(rng, pool, focus, players, hand, table)


def replay_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """A joker to swap and then lay off (joker_replay_new_meld's edge): a
    swap setup whose seat has opened, and beside the joker's meld a meld of
    naturals the freed joker may be laid off to, or cards that make a new
    meld with it."""
    setup = swap_setup(rng, focus, table_reader)
    if setup is None:
        return None
    used = Counter(c for h in setup["hands"] for c in h)
    used.update(c for m in setup["table"] for c in m["cards"])
    used.update(setup["stock"])
    pool = Pool(focus, rng)
    pool.left.subtract(used)
    for _ in range(4):
        meld = random_meld(rng, pool, high=False)
        if meld is None:
            continue
        if "JK" in meld or table_reader(meld) is None or table_reader([*meld, "JK"]) is None:
            pool.left.update(meld)
            continue
        setup["table"].append({"cards": meld})
        break
    if rng.random() < 0.5:
        # two of a rank: a new set with the freed joker (what the plugin lets through)
        rank = rng.randint(1, 13)
        setup["hands"][0] += [
            c for c in (_card(rank, x) for x in rng.sample(range(SUITS), 2)) if pool.take(c)
        ]
    setup["opened"][0] = True
    return setup


def corner_setup(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    """Runs at the ace's corners (melds.ace, melds.wrap): in hand a run
    through Q-K-A, K-A-2, A-2-3 or Q-K-A-2 of one suit, and on the table a
    run ending at the king or starting at the two or the ace, with the hand
    card that turns its corner; the seat opened mostly. What a file's ace
    and corner allow is judged on the meld and the lay off from here."""
    pool = Pool(focus, rng)
    players = rng.choice(focus.players)
    suit = rng.randrange(SUITS)
    start = rng.choice([12, 13, 1, 12, 13])  # Q, K or A first
    length = rng.choice([3, 3, 4])
    hand = [c for c in (_card(start + i, suit) for i in range(length)) if pool.take(c)]
    table: list[dict[str, Any]] = []
    if rng.random() < 0.7:
        other = (suit + 1 + rng.randrange(SUITS - 1)) % SUITS
        low = rng.random() < 0.5
        cards = [_card(r, other) for r in ((2, 3, 4) if low else (11, 12, 13))]
        if rng.random() < 0.4:
            cards = [_card(r, other) for r in ((1, 2, 3) if low else (11, 12, 13, 1))]
        taken = pool.take_all(cards)
        if taken is not None and table_reader(taken) is not None:
            table.append({"cards": taken})
            turn = [_card(13, other), _card(1, other)] if low else [_card(1, other), _card(2, other)]
            hand += [c for c in turn if c not in taken and rng.random() < 0.7 and pool.take(c)]
        elif taken is not None:
            pool.left.update(taken)
    setup = _opened_setup(rng, pool, focus, players, hand, table)
    if rng.random() < 0.2:
        setup["opened"][0] = False
    return setup


def _rank_of(card: str) -> int:
    return parse_card(card).rank


def _suit_of(card: str) -> int:
    return parse_card(card).suit


def _end(rng: random.Random, focus: Focus, table_reader: Any) -> dict[str, Any] | None:
    return end_setup(rng, focus)


# A plugin's edge is unknown to the search: each of these in turn.
PLUGIN_SETUPS = (
    random_setup,
    swap_setup,
    table_setup,
    taken_discard_setup,
    opening_setup,
    going_out_setup,
    partner_setup,
    _end,
)


# Settings of what a meld may hold, judged on melds laid and laid off to.
MELD_SHAPE = ("jokers.max_per_meld", "jokers.min_naturals")

# Where the ace may stand and whether a run turns the corner: runs at the corners.
CORNER = ("melds.ace", "melds.wrap")

# A bundled plugin's own edge (rami_core/diff/reasons.py's PLUGIN_NEEDS says
# what each judges); its search tries that setup mostly, every kind now and then.
PLUGIN_EDGE = {
    "joker_freed_from_hand": freed_setup,
    "no_joker_split": split_setup,
    "joker_replay_new_meld": replay_setup,
}

# Where an opening setting's edge is: going out below the points at once, and
# with the discard pile's top taken first.
OPENING_EDGE = {
    "opening.go_out_below_points": going_out_setup,
    "opening.go_out_run_without_taken_discard": taken_discard_setup,
}
