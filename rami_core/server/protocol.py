"""The table server's JSON protocol, as pydantic models.

The models are the protocol: the server validates every incoming message
with them before anything else looks at it, and `rami schema --protocol`
prints the JSON Schemas generated from them, so a client written in another
language validates against the same text the server enforces. Actions keep
the scenario format's dict form (`{"draw": "stock"}`), without `player`: the
seat comes from the token. Their models are derived from the engine's codec
(rami_core.game.actions: the kinds, the piles, the swap's `card` xor `cards`), with
the server's bounds on sizes; a validated model goes to the codec's
`action_from_parts` as it is (`wire_parts`), never through a dict.
"""

from __future__ import annotations

import functools
import operator
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)

from rami_core.game import actions as A
from rami_core.profile.model import Descriptions

Card = Annotated[
    str,
    Field(min_length=2, max_length=8, description="A card in rami's notation: 7H, 10♦, QS, JK."),
]
CardList = Annotated[list[Card], Field(max_length=120)]
MAX_MELDS = 60
# The most cards one action can name: the largest deck a profile may have
# (deck.decks 4, deck.jokers 8). A whole table rearranged fits; 60 melds of
# 120 cards (7,200) would only cost the server time to refuse.
MAX_ACTION_CARDS = 4 * 52 + 8


def _within_deck(melds: list[list[str]]) -> list[list[str]]:
    total = sum(len(m) for m in melds)
    if total > MAX_ACTION_CARDS:
        raise ValueError(f"{total} cards in one action: no deck holds more than {MAX_ACTION_CARDS}")
    return melds


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- actions (client -> server)


class _Action(_Strict):
    player: int | None = Field(
        None, ge=0, le=15, description="Optional: must be the token's seat if given (the token decides)."
    )


class LayOffItem(_Strict):
    card: Card
    to: int = Field(ge=0, le=999, description="The table meld's number (from 0, in table order).")
    as_: Card | None = Field(
        None, alias="as", description="For a joker: the card it stands for, where its place is ambiguous."
    )
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class SwapSpec(_Strict):
    card: Card | None = None
    cards: Annotated[list[Card], Field(min_length=1, max_length=4)] | None = None
    meld: int = Field(ge=0, le=999)

    @model_validator(mode="after")
    def _one_of(self) -> SwapSpec:
        if not A.one_swap_form(self.card is not None, self.cards is not None):
            raise ValueError("a swap gives `card` or `cards`, not both, not neither")
        return self


_Melds = Annotated[list[CardList], Field(min_length=1, max_length=MAX_MELDS), AfterValidator(_within_deck)]

# The wire's bounds on each engine action a client may send (a timeout is the
# clock's, never a client's): the kinds, their keys and their rules are the
# codec's (rami_core.game.actions), the sizes are the server's.
_WIRE_VALUES: dict[str, tuple[Any, Any]] = {
    "draw": (A.Pile, ...),
    "meld": (
        _Melds,
        Field(description="New melds from the hand, laid in one action (an opening is one such action)."),
    ),
    "layoff": (Annotated[list[LayOffItem], Field(min_length=1, max_length=120)], ...),
    "swap": (SwapSpec, ...),
    "rearrange": (
        _Melds,
        Field(description="The complete new table; the difference with the old one comes from the hand."),
    ),
    "discard": (Card, ...),
    "end_turn": (Literal[True], ...),
}
CLIENT_KEYS = tuple(k for k in A.ACTION_KEYS if k != "timeout")
assert tuple(_WIRE_VALUES) == CLIENT_KEYS, "every kind a client may send has its wire bounds"
assert (
    tuple(LayOffItem.model_fields) == ("card", "to", "as_") and LayOffItem.model_fields["as_"].alias == "as"
)
assert A.LAYOFF_ITEM_KEYS == ("card", "to", "as")

# One model a kind, named after the engine's action (DrawAction, LayOffAction...):
# `player` and the kind's key.
_KIND_MODELS: dict[type[_Action], str] = {
    create_model(  # type: ignore[call-overload]
        f"{A.ACTION_TYPES[key].__name__}Action",
        __base__=_Action,
        __module__=__name__,
        **{key: _WIRE_VALUES[key]},
    ): key
    for key in CLIENT_KEYS
}


class UndoAction(_Action):
    """Server extension: take back this turn's lays (never the draw), where the table allows undo."""

    undo: Literal[True]


class NextRoundAction(_Action):
    """Server extension: "continue" at a round's end. The next round is dealt
    once every person at the table has sent it (bots never wait), or when the
    round pause ends."""

    next_round: Literal[True]


ACTION_MODELS: tuple[type[_Action], ...] = (*_KIND_MODELS, UndoAction, NextRoundAction)
ActionModel: Any = functools.reduce(operator.or_, ACTION_MODELS)
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(ActionModel)


def wire_parts(model: _Action) -> tuple[str, Any]:
    """A validated action model's kind and value, as the codec's
    `action_from_parts` takes them (or `undo` / `next_round`, the server's own)."""
    if isinstance(model, UndoAction):
        return "undo", True
    if isinstance(model, NextRoundAction):
        return "next_round", True
    key = _KIND_MODELS[type(model)]
    value = getattr(model, key)
    if key == "layoff":
        return key, [(it.card, it.to, it.as_) for it in value]
    if key == "swap":
        return key, ("card", value.card, value.meld) if value.cards is None else (
            "cards",
            value.cards,
            value.meld,
        )
    return key, value


class ClientAction(_Strict):
    type: Literal["action"]
    action: ActionModel


class ClientPing(_Strict):
    """Keeps a connection alive through proxies; answered by the current view."""

    type: Literal["ping"]


# The quick messages a seat may send (by id: never free text); each page
# says them in its own words (static/i18n.js, `talk`).
PHRASES = ("well_played", "hurry", "bravo", "thanks", "again")
Phrase = Literal["well_played", "hurry", "bravo", "thanks", "again"]


class ClientTalk(_Strict):
    """A quick message from the fixed list (`phrase`), told to every
    connection at the table; a few a seat (`Limits.talk`), never stored."""

    type: Literal["talk"]
    phrase: Phrase


ClientMessage = ClientAction | ClientPing | ClientTalk
CLIENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------- tables (HTTP)


class CreateTable(_Strict):
    variant: str | None = Field(None, max_length=100, description="A preset name (rami51, voleur...).")
    rules: str | None = Field(
        None,
        max_length=1 << 20,
        description="A house-rule YAML text (may `extends:` a preset), checked by the profile loader.",
    )
    seats: Annotated[list[str], Field(min_length=1, max_length=8)] = Field(
        description="One entry a seat: `human` or a bot name."
    )
    seed: int | None = Field(None, ge=0, lt=2**63, description="The deal's seed (never shown to players).")
    names: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=8)] | None = None
    undo: bool = Field(True, description="Whether a seat may take back this turn's lays before it ends.")
    lang: Literal["en", "fr"] = Field(
        "en", description="The language of the names given to unnamed seats (`Joueur 2`, `robot glouton 3`)."
    )

    @model_validator(mode="after")
    def _one_profile(self) -> CreateTable:
        if (self.variant is None) == (self.rules is None):
            raise ValueError(
                "give `variant` (a preset name) or `rules` (a house-rule YAML text), one of them"
            )
        return self


class PublicJoin(_Strict):
    """\"Play now\": a seat at the next public table of an offer (a preset or
    a house file the operator lists), with the other people who clicked."""

    offer: str = Field(max_length=100, description="A name from `GET /api/public`'s offers.")
    players: int | None = Field(
        None, ge=2, le=8, description="The table's size (one the offer allows; default: its `default`)."
    )
    name: str = Field(min_length=1, max_length=40, description="The person's name at the table.")
    lang: Literal["en", "fr"] = Field("en", description="The language of the bots' names.")


class SeatInfo(BaseModel):
    seat: int
    kind: str = Field(description="`human` or the bot's name.")
    name: str
    token: str | None = Field(None, description="Only in the creation answer, for a human seat.")
    code: str | None = Field(
        None, description="Only in the creation answer, for a human seat: its short code (`/j/CODE`)."
    )
    connected: bool | None = None


class TableCreated(BaseModel):
    table: str
    seats: list[SeatInfo]
    url: str = Field(description="The table page (add `?token=` for a seat).")
    links: list[str | None] = Field(description="Each human seat's join link (null for a bot).")
    joins: list[str | None] = Field(
        default_factory=list, description="Each human seat's short join link, `/j/CODE` (null for a bot)."
    )
    creator_seat: int | None = Field(
        None, description="The first human seat: the creator's own (the lobby opens it), null without one."
    )


class TableSummary(BaseModel):
    table: str
    id: str = Field(description="The same as `table`.")
    variant: str
    players: int
    seats: list[SeatInfo]
    humans: int
    seats_taken: int = Field(description="Seats held by a bot or a connected person.")
    round_no: int
    phase: str
    game_over: bool
    actions: int = Field(description="Actions stored so far (the log's length).")
    stopped: str | None = Field(
        None,
        description="Why the table no longer moves (a round or a game past the turn and round caps), or null.",
    )
    public: bool = Field(False, description='A public table, its seats taken by "play now".')
    descriptions: dict[str, str] = Field(
        default_factory=dict, description="The profile's line by language (`en`, `fr`), for a lobby's list."
    )


class RefusalFields(BaseModel):
    """A refusal is data: the engine's adds its reason (a key of the refusal
    catalogue), the reason's named parameters, and its words in every
    language; a server code (a malformed request) has only code and message."""

    reason: str | None = Field(
        default=None, description="The refusal catalogue's key (rami_core.words.refusals.REFUSALS), if any."
    )
    params: dict[str, Any] | None = Field(
        default=None, description="The reason's named parameters (cards, meld counted from 0, points...)."
    )
    messages: dict[str, str] | None = Field(
        default=None, description="The refusal's words by language (en, fr), from the catalogue."
    )


class ErrorBody(RefusalFields):
    code: str = Field(description="A rule code (not_your_turn, invalid_meld...) or a server code.")
    message: str


class ErrorAnswer(BaseModel):
    error: ErrorBody


# ---------------------------------------------------------------- views and events (server -> client)


class TableMeldInfo(BaseModel):
    """A meld on the table as a view tells it (a `game.state.TableMeld`,
    numbered); `Meld` is the action that lays melds."""

    number: int
    cards: list[str]
    owner: int | None
    kind: str = Field(description="`run` or `set`.")


class RoundLine(BaseModel):
    round: int
    winner: int | None
    how: str
    penalties: list[int]
    scores: list[int]


class Clock(BaseModel):
    limit: int = Field(description="Seconds per turn.")
    remaining: float = Field(description="Seconds left in this turn when the view was sent.")
    deadline: float = Field(
        description="When the turn's time runs out, in the server's clock (Unix seconds): a page "
        "counts down to it, re-synchronised by `server_time` on every view."
    )
    server_time: float = Field(description="The server's clock (Unix seconds) when the view was made.")


class Refusal(RefusalFields):
    code: str = Field(description="The rule code (not_opened, draw_forbidden...).")
    message: str = Field(description="The refusal's English words.")


class Bounds(BaseModel):
    """What bounds the lays too many to list (rami_core.referee.legal.Bounds)."""

    opening: dict[str, Any] | None = Field(
        description="The opening need a lay must meet (points, pure_run, run_and_set, jokers, "
        "partner, all_at_once, go_out_below_points); null where the lay is not judged as an opening."
    )
    kept: int = Field(description="Cards that must stay in hand after a lay (one to discard, or none).")
    jokers_owed: list[str] = Field(description="Jokers freed this turn that must go back on the table.")
    taken_owed: str | None = Field(description="The card taken from the discard pile that must be laid.")


class Offer(BaseModel):
    """One action kind for the seat now, as the engine judges it."""

    allowed: bool
    moves: list[dict[str, Any]] = Field(
        description="Accepted moves in the action form (without the seat): every one where "
        "`complete`, else one as proof (new melds, rearrangements)."
    )
    complete: bool
    refusal: Refusal | None = Field(description="Why the kind is withheld (null when allowed).")
    bounds: Bounds | None = None
    exact: bool = Field(
        True,
        description="False where a search decides the kind (rearrange) and could not prove either way: "
        "the kind is offered because the rules permit it, with no example move; each try is judged.",
    )


class Legal(BaseModel):
    """What the seat may do now (rami_core.referee.legal.legal_moves): the kinds
    allowed, and per kind its moves or its refusal."""

    allowed: list[str] = Field(description="The kinds allowed, in order: draw_stock, draw_discard, meld, ...")
    kinds: dict[str, Offer]


class TableRules(BaseModel):
    discard: bool
    discard_pile: bool = Field(description="The table has a discard pile at all (voleur has none).")
    draw_from_discard: bool
    lay_off: bool
    rearrange: bool
    swap: bool
    undo: bool


class Owes(BaseModel):
    """What the seat must still do this turn (its own view only; empty otherwise)."""

    jokers: list[str] = Field(description="Jokers won back that must go back on the table this turn.")
    lay_taken: str | None = Field(
        description="The card taken from the discard pile that must be laid this turn."
    )
    keep_for_discard: bool = Field(description="A card must be kept to discard (one goes out by a discard).")


class RoundDetail(BaseModel):
    """Why each seat paid what it paid (the `round_over` event's own fields)."""

    rami_sec_rule: Literal["double", "bonus", "none"] | None = Field(
        None, description="The profile's `scoring.rami_sec`: what a rami sec does to the payments."
    )
    rami_sec_bonus: int | None = Field(None, description="With `bonus`, what each payment gains.")
    hand_values: list[int] | None = Field(
        None, description="What each hand cost before a rami sec doubled it or added the bonus."
    )
    jokers_left: list[int] | None = Field(None, description="The jokers left in each hand.")
    joker_cost: int | None = Field(
        None, description="What one joker left in hand costs (null: fixed penalty)."
    )
    sides: list[list[int]] | None = Field(
        None, description="In a team game, each team's seats (as `scores` counts them); null otherwise."
    )


class View(BaseModel):
    """What one seat (or a spectator, seat null) may know, and nothing more.
    The engine may add public facts of the round as more keys."""

    model_config = ConfigDict(extra="allow")

    table_id: str
    version: int = Field(
        description="Grows with every change at the table: a view with a lower one is older."
    )
    variant: str
    seat: int | None
    players: int
    names: list[str]
    kinds: list[str]
    connected: list[bool]
    hand: list[str] | None = Field(description="The seat's cards, sorted; null for a spectator.")
    hand_sizes: list[int]
    table: list[list[str]] = Field(description="The melds in table order, each a list of cards.")
    melds: list[TableMeldInfo] = Field(description="The same melds with their number, owner and kind.")
    discard: list[str] = Field(description="The discard pile, bottom first.")
    discard_top: str | None
    stock_size: int
    opened: list[bool]
    turn: int
    phase: Literal["draw", "lay", "over"]
    scores: list[int]
    round_no: int
    winner: int | None
    penalties: list[int]
    revealed_hands: list[list[str]] | None
    game_over: bool
    game_winner: int | None
    teams: bool
    drew_from: str | None = Field(description="Where the seat to play drew this turn (null before).")
    taken_discard: str | None = Field(description="The card the seat to play took from the discard pile.")
    jokers_to_replay: list[str] = Field(
        description="Jokers the seat to play took back and must lay this turn."
    )
    laid_this_turn: bool
    opened_this_turn: bool
    may: list[str] = Field(
        description="What this seat may do now: the kinds `legal` allows (draw_stock, meld, layoff...) "
        "and the table's undo."
    )
    legal: Legal = Field(description="The engine's legal moves for this seat now, with refusals as data.")
    undo_available: bool
    clock: Clock | None
    score_sheet: list[RoundLine]
    rules: TableRules
    next_round_in: float | None = Field(
        None,
        description="At a round's end, seconds until the next round is dealt whoever has not "
        "continued (sooner once every person has); null otherwise.",
    )
    owes: Owes = Field(description="What the seat must still do this turn, for the page's status line.")
    ready: list[bool] = Field(
        description="At a round's end, which seats asked for the next round (`next_round`): "
        "a bot always, a person once they continued; all false otherwise."
    )
    rematch: str | None = Field(
        None, description="Once someone asked to play again: the new table's id (its seats by `rematch`)."
    )
    round_detail: RoundDetail | None = Field(
        None, description="At a round's end, why each seat paid what it paid; null during a round."
    )


class Event(BaseModel):
    """An engine event as the seat sees it: `kind`, `seat`, and the kind's own fields."""

    model_config = ConfigDict(extra="allow")
    kind: str
    seat: int | None


class ViewMessage(BaseModel):
    type: Literal["view"]
    view: View


class EventMessage(BaseModel):
    type: Literal["event"]
    event: Event
    text: str = Field("", description="The event in words, in the connection's `lang` (`?lang=fr`).")
    version: int | None = Field(None, description="The table's version after the change it belongs to.")


class TalkMessage(BaseModel):
    type: Literal["talk"]
    seat: int = Field(description="The seat that sent it.")
    phrase: Phrase = Field(description="Which quick message (`PHRASES`): each page says it in its words.")


class ErrorMessage(RefusalFields):
    type: Literal["error"]
    code: str
    message: str
    text: str = Field("", description="The refusal in words, in the connection's `lang`.")


ServerMessage = ViewMessage | EventMessage | TalkMessage | ErrorMessage
SERVER_ADAPTER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def schemas() -> dict[str, Any]:
    """Every message's JSON Schema, by name: what `rami schema --protocol` prints."""
    out: dict[str, Any] = {
        "action": ACTION_ADAPTER.json_schema(by_alias=True),
        "client_message": CLIENT_ADAPTER.json_schema(by_alias=True),
        "server_message": SERVER_ADAPTER.json_schema(by_alias=True),
    }
    for name, model in (
        ("create_table", CreateTable),
        ("table_created", TableCreated),
        ("table_summary", TableSummary),
        ("public_join", PublicJoin),
        ("view", View),
        ("event", Event),
        ("error", ErrorAnswer),
    ):
        out[name] = model.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rami table server protocol",
        "messages": out,
    }


# ---------------------------------------------------------------- refusals (server -> client)


class ServerError(Exception):
    """A request the server refuses before (or instead of) the engine: HTTP status, code, message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message


MAX_NAME = 40
MAX_VARIANT_NAME = 60


def plain_text(text: str, limit: int) -> str:
    """A user's text as the server stores and shows it: control and format
    characters (escape sequences, NUL, bidi overrides) dropped, runs of white
    space made one space, at most `limit` characters. Applied once, when a
    table is created, so every view and summary carries the clean text."""
    kept = "".join(
        ch for ch in text if ch == "\u200d" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    return " ".join(kept.split())[:limit]


def plain_description(description: str | Descriptions, limit: int) -> str | Descriptions:
    """A profile's description made plain text in each of its languages."""
    if isinstance(description, str):
        return plain_text(description, limit)
    return Descriptions(**{k: plain_text(v, limit) for k, v in description.model_dump().items()})


def validation_message(e: ValidationError) -> str:
    """At most five of pydantic's errors, those about a value given first: for
    a body that fits no member of a union (one model an action kind), what
    is wrong with the kind it names comes before every other kind's
    "field required" and "extra inputs"."""
    parts = []
    errors = e.errors(include_url=False)
    errors = sorted(errors, key=lambda err: err["type"] in ("missing", "extra_forbidden"))
    for err in errors[:5]:
        where = ".".join(str(x) for x in err["loc"])
        parts.append(f"{where}: {err['msg']}" if where else err["msg"])
    return "; ".join(parts)
