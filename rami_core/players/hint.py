"""`hint`: the bots' plan for the seat to play, from its view only.

A thin adapter over the planning the bots share (`rami_core.players.bots.candidates`, `.planner`, `.planning`):
the same openings (what this seat needs now, the partner rule included),
lay offs, joker swaps and rebuilds of the table, each kind tried only where
the engine's legal moves (`rami_core.referee.legal`) allow it now, and the same
whole-turn check, every step played by the engine with the game's plugins on
the state rebuilt from the view. So the hint proposes exactly what the engine
accepts and a bot would play, and nothing it would refuse; it reads no rule
of the profile itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rami_core.cards import Card
from rami_core.game import actions as A
from rami_core.game.state import DRAW, GameState
from rami_core.game.views import SeatView
from rami_core.players.bots.base import state_from_view
from rami_core.players.bots.candidates import run_actions
from rami_core.players.bots.planner import Planner
from rami_core.players.bots.planning import PlanningBot
from rami_core.profile.rules import Rules
from rami_core.words.messages import Messages


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


def move_words(action: A.Action, msg: Messages, name: Callable[[Card], str]) -> str:
    """A lay said as a move, not as what to type (the table page's hint:
    nothing is typed there), melds in brackets as the page's log writes
    them, numbered from 1 as shown."""
    melds = lambda ms: " ".join("[" + " ".join(name(c) for c in m) + "]" for m in ms)  # noqa: E731
    if isinstance(action, A.Meld):
        return msg("hint_meld_said", melds=melds(action.melds))
    if isinstance(action, A.Rearrange):
        return msg("hint_rearrange_said", melds=melds(action.melds))
    if isinstance(action, A.LayOff):
        items = ", ".join(msg("hint_item_said", card=name(it.card), meld=it.to + 1) for it in action.items)
        return msg("hint_layoff_said", items=items)
    if isinstance(action, A.Swap):
        return msg("hint_swap_said", cards=" ".join(name(c) for c in action.cards), meld=action.meld + 1)
    raise TypeError(f"a plan holds lays only, not {type(action).__name__}")


def hint_words(
    view: SeatView,
    rules: Rules,
    msg: Messages,
    name: Callable[[Card], str],
    *,
    typed: Callable[[A.Action], str] | None = None,
) -> tuple[bool, str]:
    """The hint in words, as the terminal's `h` says it and the table page's
    hint button shows it: (True, the advice), or (False, why there is none).
    `typed`: how a front end writes a move as a command to type (the
    terminal's); without it, the moves in words (the page, where nothing is
    typed).
    The hint is advice: a planner failure is said, never raised."""
    said = "" if typed is not None else "_said"
    try:
        plan = suggest(view, rules)
    except Exception as e:
        return False, msg("hint_unavailable", detail=f"{type(e).__name__}: {e}")
    if "draw" in plan:
        text = (
            msg(f"hint_draw_discard{said}", card=name(plan["card"]))
            if plan["draw"] == "discard"
            else msg(f"hint_draw_stock{said}")
        )
        return True, msg("hint", text=text)
    then = ""
    if plan["discard"] is not None:
        then = msg(f"hint_discard{said}", card=name(plan["discard"]), code=name(plan["discard"]))
    elif plan["end"]:
        then = msg(f"hint_end{said}")
    steps = [typed(a) if typed is not None else move_words(a, msg, name) for a in plan["actions"]]
    if steps:
        return True, msg("hint", text=f", {msg('hint_then')} ".join(steps + ([then] if then else [])))
    return True, msg("hint_none", then=then or "-")
