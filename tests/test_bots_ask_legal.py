"""The bots and the hint take what a seat may do from the engine's legal-moves
API (rami_core.referee.legal), not from the profile's switches.

tests/test_legal.py's guard reads the sources; these tests watch the
behaviour. A rule the engine adds to a whole action kind (a gate appended to
``gates.KIND_GATES``, which rami_core.referee.legal asks and the engine's handlers
do not) must reach the bots' plans and the hint at once: a bot that decided
from the profile itself would go on planning the kind, since the engine's
handlers still accept its moves.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.game.views import SeatView
from rami_core.players.bots import make_bot, state_from_view
from rami_core.players.bots.candidates import run_actions
from rami_core.players.bots.planner import Planner
from rami_core.players.hint import suggest
from rami_core.profile.loader import load_profile
from rami_core.referee import gates
from rami_core.referee.engine import Game
from rami_core.referee.legal import legal_moves
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason


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
    monkeypatch.setitem(gates.KIND_GATES, kind, (*gates.KIND_GATES[kind], _closed))
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
    monkeypatch.setitem(gates.KIND_GATES, "draw_discard", (*gates.KIND_GATES["draw_discard"], _closed))
    assert legal_moves(game, view.seat).allowed() == ["draw_stock"]
    assert make_bot("greedy", 0).choose(view, game.rules) == A.Draw(view.seat, "stock")
    assert suggest(view, game.rules)["draw"] == "stock"


# Two readings the bots got wrong while they read the profile's switches,
# each at its edge: the plans now follow what the engine accepts.


def _position(overrides: list[str], hand: str, table: list[str], phase: str, top: str | None = None) -> Game:
    """A two-player rami51 game (with `overrides`) where seat 0, opened in an
    earlier turn, holds `hand` before `table`'s melds (its own)."""
    from rami_core.cards import parse_card
    from rami_core.cards.melds import read_meld
    from rami_core.game.state import TableMeld

    game = Game.new(load_profile("rami51", overrides), 2, seed=1)
    s = game.state
    s.turn, s.phase, s.opened = 0, phase, [True, False]
    s.hands[0] = [parse_card(c) for c in hand.split()]
    readings = [read_meld([parse_card(c) for c in m.split()], game.rules.melds) for m in table]
    s.table = [TableMeld(r, 0) for r in readings if r is not None]
    assert len(s.table) == len(table)
    if top is not None:
        s.discard = [parse_card(top)]
    return game


def test_without_new_melds_after_opening_the_cards_go_on_the_table() -> None:
    """table.new_melds: false. The hand's best lay would be a new set of
    eights, which the engine refuses after the opening turn; the bots used to
    plan it anyway (and so laid nothing). Now the plan lays 8♥ 9♥ off on the
    hearts run, as the engine allows."""
    game = _position(["table.new_melds=false"], "8H 8S 8C 9H 2D 4C", ["5H 6H 7H"], LAY)
    view = game.view(0)
    assert not legal_moves(game, 0).may("meld")
    plan = Planner(game.rules).plan(state_from_view(view), 0)
    assert not any(isinstance(a, A.Meld) for a in plan)
    (lay_off,) = [a for a in plan if isinstance(a, A.LayOff)]
    assert sorted(str(it.card) for it in lay_off.items) == ["8H", "9H"]
    assert suggest(view, game.rules)["actions"] == [lay_off]


def test_a_table_that_may_be_rebuilt_takes_the_discard_even_without_lay_offs() -> None:
    """table.rearrange: true with table.lay_off: false. The engine adds a card
    to a table meld (a lay off is a rebuild of the table), so a discard top
    that fits the table is worth taking; the bots used to read the lay_off
    switch alone and drew from the stock."""
    overrides = ["table.rearrange=true", "table.lay_off=false", "jokers.swap=on_table"]
    game = _position(overrides, "2D 4C 9S JC KD", ["5H 6H 7H"], DRAW, top="8H")
    view = game.view(0)
    assert make_bot("greedy", 0).choose(view, game.rules) == A.Draw(0, "discard")
    assert suggest(view, game.rules)["draw"] == "discard"
