"""What one seat may know: the only thing bots and interfaces are given.

A view is built from the state by copying out the public part (table,
discard pile, counts, scores) and the seat's own hand; the stock's order, the
other hands and the seed never enter it. At the end of a round every hand
is shown at the table, so the view then carries them all, as the players
would see them laid face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card
from .melds import Reading
from .state import OVER, GameState, TableMeld, card_code


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
    # This seat's obligations in the current turn.
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

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase != OVER

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def to_dict(self) -> dict[str, Any]:
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
            "penalties": list(self.penalties),
            "revealed_hands": [cards(h) for h in self.revealed_hands]
            if self.revealed_hands is not None
            else None,
            "game_over": self.game_over,
            "game_winner": self.game_winner,
        }


def _public(c: Card) -> Card:
    """A card as another seat sees it: which deck it came from is not visible."""
    return c if c.copy == 0 else Card(c.rank, c.suit, 0)


def _public_key(c: Card) -> tuple[int, int]:
    return (c.suit, c.rank)  # sort_key of a public card (its copy is 0)


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


def view(state: GameState, seat: int, *, teams: bool = False) -> SeatView:
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat}")
    own_turn = state.turn == seat and state.phase != OVER
    over = state.phase == OVER
    return SeatView(
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
        drew_from=state.drew_from if own_turn else None,
        taken_discard=_public(state.taken_discard) if own_turn and state.taken_discard is not None else None,
        jokers_to_replay=tuple(_public(c) for c in state.jokers_to_replay) if own_turn else (),
        laid_this_turn=state.laid_this_turn if own_turn else False,
        opened_this_turn=state.opened_this_turn if own_turn else False,
        winner=state.winner if over else None,
        penalties=tuple(state.penalties) if over and state.penalties else tuple([0] * state.players),
        revealed_hands=tuple(_public_hand(h) for h in state.hands) if over else None,
        game_over=state.game_over,
        game_winner=state.game_winner if state.game_over else None,
    )
