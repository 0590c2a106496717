"""One narrator for every event kind, in English and French.

`rami play` and `rami replay` tell the same events; both come here, so a new
event kind is narrated once (tests/test_narration.py fails when a kind has
no entry in :data:`NARRATION` or a message it uses lacks a language). What
changes between the two callers is who is "you", how names and cards are
written, and whether a round's end is told as a line (replay) or left to a
screen of its own (play): a :class:`Teller` carries those choices.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from rami_core.game.events import Event, EventKind
from rami_core.words.messages import Messages


def styled(msg: Messages, key: str, **kw: object) -> Text:
    """A message whose rich Text values (cards in their colours) are kept as
    they are: the catalogue (i18n) knows no rich, the tellers of events and
    the terminal do."""
    out = Text()
    for literal, name, spec, conv in string.Formatter().parse(msg.template(key)):
        out.append(literal)
        if name is None:
            continue
        value = kw[name]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(format(repr(value) if conv == "r" else value, spec or ""))
    return out


def _plain_cards(codes: Sequence[str]) -> Text:
    return Text(" ".join(codes))


def _plain_melds(melds: Sequence[Sequence[str]]) -> Text:
    return Text("  ".join("[" + " ".join(m) + "]" for m in melds))


@dataclass
class Teller:
    """How events are told: in which language, by which names, to whom."""

    msg: Messages
    name: Callable[[int], str]
    cards: Callable[[Sequence[str]], Text] = _plain_cards
    melds: Callable[[Sequence[Sequence[str]]], Text] = _plain_melds
    you: int | None = None  # the seat told in the second person
    discard_enabled: bool = True  # where a discard ends the turn, "ends the turn" goes unsaid
    ends: bool = False  # tell the ends of rounds and games as lines

    def line(self, key: str, e: Event, **kw: object) -> Text:
        """`ev_<key>`, or `evy_<key>` when the event is this teller's own seat's."""
        mine = e.seat is not None and e.seat == self.you
        if mine:
            return styled(self.msg, "evy_" + key, **kw)
        return styled(self.msg, "ev_" + key, name=self.name(e.seat) if e.seat is not None else "", **kw)

    def on_melds(self, items: Sequence[tuple[Sequence[str], int]]) -> Text:
        out = Text()
        for i, (cards, to) in enumerate(items):
            if i:
                out.append(", ")
            out.append_text(styled(self.msg, "ev_on_meld", card=self.cards(cards), n=to + 1))
        return out

    def from_melds(self, moves: Sequence[dict]) -> Text:
        """Table cards moved by a rearrangement: "5♠ 6♠ from meld 1 to meld 3", ..."""
        out = Text()
        for i, mv in enumerate(moves):
            if i:
                out.append(", ")
            out.append_text(
                styled(
                    self.msg, "ev_from_meld", card=self.cards(mv["cards"]), n=mv["from"] + 1, to=mv["to"] + 1
                )
            )
        return out


def _dealt(t: Teller, e: Event) -> Text:
    d = e.data
    first = d["first_player"]
    if first == t.you:
        return styled(t.msg, "evy_dealt", round=d["round"])
    return styled(t.msg, "ev_dealt", round=d["round"], name=t.name(first))


def _drawn(t: Teller, e: Event) -> Text:
    d = e.data
    card = d.get("card") or e.private.get("card")
    if d["source"] == "discard":
        return t.line("draw_discard", e, card=t.cards([card]) if card else "")
    if card:
        return t.line("draw_stock_card", e, card=t.cards([card]))
    return t.line("draw_stock", e)


def _laid_off(t: Teller, e: Event) -> Text:
    return t.line("laid_off", e, items=t.on_melds([([x["card"]], x["to"]) for x in e.data["cards"]]))


def _rearranged(t: Teller, e: Event) -> Text:
    added = e.data.get("added") or []
    melds = t.melds(e.data["table"])
    if not added:
        said = t.line("rearranged", e, melds=melds)
    else:
        said = t.line(
            "rearranged_added", e, items=t.on_melds([(a["cards"], a["to"]) for a in added]), melds=melds
        )
    moved = e.data.get("moved") or []
    if moved:  # what was taken from whose meld, so that its owner sees it
        said.append(" ")
        said.append_text(styled(t.msg, "ev_moved", items=t.from_melds(moved)))
    return said


def _turn_ended(t: Teller, e: Event) -> Text | None:
    return None if t.discard_enabled else t.line("turn_ended", e)


def _timed_out(t: Teller, e: Event) -> Text:
    return t.line("timed_out_undone" if e.data.get("undone") else "timed_out", e)


def _scores(scores: Sequence[int]) -> str:
    return ", ".join(str(s) for s in scores)


def _round_over(t: Teller, e: Event) -> Text | None:
    if not t.ends:
        return None  # a screen of its own tells it
    d = e.data
    tail = {"penalties": _scores(d["penalties"]), "scores": _scores(d["scores"])}
    if d["how"] == "out" and d.get("winner") is not None:
        sec = t.msg("rami_sec") if d.get("rami_sec") else ""
        if d["winner"] == t.you:
            said = styled(t.msg, "evy_round_over_out", sec=sec, **tail)
        else:
            said = styled(t.msg, "ev_round_over_out", name=t.name(d["winner"]), sec=sec, **tail)
    else:
        said = styled(t.msg, "ev_round_over_stock", **tail)
    for why in _why_paid(t, d):
        said.append(t.msg("ev_sep"))
        said.append(why)
    return said


def _why_paid(t: Teller, d: dict) -> list[str]:
    """What made the payments of a round (`scoring.payments`): a rami sec's
    doubling or bonus, the jokers left in hand and their cost, the teams'
    totals. Nothing for an event without those fields (an older save)."""
    out = []
    penalties = d.get("penalties") or []
    if d.get("rami_sec") and d.get("how") == "out" and any(penalties):
        rule = d.get("rami_sec_rule")
        if rule == "double":
            out.append(t.msg("ev_sec_double"))
        elif rule == "bonus":
            out.append(t.msg("ev_sec_bonus", bonus=d.get("rami_sec_bonus", 0)))
    cost = d.get("joker_cost")
    for seat, n in enumerate(d.get("jokers_left") or []):
        if n and cost is not None:
            points = t.msg.count("points", n * cost)
            out.append(t.msg.count("ev_jokers_left", n, name=t.name(seat), points=points))
    sides = d.get("sides")
    if sides:
        teams = ", ".join(
            t.msg("ev_team", names=t.msg("ev_and").join(t.name(x) for x in side), score=d["scores"][i])
            for i, side in enumerate(sides)
        )
        out.append(t.msg("ev_team_scores", teams=teams))
    return out


def _game_over(t: Teller, e: Event) -> Text | None:
    if not t.ends:
        return None
    d = e.data
    if d.get("winner") is None:
        return styled(t.msg, "ev_game_over_tie", scores=_scores(d["scores"]))
    return styled(t.msg, "ev_game_over", name=t.name(d["winner"]), scores=_scores(d["scores"]))


NARRATION: dict[EventKind, Callable[[Teller, Event], Text | None]] = {
    EventKind.ROUND_DEALT: _dealt,
    EventKind.DRAWN: _drawn,
    EventKind.RESHUFFLED: lambda t, e: styled(
        t.msg, "ev_rebuilt", cards=t.msg.count("cards", e.data["stock_size"])
    ),
    EventKind.OPENED: lambda t, e: t.line("opened", e),
    EventKind.LAID: lambda t, e: t.line("laid", e, melds=t.melds(e.data["melds"])),
    EventKind.LAID_OFF: _laid_off,
    EventKind.SWAPPED: lambda t, e: t.line(
        "swapped", e, cards=t.cards(e.data["given"]), n=e.data["meld"] + 1
    ),
    EventKind.REARRANGED: _rearranged,
    EventKind.DISCARDED: lambda t, e: t.line("discarded", e, card=t.cards([e.data["card"]])),
    EventKind.TURN_ENDED: _turn_ended,
    EventKind.TIMED_OUT: _timed_out,
    EventKind.UNDONE: lambda t, e: t.line("undone", e),
    EventKind.ROUND_OVER: _round_over,
    EventKind.GAME_OVER: _game_over,
}


def tell(teller: Teller, event: Event) -> Text | None:
    """The event in words, or None where it goes unsaid (see Teller)."""
    return NARRATION[EventKind(event.kind)](teller, event)
