"""`hint`: the bots' plan for the seat to play, from its view only.

A thin adapter over the planning the bots share (`rami_core.bots.candidates`, `.planner`, `.planning`):
the same openings (what this seat needs now, `Rules.opening_need`, the
partner rule included), lay offs, joker swaps and rebuilds of the table, and
the same whole-turn check, every step played by the engine with the game's
plugins on the state rebuilt from the view. So the hint proposes exactly
what the engine accepts and a bot would play, and nothing it would refuse.
"""

from __future__ import annotations

import random

from .. import actions as A
from ..bots.base import state_from_view
from ..bots.candidates import run_actions
from ..bots.planner import Planner
from ..bots.planning import PlanningBot
from ..cards import Card
from ..rules import Rules
from ..state import DRAW, GameState
from ..views import SeatView


def lay_plan(view: SeatView, rules: Rules) -> tuple[list[A.Action], GameState]:
    """Engine-checked lays for this turn (as a bot would make them), and the state after them."""
    st = state_from_view(view)
    plan = Planner(rules).plan(st, view.seat)
    lays: list[A.Action] = [a for a in plan if not isinstance(a, (A.Discard, A.EndTurn))]
    after = run_actions(rules, st, lays)
    return (lays, after) if after is not None else ([], st)


def best_discard(rules: Rules, st: GameState, seat: int) -> Card | None:
    """The card the planner would discard (a discard the engine accepts), or None."""
    plan = Planner(rules).plan(st, seat)
    ends = [a for a in plan if isinstance(a, A.Discard)]
    return ends[-1].card if ends else None


def suggest(view: SeatView, rules: Rules) -> dict:
    """What the seat should do now: {'draw': 'stock'|'discard'} in the draw
    phase; else {'actions': [...], 'discard': card|None, 'end': bool}."""
    if view.phase == DRAW:
        action = PlanningBot(random.Random(0)).choose(view, rules)
        if isinstance(action, A.Draw) and action.source == "discard" and view.discard_top is not None:
            return {"draw": "discard", "card": view.discard_top}
        return {"draw": "stock"}
    st = state_from_view(view)
    plan = Planner(rules).plan(st, view.seat)
    actions = [a for a in plan if not isinstance(a, (A.Discard, A.EndTurn))]
    end = plan[-1] if plan and isinstance(plan[-1], (A.Discard, A.EndTurn)) else None
    return {
        "actions": actions,
        "discard": end.card if isinstance(end, A.Discard) else None,
        "end": isinstance(end, A.EndTurn),
    }
