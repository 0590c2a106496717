"""What a client sees: a seat's view of a table (the engine's seat view plus
what the table adds: names, clock, what the seat may do, the score sheet),
and the lobby's one-line summary of a table."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..state import LAY, OVER, card_code
from .clocks import loop_time
from .table import HUMAN, Table

if TYPE_CHECKING:
    from .hub import Hub


def _may(hub: Hub, t: Table, seat: int | None) -> list[str]:
    s = t.game.state
    r = t.game.rules
    if seat is None:
        return []
    if s.phase == OVER:
        return ["next_round"] if not s.game_over and seat not in t.ready else []
    if s.turn != seat:
        return []
    if s.phase != LAY:
        out = ["draw_stock"]
        if r.draw_from_discard and s.discard:
            out.append("draw_discard")
        return out
    out = ["meld"]
    if r.lay_offs_ever:
        out.append("layoff")
    if r.swaps_to_hand:
        out.append("swap")
    if r.may_rearrange:
        out.append("rearrange")
    out.append("discard" if r.ends_with_discard else "end_turn")
    if hub.undo_available(t, seat):
        out.append("undo")
    return out


def _score_sheet(t: Table) -> list[dict[str, Any]]:
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


def _owes(t: Table, seat: int | None) -> dict[str, Any]:
    """What the seat must still do this turn, for the page's status line: the
    jokers won back to lay again, the card taken from the discard pile to
    lay, and whether a card must be kept for the discard (the engine's own
    conditions: a turn that ends without them is refused)."""
    s = t.game.state
    r = t.game.rules
    mine = seat is not None and s.turn == seat and s.phase == LAY
    taken = s.taken_discard
    owed_card = mine and r.taken_discard_must_be_laid and taken is not None and taken in s.hands[s.turn]
    return {
        "jokers": [card_code(c).split("/")[0] for c in s.jokers_to_replay] if mine else [],
        "lay_taken": card_code(taken).split("/")[0] if owed_card and taken is not None else None,
        "keep_for_discard": bool(mine and r.keep_last),
    }


def build_view(hub: Hub, t: Table, seat: int | None) -> dict[str, Any]:
    """The protocol's view: the engine's seat view (every public fact and the
    seat's own hand; a spectator gets the same without a hand) plus what the
    table adds."""
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
    clock = None
    if r.turn_time_limit and t.deadline is not None and g.state.phase != OVER:
        # The deadline, not only what is left: a page counts down to it in the
        # server's clock (its offset re-read from `server_time` on every view),
        # so a view sent late or read late still shows the server's time.
        left = max(0.0, t.deadline - loop_time()) / hub.clock_scale
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
    d.update(
        table_id=t.id,
        version=t.version,
        variant=t.variant,
        names=[s.name for s in t.seats],
        kinds=[s.kind for s in t.seats],
        connected=t.connected(),
        may=_may(hub, t, seat),
        undo_available=hub.undo_available(t, seat),
        clock=clock,
        score_sheet=_score_sheet(t),
        rules={
            "discard": r.ends_with_discard,
            "draw_from_discard": r.draw_from_discard,
            "lay_off": r.lay_offs_ever,
            "rearrange": r.may_rearrange,
            "swap": r.swaps_to_hand,
            "undo": t.undo,
        },
        next_round_in=nxt,
        owes=_owes(t, seat),
        ready=t.readiness() if g.state.phase == OVER and not g.state.game_over else [False] * t.players,
    )
    return d


def summary(t: Table) -> dict[str, Any]:
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
    }
