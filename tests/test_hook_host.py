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
