"""The hook host calls each hook the way its spec is marked, and every game has one."""

from __future__ import annotations

import pytest

from rami_core.profile.hooks import PluginHost, hookspecs_names
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.words.errors import InternalError


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
        "rami_reshuffle",
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
    from rami_core.profile.hooks import bundled_plugins, make_plugin
    from rami_core.profile.hookspecs import HousePlugin, PluginSettings

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
    from rami_core.profile.hooks import PluginError
    from rami_core.profile.hookspecs import hookimpl

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
    from rami_core.profile.hooks import PluginError
    from rami_core.profile.hookspecs import hookimpl

    class Meddler:
        name = "meddler"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            state["hands"][0].append("x")

    host = PluginHost(extra=[Meddler()])
    with pytest.raises(PluginError, match="changed the game state"):
        host.decide("rami_draw_allowed", rules=None, state={"hands": [[]]}, seat=0, source="stock")


def _registered(pm) -> dict[str, list[tuple[str, dict]]]:
    return {
        name: [(impl.plugin_name, dict(impl.opts)) for impl in getattr(pm.hook, name).get_hookimpls()]
        for name in hookspecs_names()
    }


def test_the_host_reads_the_same_hooks_as_pluggy_for_every_bundled_plugin():
    """The host's manager reads the marks of rami's own classes once; what it
    registers is what pluggy's own manager registers, for every bundled plugin,
    every time."""
    import pluggy

    from rami_core.profile import hookspecs
    from rami_core.profile.hooks import bundled_plugins, make_plugin

    for _ in range(2):  # the second time from the remembered marks
        for name in bundled_plugins():
            host = PluginHost({name: {}})
            plain = pluggy.PluginManager(hookspecs.PROJECT)
            plain.add_hookspecs(hookspecs)
            plain.register(make_plugin(name, {}), name=name)
            assert _registered(host.pm) == _registered(plain), name
            specs = {n: getattr(host.pm.hook, n).spec.opts for n in hookspecs_names()}
            assert specs == {n: getattr(plain.hook, n).spec.opts for n in hookspecs_names()}


def test_hooks_an_object_holds_itself_or_a_class_gains_later_are_still_found():
    """Only the marks of a bundled class's own attributes are remembered: a hook
    set on the plugin object, and a hook added to a plugin class of the caller's
    after a first game, are read afresh."""
    from rami_core.profile.hooks import make_plugin
    from rami_core.profile.hookspecs import hookimpl

    plugin = make_plugin("no_playable_discard", {})
    PluginHost({"no_playable_discard": {}})  # the class's marks remembered
    plugin.rami_game_over = hookimpl(lambda rules, state: True)
    plugin.rami_discard_allowed = hookimpl(tryfirst=True)(lambda rules, state, seat, card: None)
    host = PluginHost(extra=[plugin])
    assert host.has("rami_game_over")
    (impl,) = host.pm.hook.rami_discard_allowed.get_hookimpls()
    assert impl.opts["tryfirst"] and impl.function is plugin.rami_discard_allowed  # the object's own mark
    assert not PluginHost({"no_playable_discard": {}}).has("rami_game_over")

    class Later:
        name = "later"

        def rami_game_over(self, rules, state):  # not marked yet: not a hook
            return True

    assert not PluginHost(extra=[Later()]).has("rami_game_over")
    hookimpl(Later.rami_game_over)  # marked after a first game
    assert PluginHost(extra=[Later()]).has("rami_game_over")


@pytest.mark.parametrize("mark", [{"wrapper": True}, {"hookwrapper": True}])
def test_a_wrapper_implementation_is_refused_when_it_is_registered(mark):
    from rami_core.profile.hooks import PluginError
    from rami_core.profile.hookspecs import hookimpl

    class Wrapping:
        name = "wrapping"

        @hookimpl(**mark)
        def rami_draw_allowed(self, rules, state, seat, source):
            result = yield
            return result

    with pytest.raises(PluginError) as refused:
        PluginHost(extra=[Wrapping()])
    text = str(refused.value)
    assert "'wrapping'" in text and "rami_draw_allowed" in text and "wrapper" in text


def test_the_hook_specs_type_every_parameter_and_return():
    import inspect
    import typing

    from rami_core.profile import hookspecs

    for name in hookspecs_names():
        spec = getattr(hookspecs, name)
        hints = typing.get_type_hints(spec, vars(hookspecs) | _spec_types())
        params = inspect.signature(spec).parameters
        assert set(params) <= set(hints), f"{name}: untyped {set(params) - set(hints)}"
        assert "return" in hints, f"{name}: no return type"


def _spec_types() -> dict[str, object]:
    from rami_core.cards import Card
    from rami_core.cards.melds import Reading
    from rami_core.game.actions import Action
    from rami_core.game.events import Event
    from rami_core.game.state import GameState, TableMeld
    from rami_core.profile.rules import Rules

    return {
        "Action": Action,
        "Card": Card,
        "Event": Event,
        "Reading": Reading,
        "Rules": Rules,
        "GameState": GameState,
        "TableMeld": TableMeld,
    }


def test_a_host_copies_and_pickles_built_again_from_its_plugins(tmp_path, monkeypatch):
    """pluggy's manager holds a module and does not pickle: a host is carried
    as its plugins' names and settings and the objects passed in (a module by
    its name), and built again, in the same order."""
    import copy
    import pickle
    import sys

    (tmp_path / "rami_test_cost_plugin.py").write_text(
        "from rami_core.profile.hookspecs import hookimpl\n\n"
        "@hookimpl\n"
        "def rami_hand_cost(rules, cards):\n"
        "    return 7 * len(cards)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import rami_test_cost_plugin

    try:
        profile = load_profile("variants/house/voleur_002_strict.yaml")
        game = Game.new(profile, 2, seed=1, plugins=[rami_test_cost_plugin])
        for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
            host = other.rules.hooks
            assert host is not game.rules.hooks
            assert sorted(host.names()) == sorted(game.rules.hooks.names())
            assert [i.plugin_name for i in host._impls("rami_table_acceptable")] == [
                i.plugin_name for i in game.rules.hooks._impls("rami_table_acceptable")
            ]
            assert other.rules.hand_value(other.state.hands[0]) == 7 * len(other.state.hands[0])
            assert other.state == game.state
    finally:
        sys.modules.pop("rami_test_cost_plugin", None)
