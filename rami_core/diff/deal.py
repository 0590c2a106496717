"""Where two profiles deal differently: one seeded deal under each.

Deck size, hand size, a turned-up card, the dealer's extra card, the first
player: no move is judged differently, the table simply starts otherwise. A
deal from the same seed under A and under B shows it in the expect keys a
scenario would check.
"""

from __future__ import annotations

from dataclasses import dataclass

from rami_core.profile.model import Profile
from rami_core.referee.engine import Game
from rami_core.referee.position import observe

DEAL_KEYS = ("hand_sizes", "stock_size", "discard_size", "first_player", "turn", "phase")


@dataclass(frozen=True)
class DealDifference:
    players: int | None  # the seat count dealt, None where no count is played by both
    rows: tuple[tuple[str, str, str], ...]  # (what, under A, under B)
    counts: tuple[str, str] | None  # the player counts, where they differ


DEAL_GROUPS = ("players.", "deck.", "deal.")  # settings a deal summary shows


def shown_by_deal(path: str, deal: DealDifference | None) -> bool:
    """Whether the deal summary shows what setting `path` changes: a seat
    count, a deck or a deal setting, where the seeded deals or the player
    counts do differ."""
    if deal is None or not path.startswith(DEAL_GROUPS):
        return False
    return (
        deal.counts is not None if path.startswith("players.") else bool(deal.rows) or deal.counts is not None
    )


def deal_difference(a: Profile, b: Profile, seed: int) -> DealDifference | None:
    """The seeded deal's differences (None where the deals and the player counts agree)."""
    ca, cb = a.player_counts(), b.player_counts()
    counts = (_counts(ca), _counts(cb)) if ca != cb else None
    common = [n for n in ca if n in cb]
    rows: list[tuple[str, str, str]] = []
    players = common[0] if common else None
    deck_a, deck_b = 52 * a.deck.decks + a.deck.jokers, 52 * b.deck.decks + b.deck.jokers
    if deck_a != deck_b:
        rows.append(("deck", str(deck_a), str(deck_b)))
    if players is not None:
        oa = observe(Game.new(a, players, seed))
        ob = observe(Game.new(b, players, seed))
        for key in DEAL_KEYS:
            if oa[key] != ob[key]:
                rows.append((key, _text(oa[key]), _text(ob[key])))
    if not rows and counts is None:
        return None
    return DealDifference(players, tuple(rows), counts)


def _counts(counts: list[int]) -> str:
    return ", ".join(map(str, counts))


def _text(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
