"""What changes during a game, apart from the rules that govern it.

The state is plain data: lists of cards and immutable table melds, so that a
copy is a handful of list copies (the turn machine works on a copy and keeps
it only if the whole action is legal) and JSON round-trips exactly. The stock
is stored with its top card last, so a draw is a `pop()`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, fields
from typing import Any

from rami_core.cards import Card, format_card, parse_card
from rami_core.cards.melds import Reading

DRAW = "draw"
LAY = "lay"
OVER = "over"
PHASES = (DRAW, LAY, OVER)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its reading (cards in place order, what each joker
    stands for) and the seat that laid it (None for a meld given by a setup
    without an owner)."""

    reading: Reading
    owner: int | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.reading.cards


@dataclass
class GameState:
    players: int
    hands: list[list[Card]]
    stock: list[Card]  # top card last
    discard: list[Card]  # top card last
    table: list[TableMeld]
    opened: list[bool]
    laid_before: list[bool]  # a seat has laid something before this turn (rami sec)
    scores: list[int]  # cumulative, per side (team in a team game)
    turn: int = 0
    phase: str = DRAW
    # Within the current turn.
    drew_from: str | None = None
    taken_discard: Card | None = None
    laid_this_turn: bool = False
    opened_this_turn: bool = False
    jokers_to_replay: list[Card] = field(default_factory=list)
    stock_exhausted: bool = False  # the last stock card was drawn this turn
    # Round and game.
    round_no: int = 1
    first_player: int = 0
    turns_played: int = 0
    reshuffles: int = 0
    seed: int | None = None
    penalties: list[int] = field(default_factory=list)
    winner: int | None = None
    round_end: str | None = None  # out | empty_stock | replay
    rami_sec: bool = False
    game_over: bool = False
    game_winner: int | None = None

    # ------------------------------------------------------------------ helpers

    @property
    def round_over(self) -> bool:
        return self.phase == OVER

    def copy(self) -> GameState:
        """A copy sharing only immutable parts (cards, table melds): the turn
        machine's working copy, so it is written out field by field for speed."""
        new = GameState.__new__(GameState)
        # the copied dict becomes the new state's (updating a new instance's
        # empty dict with it cost as much again as the copy itself)
        new.__dict__ = self.fields_copy()
        return new

    def fields_copy(self) -> dict[str, Any]:
        """The fields as a dict whose lists are copies (what `copy` holds):
        a plugin guard compares the state with it after a judging hook."""
        d = self.__dict__.copy()
        d["hands"] = [h.copy() for h in self.hands]
        for name in _LIST_FIELDS:
            d[name] = d[name].copy()
        return d

    def all_cards(self) -> list[Card]:
        """Every physical card in play, wherever it is: the conservation check."""
        out: list[Card] = list(self.stock) + list(self.discard)
        for h in self.hands:
            out.extend(h)
        for m in self.table:
            out.extend(m.cards)
        return out

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown state keys: {sorted(unknown)}")
        kw: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            v = data[f.name]
            if f.name in ("hands",):
                v = [[_card(x) for x in h] for h in v]
            elif f.name in ("stock", "discard", "jokers_to_replay"):
                v = [_card(x) for x in v]
            elif f.name == "taken_discard":
                v = None if v is None else _card(v)
            elif f.name == "table":
                v = [_meld(m) for m in v]
            kw[f.name] = v
        return cls(**kw)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))


_LIST_FIELDS = (
    "stock",
    "discard",
    "table",
    "opened",
    "laid_before",
    "scores",
    "jokers_to_replay",
    "penalties",
)


@functools.lru_cache(maxsize=4096)
def card_code(c: Card) -> str:
    """A physical card in JSON: its canonical face, then `/copy` when not 0."""
    s = format_card(c)
    return s if c.copy == 0 else f"{s}/{c.copy}"


@functools.lru_cache(maxsize=4096)
def _card(text: str) -> Card:
    face, _, copy = text.partition("/")
    c = parse_card(face)
    return Card(c.rank, c.suit, int(copy) if copy else 0)


def _encode(v: Any) -> Any:
    if isinstance(v, Card):
        return card_code(v)
    if isinstance(v, TableMeld):
        r = v.reading
        return {
            "kind": r.kind,
            "cards": [card_code(c) for c in r.cards],
            "stands": [list(s) for s in r.stands],
            "start": r.start,
            "suit": r.suit,
            "rank": r.rank,
            "owner": v.owner,
        }
    if isinstance(v, list):
        return [_encode(x) for x in v]
    return v


def _meld(d: dict[str, Any]) -> TableMeld:
    r = Reading(
        d["kind"],
        tuple(_card(c) for c in d["cards"]),
        tuple((int(a), int(b)) for a, b in d["stands"]),
        start=d["start"],
        suit=d["suit"],
        rank=d["rank"],
    )
    return TableMeld(r, d["owner"])
