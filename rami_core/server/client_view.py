"""What a client sees: a seat's view of a table (the engine's seat view plus
what the table adds: names, clock, what the seat may do, the score sheet),
and the lobby's one-line summary of a table.

A view asks its caller only `Pace`: the clock's scale and whether the seat
may take its lays back; it never sees the hub.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from rami_core.game.state import LAY, OVER, card_code
from rami_core.referee.legal import VIEW_STATES, LegalMoves, lay_bounds, legal_moves
from rami_core.server.clocks import loop_time
from rami_core.server.table import HUMAN, HostedTable
from rami_core.words.refusals import LANGS


class Pace(Protocol):
    """What a view reads beyond the table: the clock's scale (tests shrink
    the profile's seconds) and the table's own undo, offered only where the
    hub would take the lays back."""

    @property
    def clock_scale(self) -> float: ...
    def undo_available(self, t: HostedTable, seat: int | None) -> bool: ...


def _may(pace: Pace, t: HostedTable, seat: int | None, legal: LegalMoves) -> list[str]:
    """The kinds the engine offers the seat now (the next round once, before
    the seat says it is ready), and the table's own undo."""
    out = [k for k in legal.allowed() if not (k == "next_round" and seat in t.ready)]
    if seat is not None and pace.undo_available(t, seat):
        out.append("undo")
    return out


def _score_sheet(t: HostedTable) -> list[dict[str, Any]]:
    lines = []
    round_no = 1
    for e in t.game.events:
        if e.kind == "round_dealt":
            round_no = e.data["round"]
        elif e.kind == "round_over":
            d = e.data
            lines.append(
                {
                    "round": round_no,
                    "winner": d["winner"],
                    "how": d["how"],
                    "penalties": list(d["penalties"]),
                    "scores": list(d["scores"]),
                }
            )
    return lines


def round_detail(t: HostedTable) -> dict[str, Any] | None:
    """Why each seat paid what it paid, at a round's end (null during a
    round): the last `round_over` event's `rami_sec_rule`,
    `rami_sec_bonus`, `hand_values`, `jokers_left`, `joker_cost` and
    `sides`."""
    if t.game.state.phase != OVER:
        return None
    for e in reversed(t.game.events):
        if e.kind == "round_over":
            return {k: e.data.get(k) for k in ROUND_DETAIL}
    return None


ROUND_DETAIL = ("rami_sec_rule", "rami_sec_bonus", "hand_values", "jokers_left", "joker_cost", "sides")


def _owes(t: HostedTable, seat: int | None) -> dict[str, Any]:
    """What the seat must still do this turn, for the page's status line: the
    jokers won back to lay again, the card taken from the discard pile to
    lay, and whether a card must be kept for the discard (the engine's own
    conditions: a turn that ends without them is refused)."""
    s = t.game.state
    if seat is None or s.turn != seat or s.phase != LAY:
        return {"jokers": [], "lay_taken": None, "keep_for_discard": False}
    owed = lay_bounds(t.game.rules, s, seat)  # the engine's own bounds on this turn's lays
    return {
        "jokers": [card_code(c).split("/")[0] for c in owed.jokers_owed],
        "lay_taken": card_code(owed.taken_owed).split("/")[0] if owed.taken_owed is not None else None,
        "keep_for_discard": owed.kept > 0,
    }


def seat_legal(t: HostedTable, seat: int | None) -> LegalMoves:
    """The seat's legal moves, searched within VIEW_STATES (counted states:
    the same answer on every machine) and kept until the game next changes
    (`HostedTable.moved`): a connection coming or going, a round's "continue", a
    repeated read or a reconnect search nothing again. Called under the
    table's lock (the game still)."""
    key = (t.moved, seat)
    cached = t.legal_cache.get(key)
    if cached is None:
        if t.legal_cache and next(iter(t.legal_cache))[0] != t.moved:
            t.legal_cache.clear()
        cached = t.legal_cache[key] = legal_moves(t.game, seat, states=VIEW_STATES)
    return cached


def build_view(pace: Pace, t: HostedTable, seat: int | None) -> dict[str, Any]:
    """The protocol's view: the engine's seat view (every public fact and the
    seat's own hand; a spectator gets the same without a hand) plus what the
    table adds. Made once per (version, seat) and kept (`HostedTable.view_cache`);
    what changes with the time alone (the clock, the round pause, who is
    connected) is read again on every call. Under the table's lock, unless
    the view of this version is already kept."""
    key = (t.version, seat)
    base = t.view_cache.get(key)
    if base is None:
        base = _view_body(pace, t, seat)
        if t.view_cache and next(iter(t.view_cache))[0] != t.version:
            t.view_cache.clear()
        t.view_cache[key] = base
    return {**base, **_timed(pace, t)}


def cached_view(pace: Pace, t: HostedTable, seat: int | None) -> dict[str, Any] | None:
    """The view of this version if it is kept (no lock needed: a kept view
    shows a stored game), else None."""
    base = t.view_cache.get((t.version, seat))
    if base is None:
        return None
    return {**base, **_timed(pace, t)}


def _timed(pace: Pace, t: HostedTable) -> dict[str, Any]:
    """The fields of a view read afresh each time (the clock, the round
    pause, who is connected)."""
    g = t.game
    r = g.rules
    clock = None
    if r.turn_time_limit and t.deadline is not None and g.state.phase != OVER:
        # The deadline, not only what is left: a page counts down to it in the
        # server's clock (its offset re-read from `server_time` on every view),
        # so a view sent late or read late still shows the server's time.
        left = max(0.0, t.deadline - loop_time()) / pace.clock_scale
        now = time.time()
        clock = {
            "limit": r.turn_time_limit,
            "remaining": round(left, 1),
            "deadline": round(now + left, 3),
            "server_time": round(now, 3),
        }
    nxt = None
    if t.next_round_at is not None and g.state.phase == OVER and not g.state.game_over:
        nxt = round(max(0.0, t.next_round_at - loop_time()), 1)
    return {"clock": clock, "next_round_in": nxt, "connected": t.connected()}


def _view_body(pace: Pace, t: HostedTable, seat: int | None) -> dict[str, Any]:
    g = t.game
    d = g.view(0 if seat is None else seat).to_dict()
    if seat is None:
        d.update(seat=None, hand=None)
    melds = d.pop("table")
    d["table"] = [m["cards"] for m in melds]
    d["melds"] = [
        {"number": i, "cards": m["cards"], "owner": m["owner"], "kind": g.state.table[i].reading.kind}
        for i, m in enumerate(melds)
    ]
    d["discard_top"] = d["discard"][-1] if d["discard"] else None
    r = g.rules
    legal = seat_legal(t, seat)
    d.update(
        table_id=t.id,
        version=t.version,
        variant=t.variant,
        names=[s.name for s in t.seats],
        kinds=[s.kind for s in t.seats],
        may=_may(pace, t, seat, legal),
        legal=legal.to_json(),
        undo_available=pace.undo_available(t, seat),
        score_sheet=_score_sheet(t),
        rules={
            "discard": r.ends_with_discard,
            "discard_pile": r.has_discard_pile,
            "draw_from_discard": r.draw_from_discard,
            "lay_off": r.lay_offs_ever,
            "rearrange": r.may_rearrange,
            "swap": r.swaps_to_hand,
            "undo": t.undo,
        },
        owes=_owes(t, seat),
        rematch=t.rematch,
        round_detail=round_detail(t),
        ready=t.readiness() if g.state.phase == OVER and not g.state.game_over else [False] * t.players,
    )
    return d


def summary(t: HostedTable) -> dict[str, Any]:
    s = t.game.state
    connected = t.connected()
    seats = [
        {"seat": i, "kind": x.kind, "name": x.name, "connected": connected[i]} for i, x in enumerate(t.seats)
    ]
    return {
        "table": t.id,
        "id": t.id,
        "variant": t.variant,
        "players": t.players,
        "seats": seats,
        "humans": sum(1 for x in t.seats if x.kind == HUMAN),
        "seats_taken": sum(connected),
        "round_no": s.round_no,
        "phase": s.phase,
        "game_over": s.game_over,
        "actions": len(t.game.log),
        "stopped": t.stopped,
        "public": t.public,
        # Plain text already (made so when the table was created).
        "descriptions": {lang: t.game.rules.profile.description_in(lang) for lang in LANGS},
    }
