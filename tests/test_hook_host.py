"""The hook host calls each hook the way its spec is marked, and every game has one."""

from __future__ import annotations

import pytest

from rami_core.engine import Game
from rami_core.errors import InternalError
from rami_core.hooks import PluginHost, hookspecs_names
from rami_core.loader import load_profile


def test_deciding_hooks_are_exactly_the_firstresult_ones():
    host = PluginHost()
    deciding = {n for n in hookspecs_names() if host._firstresult[n]}
    assert deciding == {
        "rami_draw_allowed",
        "rami_meld_valid",
        "rami_opening_met",
        "rami_table_acceptable",
        "rami_discard_allowed",
        "rami_hand_cost",
        "rami_round_scores",
        "rami_game_over",
    }


def test_the_host_refuses_to_call_a_hook_against_its_mark():
    host = PluginHost()
    with pytest.raises(InternalError, match="firstresult"):
        host.decide("rami_event", rules=None, event=None)
    with pytest.raises(InternalError, match="firstresult"):
        host.call_all("rami_hand_cost", rules=None, cards=[])
    # Called the right way, a host without plugins has no opinion and no results.
    assert host.decide("rami_hand_cost", rules=None, cards=[]) is None
    assert host.call_all("rami_event", rules=None, event=None) == []


def test_every_game_has_a_plugin_host_even_without_plugins():
    game = Game.new(load_profile("voleur"), 2, seed=1)
    assert isinstance(game.rules.hooks, PluginHost)
    assert game.rules.hooks.names() == []


def test_bundled_plugins_share_the_settings_base():
    from rami_core.hooks import bundled_plugins, make_plugin
    from rami_core.hookspecs import HousePlugin, PluginSettings

    for name, cls in bundled_plugins().items():
        assert issubclass(cls, HousePlugin), name
        assert issubclass(cls.Settings, PluginSettings), name
        plugin = make_plugin(name, {})
        assert isinstance(plugin.settings, cls.Settings), name
        with pytest.raises(Exception, match="misspelt_key"):
            make_plugin(name, {"misspelt_key": 1})  # an unknown setting is an error, never ignored


def _swap_stock(s):
    s.stock[0], s.stock[1] = s.stock[1], s.stock[0]


def _replace_in_hand(s):
    s.hands[1][0] = s.stock[0]


def _phase(s):
    s.phase = "over"


def _table(s):
    s.table.append(s.table[0] if s.table else None)


def _new_attribute(s):
    s.note = "seen"


def _hand_replaced_by_equal_copy(s):
    s.hands[0] = list(s.hands[0])  # equal contents: not a change


@pytest.mark.parametrize(
    "change, changed",
    [
        (_swap_stock, True),
        (_replace_in_hand, True),
        (_phase, True),
        (_table, True),
        (_new_attribute, True),
        (_hand_replaced_by_equal_copy, False),
    ],
)
def test_a_judging_hook_that_changes_any_part_of_the_state_is_caught(change, changed):
    """The guard compares the state after the hook with a snapshot taken before
    it: a change anywhere (a nested hand, a scalar, the order of the stock, a new
    attribute) is a PluginError, and looking without changing is not."""
    from rami_core.hooks import PluginError
    from rami_core.hookspecs import hookimpl

    class Meddler:
        name = "meddler"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            change(state)

    game = Game.new(load_profile("rami51"), 2, seed=3)
    host = PluginHost(extra=[Meddler()])
    state = game.state.copy()
    if changed:
        with pytest.raises(PluginError, match="changed the game state"):
            host.decide("rami_draw_allowed", rules=game.rules, state=state, seat=0, source="stock")
    else:
        assert host.decide("rami_draw_allowed", rules=game.rules, state=state, seat=0, source="stock") is None


def test_a_state_that_is_not_a_game_state_is_compared_whole():
    """Anything else shown as the state (a caller's own object) is still guarded."""
    from rami_core.hooks import PluginError
    from rami_core.hookspecs import hookimpl

    class Meddler:
        name = "meddler"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            state["hands"][0].append("x")

    host = PluginHost(extra=[Meddler()])
    with pytest.raises(PluginError, match="changed the game state"):
        host.decide("rami_draw_allowed", rules=None, state={"hands": [[]]}, seat=0, source="stock")
