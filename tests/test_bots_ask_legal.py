"""The bots and the hint take what a seat may do from the engine's legal-moves
API (rami_core.legal), not from the profile's switches.

tests/test_legal.py's guard reads the sources; these tests watch the
behaviour. A rule the engine adds to a whole action kind (a gate appended to
``engine.KIND_GATES``, which rami_core.legal asks and the engine's handlers
do not) must reach the bots' plans and the hint at once: a bot that decided
from the profile itself would go on planning the kind, since the engine's
handlers still accept its moves.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rami_core import actions as A
from rami_core import engine
from rami_core.bots import make_bot, state_from_view
from rami_core.bots.candidates import run_actions
from rami_core.bots.planner import Planner
from rami_core.engine import Game
from rami_core.errors import RuleError
from rami_core.legal import legal_moves
from rami_core.loader import load_profile
from rami_core.refusals import Reason
from rami_core.state import DRAW, LAY, OVER
from rami_core.terminal.hint import suggest
from rami_core.views import SeatView


def _closed(rules, s, seat) -> None:
    raise RuleError("action_forbidden", Reason("no_lay_off"))


def _positions(variant: str, seeds: range, turns: int = 80) -> Iterator[tuple[Game, SeatView]]:
    """Every position of seeded greedy games, as the seat to play sees it."""
    for seed in seeds:
        game = Game.new(load_profile(variant), 2, seed=seed)
        bots = [make_bot("greedy", seed * 8 + i) for i in range(2)]
        for _ in range(turns * 4):
            s = game.state
            if s.phase == OVER:
                break
            view = game.view(s.turn)
            yield game, view
            game.apply(bots[s.turn].choose(view, game.rules))


def _planning_a(variant: str, kind: type) -> tuple[Game, SeatView]:
    for game, view in _positions(variant, range(1, 30)):
        if view.phase == LAY:
            plan = Planner(game.rules).plan(state_from_view(view), view.seat)
            if any(isinstance(a, kind) for a in plan):
                return game, view
    raise AssertionError(f"no seeded {variant} position where greedy plans a {kind.__name__}")


@pytest.mark.parametrize(
    ("variant", "kind", "action"),
    [("rami51", "layoff", A.LayOff), ("rami51", "meld", A.Meld), ("voleur", "rearrange", A.Rearrange)],
)
def test_a_kind_the_engine_closes_leaves_the_plan_and_the_hint(
    monkeypatch: pytest.MonkeyPatch, variant: str, kind: str, action: type
) -> None:
    game, view = _planning_a(variant, action)
    assert any(isinstance(a, action) for a in suggest(view, game.rules)["actions"])
    monkeypatch.setitem(engine.KIND_GATES, kind, (*engine.KIND_GATES[kind], _closed))
    assert not legal_moves(game, view.seat).may(kind)
    st = state_from_view(view)
    plan = Planner(game.rules).plan(st, view.seat)
    assert plan, "the turn still ends"
    assert not any(isinstance(a, action) for a in plan)
    assert run_actions(game.rules, st, plan) is not None, "every step is still one the engine accepts"
    assert not any(isinstance(a, action) for a in suggest(view, game.rules)["actions"])


def test_a_discard_pile_the_engine_closes_is_not_drawn_from(monkeypatch: pytest.MonkeyPatch) -> None:
    found = None
    for game, view in _positions("rami51", range(1, 30)):
        if view.phase == DRAW and make_bot("greedy", 0).choose(view, game.rules) == A.Draw(
            view.seat, "discard"
        ):
            found = game, view
            break
    assert found is not None, "no seeded position where greedy takes the discard"
    game, view = found
    assert suggest(view, game.rules)["draw"] == "discard"
    monkeypatch.setitem(engine.KIND_GATES, "draw_discard", (*engine.KIND_GATES["draw_discard"], _closed))
    assert legal_moves(game, view.seat).allowed() == ["draw_stock"]
    assert make_bot("greedy", 0).choose(view, game.rules) == A.Draw(view.seat, "stock")
    assert suggest(view, game.rules)["draw"] == "stock"
