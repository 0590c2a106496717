"""The moves a player can make, as typed values.

Actions name cards by face (copy 0): a player says "the 7♥", never "the
second deck's 7♥"; the engine picks the physical card from the hand. Each
action also has a plain-dict form, the one the scenario format and saved
games use, so that a log of actions is readable and replays exactly.

The acting seat is the field `seat`, the word the engine, the state and the
hooks use everywhere; the dict form keeps the key `player` (`{player: 0,
draw: stock}`), because scenarios and saved games already spell it so.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rami_core.cards import Card, CardError, format_card, parse_card
from rami_core.files.userfiles import short
from rami_core.words.problems import Said, said


# Checks made when an action is built: a bad value from the Python API is refused
# at once with a clear TypeError, not accepted into a log that cannot be saved.
def _seat(value: Any, what: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a seat number (an int), got {type(value).__name__} {value!r:.40}")
    return value


def _index(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a meld number (an int), got {type(value).__name__} {value!r:.40}")
    return value


def _card(value: Any, what: str = "card") -> Card:
    if not isinstance(value, Card):
        raise TypeError(
            f"{what} must be a Card (rami_core.cards.Card or parse_card('7H')), got {type(value).__name__} {value!r:.40}"
        )
    return value


def _card_tuple(values: Any, what: str) -> tuple[Card, ...]:
    if isinstance(values, (str, bytes, Card)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{what} must be a sequence of Cards, got {type(values).__name__}")
    return tuple(_card(c, what) for c in values)


def _meld_tuple(values: Any, what: str) -> tuple[tuple[Card, ...], ...]:
    if isinstance(values, (str, bytes, Card)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{what} must be a sequence of melds, got {type(values).__name__}")
    return tuple(_card_tuple(m, what) for m in values)


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    source: str  # "stock" | "discard"

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")  # the source is the engine's to judge: a bad one is refused as a rule


@dataclass(frozen=True, slots=True)
class Meld:
    seat: int
    melds: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")
        object.__setattr__(self, "melds", _meld_tuple(self.melds, "melds"))


@dataclass(frozen=True, slots=True)
class LayOffItem:
    card: Card
    to: int
    as_: Card | None = None  # for a joker: the card it is to stand for

    def __post_init__(self) -> None:
        _card(self.card)
        _index(self.to, "to")
        if self.as_ is not None:
            _card(self.as_, "as_")


@dataclass(frozen=True, slots=True)
class LayOff:
    seat: int
    items: tuple[LayOffItem, ...]

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")
        items = tuple(self.items)
        if not all(isinstance(it, LayOffItem) for it in items):
            raise TypeError("items must be LayOffItems")
        object.__setattr__(self, "items", items)


@dataclass(frozen=True, slots=True)
class Swap:
    seat: int
    cards: tuple[Card, ...]
    meld: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")
        object.__setattr__(self, "cards", _card_tuple(self.cards, "cards"))
        _index(self.meld, "meld")


@dataclass(frozen=True, slots=True)
class Rearrange:
    seat: int
    melds: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")
        object.__setattr__(self, "melds", _meld_tuple(self.melds, "melds"))


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")
        _card(self.card)


@dataclass(frozen=True, slots=True)
class EndTurn:
    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn clock ran out: the engine plays the profile's default for the seat."""

    seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat")


@dataclass(frozen=True, slots=True)
class NextRound:
    """Not a player's move: the log's marker that the next round was dealt."""


Action = Draw | Meld | LayOff | Swap | Rearrange | Discard | EndTurn | Timeout


# ---------------------------------------------------------------- the codec: dict form <-> Action
#
# The one codec for actions: the scenario runner, saved games, the diff tools,
# the legal-move offers and the table server all read and write actions here.
# `action_from_dict` reads the dict form (`{player: 0, draw: stock}`) and says
# where it is wrong (ActionFormatError); `action_from_parts` builds an action
# from a kind and its value once the value's shape is known good, and is the
# one step both `action_from_dict` and the server (after its protocol model,
# rami_core.server.protocol, derived from the names below) end in; each rule
# of the form is written once, here.

ACTION_KEYS = ("draw", "meld", "layoff", "swap", "rearrange", "discard", "end_turn", "timeout")
# Each kind's key in the dict form, and the action it reads as (in ACTION_KEYS order).
ACTION_TYPES: dict[str, type[Action]] = {
    "draw": Draw,
    "meld": Meld,
    "layoff": LayOff,
    "swap": Swap,
    "rearrange": Rearrange,
    "discard": Discard,
    "end_turn": EndTurn,
    "timeout": Timeout,
}
Pile = Literal["stock", "discard"]
DRAW_PILES: tuple[str, ...] = get_args(Pile)  # where a `draw` may take its card
LAYOFF_ITEM_KEYS = ("card", "to", "as")  # one laid-off card: `as` optional (a joker's stand-in)


def one_swap_form(has_card: bool, has_cards: bool) -> bool:
    """A swap names the cards it gives as `card` (one) or `cards` (several):
    one of the two, never both, never neither."""
    return has_card != has_cards


class ActionFormatError(ValueError):
    """A step or saved action that is not written in the action dict form.
    Its argument is a :class:`~rami_core.words.problems.Said` (``said``): the
    problem as a code with parameters, its English words as the text."""

    @property
    def said(self) -> Said:
        return said(self.args[0]) if self.args else Said("text", text="")


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise ActionFormatError(Said("action_cards_list", where=where, value=short(value)))
    try:
        return tuple(parse_card(x) for x in value)
    except CardError as e:
        raise ActionFormatError(Said("at", where=where, detail=e.said)) from None


def _melds(value: Any, where: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise ActionFormatError(Said("action_melds_list", where=where, value=short(value)))
    return tuple(_cards(m, where) for m in value)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionFormatError(Said("action_whole_number", where=where, value=short(value)))
    return value


def action_from_parts(seat: int, key: str, value: Any) -> Action:
    """The action of kind `key` (one of ACTION_KEYS) for `seat`, from its value
    as the dict form gives it, except two: a layoff's items as `(card, to,
    as)` triples (`as` None when not given) and a swap as a `(form, given,
    meld)` triple, `form` the key it names its cards by (`card` or `cards`)
    and `given` that key's value. Cards are read here; a card
    that is not one, or a number that is not a whole one, is an
    ActionFormatError located at the kind."""
    try:
        if key == "draw":
            if value not in DRAW_PILES:
                raise ActionFormatError(Said("action_draw_pile", value=short(value)))
            return Draw(seat, value)
        if key == "meld":
            return Meld(seat, _melds(value, "meld"))
        if key == "rearrange":
            return Rearrange(seat, _melds(value, "rearrange"))
        if key == "layoff":
            items = []
            for card, to, as_ in value:
                as_card = parse_card(as_) if as_ is not None else None
                items.append(LayOffItem(parse_card(card), _int(to, "layoff.to"), as_card))
            return LayOff(seat, tuple(items))
        if key == "swap":
            form, given, meld = value
            cards = (parse_card(given),) if form == "card" else _cards(given, "swap.cards")
            return Swap(seat, cards, _int(meld, "swap.meld"))
        if key == "discard":
            return Discard(seat, parse_card(value))
        if key == "end_turn":
            return EndTurn(seat)
        if key == "timeout":
            return Timeout(seat)
    except CardError as e:
        raise ActionFormatError(Said("at", where=key, detail=e.said)) from None
    raise ValueError(f"not an action kind: {key!r}")


def _layoff_items(value: Any) -> Iterator[tuple[Any, Any, Any]]:
    # A generator: each item's form is checked as it is built, so the first
    # thing wrong in the list is the one told.
    if not isinstance(value, list):
        raise ActionFormatError(Said("action_layoff_list", value=short(value)))
    for it in value:
        if not isinstance(it, dict) or "card" not in it or "to" not in it:
            raise ActionFormatError(Said("action_layoff_item", value=short(it)))
        extra = set(it) - set(LAYOFF_ITEM_KEYS)
        if extra:
            raise ActionFormatError(Said("action_layoff_keys", keys=str(sorted(map(str, extra)))))
        yield it["card"], it["to"], it.get("as")


def _swap_parts(value: Any) -> tuple[Any, Any, Any]:
    if (
        not isinstance(value, dict)
        or "meld" not in value
        or not one_swap_form("card" in value, "cards" in value)
    ):
        raise ActionFormatError(Said("action_swap_form", value=short(value)))
    form = "card" if "card" in value else "cards"
    return form, value[form], value["meld"]


def action_from_dict(step: dict[str, Any]) -> Action:
    """Build an action from its dict form, e.g. `{player: 0, draw: stock}`."""
    keys = [k for k in ACTION_KEYS if k in step]
    if len(keys) != 1:
        raise ActionFormatError(
            Said("action_one_of", actions=", ".join(ACTION_KEYS), keys=str(sorted(map(str, step))))
        )
    key = keys[0]
    if "player" not in step:
        raise ActionFormatError(Said("action_needs_player", action=key))
    seat = _int(step["player"], "player")
    value = step[key]
    if key == "layoff":
        value = _layoff_items(value)
    elif key == "swap":
        value = _swap_parts(value)
    return action_from_parts(seat, key, value)


def action_to_dict(a: Action | NextRound) -> dict[str, Any]:
    """The dict form of an action (inverse of action_from_dict)."""
    f = format_card
    if isinstance(a, NextRound):
        return {"next_round": True}
    if isinstance(a, Draw):
        return {"player": a.seat, "draw": a.source}
    if isinstance(a, Meld):
        return {"player": a.seat, "meld": [[f(c) for c in m] for m in a.melds]}
    if isinstance(a, Rearrange):
        return {"player": a.seat, "rearrange": [[f(c) for c in m] for m in a.melds]}
    if isinstance(a, LayOff):
        items = []
        for it in a.items:
            d: dict[str, Any] = {"card": f(it.card), "to": it.to}
            if it.as_ is not None:
                d["as"] = f(it.as_)
            items.append(d)
        return {"player": a.seat, "layoff": items}
    if isinstance(a, Swap):
        if len(a.cards) == 1:
            return {"player": a.seat, "swap": {"card": f(a.cards[0]), "meld": a.meld}}
        return {"player": a.seat, "swap": {"cards": [f(c) for c in a.cards], "meld": a.meld}}
    if isinstance(a, Discard):
        return {"player": a.seat, "discard": f(a.card)}
    if isinstance(a, EndTurn):
        return {"player": a.seat, "end_turn": True}
    return {"player": a.seat, "timeout": True}


_KINDS = {
    Meld: "meld",
    LayOff: "layoff",
    Swap: "swap",
    Rearrange: "rearrange",
    Discard: "discard",
    EndTurn: "end_turn",
    Timeout: "timeout",
}


def action_kind(action: Action) -> str:
    """A short name for counting actions by kind (draws split by pile)."""
    if isinstance(action, Draw):
        return "draw_discard" if action.source == "discard" else "draw_stock"
    return _KINDS[type(action)]
