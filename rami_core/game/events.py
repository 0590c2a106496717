"""Events: every change the engine makes, for apps, logs and plugins to follow.

Events are derived from an accepted action and the states before and after
it, in one place, so the turn machine stays free of reporting code and no
handler can forget to announce what it did. An event may carry a private
part (the card a seat drew from the stock): `for_seat` gives the version a
given seat may see, with that part hidden from everybody else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rami_core.game import actions as A
from rami_core.game.state import OVER, GameState, card_code


class EventKind(StrEnum):
    """Every kind of event. A StrEnum so that saved games, JSON and plugins keep
    reading plain strings, while code that makes or matches events names a
    member (and a new kind must be narrated: tests/test_narration.py)."""

    DRAWN = "drawn"
    RESHUFFLED = "stock_rebuilt"
    OPENED = "opened"
    LAID = "laid"
    LAID_OFF = "laid_off"
    SWAPPED = "swapped"
    REARRANGED = "rearranged"
    DISCARDED = "discarded"
    TURN_ENDED = "turn_ended"
    TIMED_OUT = "timed_out"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    ROUND_DEALT = "round_dealt"
    UNDONE = "undone"  # an app took back a seat's moves of the turn (the table server's undo)


@dataclass(frozen=True)
class Event:
    kind: EventKind
    seat: int | None
    data: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)  # seen only by `seat`

    def for_seat(self, seat: int | None) -> Event:
        """The event as `seat` sees it (None: a spectator, who sees no private part)."""
        if seat is not None and seat == self.seat:
            return self
        return replace(self, private={})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": str(self.kind), "seat": self.seat, **self.data}
        out.update(self.private)
        return out


def _cards(cards) -> list[str]:
    return [card_code(c).split("/")[0] for c in cards]


def _added(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """The cards a rearrangement brought from the hand, by the meld (numbered
    in the new table) each went to: the log then says who added what where."""
    old = Counter(c for m in before.table for c in m.cards)
    out: list[dict[str, Any]] = []
    for i, m in enumerate(after.table):
        new = [c for c in m.cards if not old[c]]
        if new:
            out.append({"to": i, "cards": _cards(new)})
    return out


def _moved(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """The table cards a rearrangement took from each old meld (numbered in
    the old table) and the new meld each went to: the other seats see what
    was taken from whose meld. An old meld stays where the new meld sharing
    most of its cards is; the cards it lost moved. Counted by face: two
    copies of a card are the same card to a person."""
    # each new meld's faces counted once (a rearrangement of a large table
    # compared every old meld with every new one, recounting the new ones)
    new_faces = [Counter(c.face for c in m.cards) for m in after.table]
    new_left = [Counter(f) for f in new_faces]
    # which new melds hold each face: an old meld is compared only with the
    # new melds it shares a face with (the others share nothing with it)
    holding: dict[tuple[int, int], list[int]] = {}
    for j, nf in enumerate(new_faces):
        for f in nf:
            holding.setdefault(f, []).append(j)
    out: list[dict[str, Any]] = []
    for i, m in enumerate(before.table):
        faces = Counter(c.face for c in m.cards)
        if not new_left:
            break
        home = _home(faces, new_faces, holding)
        kept = faces & new_faces[home]
        for card in m.cards:
            if kept[card.face]:
                kept[card.face] -= 1
                continue
            to = next((j for j, left in enumerate(new_left) if j != home and left[card.face]), None)
            if to is None:
                continue
            new_left[to][card.face] -= 1
            hit = next((x for x in out if x["from"] == i and x["to"] == to), None)
            if hit is None:
                out.append({"from": i, "to": to, "cards": _cards([card])})
            else:
                hit["cards"] += _cards([card])
    return out


def _home(faces: Counter, new_faces: list[Counter], holding: dict[tuple[int, int], list[int]]) -> int:
    """The new meld sharing most cards with an old meld's `faces` (the first
    of those, the first new meld if none shares one): `max` over every new
    meld of the cards the two have in common, counted only for the new melds
    `holding` one of its faces."""
    shared: dict[int, int] = {}
    for f, n in faces.items():
        for j in holding.get(f, ()):
            shared[j] = shared.get(j, 0) + min(n, new_faces[j][f])
    best = max(shared.values(), default=0)
    if not best:
        return 0
    return min(j for j, v in shared.items() if v == best)


def events_for(
    action: A.Action,
    before: GameState,
    after: GameState,
    *,
    discard_enabled: bool,
    payments: dict[str, Any] | None = None,
) -> list[Event]:
    """What an accepted action changed, in order. With `payments` (the
    referee's `scoring.payments` of the state after), a `round_over` also
    says why each seat paid what it paid."""
    seat = action.seat
    out: list[Event] = []
    timeout = isinstance(action, A.Timeout)
    if timeout:
        out.append(Event(EventKind.TIMED_OUT, seat))
    if after.reshuffles != before.reshuffles and after.round_no == before.round_no:
        out.append(Event(EventKind.RESHUFFLED, seat, {"stock_size": len(after.stock) + 1}))
    round_ended_by_draw = after.phase == OVER and after.round_end != "out"
    drew = isinstance(action, A.Draw) or (timeout and before.phase == "draw")
    discarded = isinstance(action, A.Discard) or (timeout and discard_enabled and not round_ended_by_draw)
    if drew:
        source = (
            action.source
            if isinstance(action, A.Draw)
            else (
                "stock"
                if len(after.stock) < len(before.stock) or after.reshuffles != before.reshuffles
                else "discard"
            )
        )
        data: dict[str, Any] = {"source": source}
        private: dict[str, Any] = {}
        card = None
        if not round_ended_by_draw:
            card = after.hands[seat][-1]
            if timeout:
                # The card the hand gained: a timeout may discard another card than the one drawn.
                held = Counter(after.hands[seat]) + Counter(after.discard[-1:] if discarded else [])
                card = next(iter(held - Counter(before.hands[seat])), None)
        if card is not None:
            if source == "discard":
                data["card"] = _cards([card])[0]
            else:
                private["card"] = _cards([card])[0]
        out.append(Event(EventKind.DRAWN, seat, data, private))
    if isinstance(action, A.Meld):
        if not before.opened[seat] and after.opened[seat]:
            out.append(Event(EventKind.OPENED, seat))
        out.append(
            Event(
                EventKind.LAID, seat, {"melds": [_cards(m.cards) for m in after.table[len(before.table) :]]}
            )
        )
    elif isinstance(action, A.LayOff):
        out.append(
            Event(
                EventKind.LAID_OFF,
                seat,
                {"cards": [{"card": _cards([i.card])[0], "to": i.to} for i in action.items]},
            )
        )
    elif isinstance(action, A.Swap):
        out.append(Event(EventKind.SWAPPED, seat, {"given": _cards(action.cards), "meld": action.meld}))
    elif isinstance(action, A.Rearrange):
        out.append(
            Event(
                EventKind.REARRANGED,
                seat,
                {
                    "table": [_cards(m.cards) for m in after.table],
                    "added": _added(before, after),
                    "moved": _moved(before, after),
                },
            )
        )
    if discarded:
        out.append(Event(EventKind.DISCARDED, seat, {"card": _cards([after.discard[-1]])[0]}))
    if after.phase != OVER and after.turns_played != before.turns_played:
        out.append(Event(EventKind.TURN_ENDED, seat, {"next": after.turn}))
    if after.phase == OVER and before.phase != OVER:
        out.append(
            Event(
                EventKind.ROUND_OVER,
                None,
                {
                    "winner": after.winner,
                    "how": after.round_end,
                    "rami_sec": after.rami_sec,
                    "penalties": list(after.penalties),
                    "scores": list(after.scores),
                    "hands": [_cards(h) for h in after.hands],
                    **(payments or {}),
                },
            )
        )
        if after.game_over:
            out.append(
                Event(EventKind.GAME_OVER, None, {"winner": after.game_winner, "scores": list(after.scores)})
            )
    return out


def round_dealt(state: GameState) -> Event:
    return Event(
        EventKind.ROUND_DEALT,
        None,
        {
            "round": state.round_no,
            "first_player": state.first_player,
            "hand_sizes": [len(h) for h in state.hands],
            "stock_size": len(state.stock),
            "discard_top": _cards(state.discard[-1:])[0] if state.discard else None,
        },
    )
