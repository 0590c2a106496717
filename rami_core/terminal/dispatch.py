"""Typed commands to engine actions, and engine actions back to commands.

The game loop hands a table move here and gets one engine action; the hint
hands an action here and gets the command a person would type for it, in
the player's card notation.
"""

from __future__ import annotations

from collections.abc import Callable

from rami_core.cards import Card
from rami_core.game import actions as A
from rami_core.game.views import SeatView
from rami_core.terminal import commands as C


def to_action(seat: int, cmd: C.Command, view: Callable[[], SeatView]) -> A.Action | None:
    """The engine action of a table move, or None for a command about the session."""
    if isinstance(cmd, C.Draw):
        return A.Draw(seat, cmd.source)
    if isinstance(cmd, C.Meld):
        return A.Meld(seat, cmd.melds)
    if isinstance(cmd, C.LayOff):
        return A.LayOff(seat, tuple(A.LayOffItem(i.card, i.to, i.as_) for i in cmd.items))
    if isinstance(cmd, C.Swap):
        return A.Swap(seat, cmd.cards, cmd.meld)
    if isinstance(cmd, C.Rearrange):
        return A.Rearrange(seat, cmd.table)
    if isinstance(cmd, C.EditTable):
        table = [list(m.cards) for m in view().table]
        return A.Rearrange(seat, tuple(tuple(m) for m in C.apply_edits(table, cmd.edits)))
    if isinstance(cmd, C.Discard):
        return A.Discard(seat, cmd.card)
    if isinstance(cmd, C.EndTurn):
        return A.EndTurn(seat)
    return None


def command_text(action: A.Action, name: Callable[[Card], str]) -> str:
    """What to type for `action` (melds numbered from 1)."""
    if isinstance(action, A.Meld):
        return "m " + " | ".join(" ".join(name(c) for c in m) for m in action.melds)
    if isinstance(action, A.Rearrange):
        return "r " + " | ".join(" ".join(name(c) for c in m) for m in action.melds)
    if isinstance(action, A.LayOff):
        parts = []
        for it in action.items:
            t = f"{name(it.card)} {it.to + 1}"
            if it.as_ is not None:
                t += f" as {name(it.as_)}"
            parts.append(t)
        return "l " + " | ".join(parts)
    if isinstance(action, A.Swap):
        return "s " + " ".join(name(c) for c in action.cards) + f" {action.meld + 1}"
    return str(action)
