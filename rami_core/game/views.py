"""What one seat may know: the only thing bots and interfaces are given.

A view is built from the state by copying out every public fact (table,
discard pile, counts, scores, who has opened or laid, the turn counters, what
the seat to play drew and owes this turn) and the seat's own hand; the
stock's order, the other hands and the seed never enter it. Which deck a card
came from is not visible either (every card is shown as copy 0). At the end
of a round every hand is shown at the table, so the view then carries them
all, as the players would see them laid face up.

`HIDDEN_FIELDS` and `PUBLIC_FIELDS` sort every field of `GameState`: a
guard test fails when a field is added to the state and to neither, so a
new public fact cannot be forgotten by the views (and by the state a bot
rebuilds from its view, `bots.base.state_from_view`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import itemgetter
from typing import Any

from rami_core.cards import FACE_CARD_OF, Card
from rami_core.cards.melds import Reading
from rami_core.game.state import OVER, GameState, TableMeld, card_code


@dataclass(frozen=True)
class MeldView:
    reading: Reading
    owner: int | None

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.reading.cards


@dataclass(frozen=True)
class SeatView:
    seat: int
    players: int
    hand: tuple[Card, ...]
    table: tuple[MeldView, ...]
    discard: tuple[Card, ...]  # bottom first, top last
    hand_sizes: tuple[int, ...]
    stock_size: int
    opened: tuple[bool, ...]
    scores: tuple[int, ...]
    turn: int
    phase: str
    round_no: int
    teams: bool
    # What the seat to play has done and owes in the current turn: seen by
    # everybody at the table.
    drew_from: str | None
    taken_discard: Card | None
    jokers_to_replay: tuple[Card, ...]
    laid_this_turn: bool
    opened_this_turn: bool
    # Round end, shown to everybody.
    winner: int | None
    penalties: tuple[int, ...]
    revealed_hands: tuple[tuple[Card, ...], ...] | None
    game_over: bool
    game_winner: int | None
    # The rest of the public record of the round.
    laid_before: tuple[bool, ...] = ()  # each seat has laid something before this turn (rami sec)
    first_player: int = 0
    turns_played: int = 0  # turns ended this round, every seat counted
    reshuffles: int = 0  # stock rebuilds this round, and deals replayed
    stock_exhausted: bool = False  # the last stock card was drawn this turn
    round_end: str | None = None
    rami_sec: bool = False
    # The card taken from the discard pile is still in the hand of the seat
    # to play (which of two twins was laid is seen at the table, not in a
    # hand shown without deck marks).
    taken_discard_in_hand: bool = False
    # Where the card taken from the discard pile lies on the table, if the seat
    # laid it this turn: (meld, position). Everyone saw it go there; the table
    # shows no deck marks, so without it a joker swapped back into the hand
    # could not be told from the one taken.
    taken_discard_at: tuple[int, int] | None = None
    # The card taken from the discard pile is one of the jokers to replay:
    # laid and freed again by a swap this turn, in sight of everyone.
    taken_discard_to_replay: bool = False

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to play (never once the round is over)."""
        return self.turn == self.seat and self.phase != OVER

    @property
    def discard_top(self) -> Card | None:
        """The card on top of the discard pile, the one a discard draw takes; None when the pile is empty."""
        return self.discard[-1] if self.discard else None

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data, cards in card notation (what the server sends and saves hold)."""

        def cards(cs) -> list[str]:
            return [card_code(c).split("/")[0] for c in cs]

        return {
            "seat": self.seat,
            "players": self.players,
            "hand": cards(self.hand),
            "table": [{"cards": cards(m.cards), "owner": m.owner} for m in self.table],
            "discard": cards(self.discard),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "opened": list(self.opened),
            "scores": list(self.scores),
            "turn": self.turn,
            "phase": self.phase,
            "round_no": self.round_no,
            "teams": self.teams,
            "drew_from": self.drew_from,
            "taken_discard": cards([self.taken_discard])[0] if self.taken_discard else None,
            "jokers_to_replay": cards(self.jokers_to_replay),
            "laid_this_turn": self.laid_this_turn,
            "opened_this_turn": self.opened_this_turn,
            "winner": self.winner,
            "penalties": list(self.penalties) if self.penalties else [0] * self.players,
            "revealed_hands": [cards(h) for h in self.revealed_hands]
            if self.revealed_hands is not None
            else None,
            "game_over": self.game_over,
            "game_winner": self.game_winner,
            "laid_before": list(self.laid_before),
            "first_player": self.first_player,
            "turns_played": self.turns_played,
            "reshuffles": self.reshuffles,
            "stock_exhausted": self.stock_exhausted,
            "round_end": self.round_end,
            "rami_sec": self.rami_sec,
            "taken_discard_in_hand": self.taken_discard_in_hand,
            "taken_discard_at": list(self.taken_discard_at) if self.taken_discard_at else None,
            "taken_discard_to_replay": self.taken_discard_to_replay,
        }


# A card as another seat sees it: which deck it came from is not visible
# (its face as copy 0, remembered per card: a view maps every card of the
# hand and the discard pile).
_public = FACE_CARD_OF.__getitem__

# sort_key of a public card (its copy is 0): (suit, rank)
_public_key = itemgetter(1, 0)


# A table meld as every seat sees it, computed once per meld: table melds are
# immutable, and most of them stay on the table, unchanged, for many turns.
# Keyed by the meld object's id, the meld kept alongside so that the id is not reused.
_MELD_VIEWS: dict[int, tuple[TableMeld, MeldView]] = {}
_MELD_VIEWS_MAX = 4096


def _meld_view(m: TableMeld) -> MeldView:
    hit = _MELD_VIEWS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    r = m.reading
    if any(c.copy for c in r.cards):
        r = Reading(r.kind, tuple(_public(c) for c in r.cards), r.stands, r.start, r.suit, r.rank)
    if len(_MELD_VIEWS) >= _MELD_VIEWS_MAX:
        _MELD_VIEWS.clear()
    mv = MeldView(r, m.owner)
    _MELD_VIEWS[id(m)] = (m, mv)
    return mv


def _public_hand(hand) -> tuple[Card, ...]:
    return tuple(sorted(map(_public, hand), key=_public_key))


# Every field of GameState is one or the other (tests/test_views.py checks it).
HIDDEN_FIELDS = frozenset({"hands", "stock", "seed"})  # own hand and the stock's size excepted
PUBLIC_FIELDS = frozenset(
    {
        "players",
        "discard",
        "table",
        "opened",
        "laid_before",
        "scores",
        "turn",
        "phase",
        "drew_from",
        "taken_discard",
        "laid_this_turn",
        "opened_this_turn",
        "jokers_to_replay",
        "stock_exhausted",
        "round_no",
        "first_player",
        "turns_played",
        "reshuffles",
        "penalties",
        "winner",
        "round_end",
        "rami_sec",
        "game_over",
        "game_winner",
    }
)
# Facts of the view derived from public fields, past the GameState fields:
# where the card taken from the discard pile is (every seat saw it).
DERIVED_PUBLIC = frozenset({"taken_discard_in_hand", "taken_discard_at", "taken_discard_to_replay"})


def view(state: GameState, seat: int, *, teams: bool = False) -> SeatView:
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat}")
    over = state.phase == OVER
    taken = state.taken_discard
    # The view's fields set directly (every one of them, `_SEATVIEW_FIELDS`
    # checked by tests/test_views.py): a frozen dataclass's __init__ sets each of
    # its 32 fields through object.__setattr__, some 9 µs per view, for every
    # decision of every bot.
    v = object.__new__(SeatView)
    v.__dict__.update(
        seat=seat,
        players=state.players,
        hand=_public_hand(state.hands[seat]),
        table=tuple(map(_meld_view, state.table)),
        discard=tuple(map(_public, state.discard)),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        opened=tuple(state.opened),
        scores=tuple(state.scores),
        turn=state.turn,
        phase=state.phase,
        round_no=state.round_no,
        teams=teams,
        drew_from=state.drew_from,
        taken_discard=_public(taken) if taken is not None else None,
        jokers_to_replay=tuple(_public(c) for c in state.jokers_to_replay),
        laid_this_turn=state.laid_this_turn,
        opened_this_turn=state.opened_this_turn,
        winner=state.winner if over else None,
        penalties=tuple(state.penalties),
        revealed_hands=tuple(_public_hand(h) for h in state.hands) if over else None,
        game_over=state.game_over,
        game_winner=state.game_winner if state.game_over else None,
        laid_before=tuple(state.laid_before),
        first_player=state.first_player,
        turns_played=state.turns_played,
        reshuffles=state.reshuffles,
        stock_exhausted=state.stock_exhausted,
        round_end=state.round_end,
        rami_sec=state.rami_sec,
        taken_discard_in_hand=taken is not None and not over and taken in state.hands[state.turn],
        taken_discard_at=_place_of(state, taken) if taken is not None and not over else None,
        taken_discard_to_replay=taken is not None and not over and taken in state.jokers_to_replay,
    )
    return v


_SEATVIEW_FIELDS = tuple(f.name for f in fields(SeatView))


def _place_of(state: GameState, card: Card) -> tuple[int, int] | None:
    """(meld, position) of this very card (deck mark included) on the table."""
    for i, m in enumerate(state.table):
        for j, c in enumerate(m.reading.cards):
            if c == card and c.copy == card.copy:
                return (i, j)
    return None
