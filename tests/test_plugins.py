"""House rules as plugins: every hook, the bundled plugins, loading and failures.

Each hook of rami_core.profile.hookspecs has its `test_hook_<name>` here (the guard in
test_hooks_documented.py checks it), driven through the Game API with a small
plugin object passed in, as a caller would with `Game.new(..., plugins=[obj])`.
The bundled plugins' rules are proved by the scenarios under
tests/scenarios/plugins/; the tests below check what scenarios cannot say:
errors naming the plugin and the hook, state unchanged, traces, discovery.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from rami_core.cards import parse_card
from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.profile.hooks import PluginError, PluginHost, bundled_plugins, hookspecs_names
from rami_core.profile.hookspecs import Refusal, hookimpl
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from rami_core.words.errors import ProfileError, RuleError

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "variants" / "house"
PLUGIN_SCENARIOS = Path(__file__).parent / "scenarios" / "plugins"


def C(text: str):
    return parse_card(text)


def game_with(variant, setup, *plugins, rules=None) -> Game:
    """A game from a scenario-style setup, with plugin objects passed through the API."""
    profile = load_profile(variant, rules=rules)
    base = build_setup(profile, setup)
    return Game(profile, base.state.players, base.state, plugins=plugins)


RAMI51_SETUP = {
    "hands": [["9H", "10H", "JH", "KS", "KH", "KC", "2C", "5D"], ["3S", "4S", "8D", "8C", "QD"]],
    "stock": ["QC", "4C", "7S"],
    "discard": ["6C"],
}


class Recorder:
    """A plugin that remembers what each hook received."""

    name = "recorder"

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []


# --------------------------------------------------------------------------- one test per hook


def test_hook_rami_deal():
    class Reverse:
        name = "reverse_stock"

        @hookimpl
        def rami_deal(self, rules, state):
            state.stock.reverse()

    profile = load_profile("rami51")
    plain = Game.new(profile, 3, seed=7)
    turned = Game.new(profile, 3, seed=7, plugins=[Reverse()])
    assert turned.state.stock == list(reversed(plain.state.stock))
    assert turned.state.hands == plain.state.hands
    assert sorted(turned.state.all_cards()) == sorted(plain.state.all_cards())


def test_hook_rami_draw_allowed():
    seen = []

    class StockOnlyOnSeat0:
        name = "stock_only"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            seen.append((seat, source))
            if source == "discard":
                return Refusal("discard", "seat 0 draws from the stock here")
            return None

    g = game_with("rami51", RAMI51_SETUP, StockOnlyOnSeat0())
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.apply(A.Draw(0, "discard"))
    assert e.value.code == "stock_only.discard"
    assert g.state.to_json() == before
    g.apply(A.Draw(0, "stock"))
    assert seen == [(0, "discard"), (0, "stock")]


def test_hook_rami_draw_allowed_reason_string_and_design_code():
    class Strings:
        name = "strings"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            return (
                "not today"
                if source == "stock"
                else Refusal("draw_forbidden", "the contract code stays as it is")
            )

    g = game_with("rami51", RAMI51_SETUP, Strings())
    with pytest.raises(RuleError) as e:
        g.apply(A.Draw(0, "stock"))
    assert (e.value.code, "not today" in str(e.value)) == ("strings.refused", True)
    with pytest.raises(RuleError) as e:
        g.apply(A.Draw(0, "discard"))
    assert e.value.code == "draw_forbidden"


def test_hook_rami_meld_valid():
    class NoSets:
        name = "no_sets"

        @hookimpl
        def rami_meld_valid(self, rules, cards, reading):
            if reading.kind == "set":
                return Refusal("set", f"no sets here: {len(cards)} cards")
            return None

    g = game_with("rami51", RAMI51_SETUP, NoSets())
    g.apply(A.Draw(0, "stock"))
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.apply(A.Meld(0, ((C("9H"), C("10H"), C("JH")), (C("KS"), C("KH"), C("KC")))))
    assert e.value.code == "no_sets.set"
    assert g.state.to_json() == before


def test_hook_rami_opening_met():
    got = {}

    class ThreeMelds:
        name = "three_melds"

        @hookimpl
        def rami_opening_met(self, rules, state, seat, readings, going_out):
            got.update(seat=seat, n=len(readings), going_out=going_out)
            return None if len(readings) >= 3 else Refusal("few", "open with three melds")

    g = game_with("rami51", RAMI51_SETUP, ThreeMelds())
    g.apply(A.Draw(0, "stock"))
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.apply(A.Meld(0, ((C("9H"), C("10H"), C("JH")), (C("KS"), C("KH"), C("KC")))))
    assert e.value.code == "three_melds.few"
    assert got == {"seat": 0, "n": 2, "going_out": False}
    assert g.state.to_json() == before and g.state.opened == [False, False]


def test_hook_rami_table_acceptable():
    rec = Recorder()

    @hookimpl
    def rami_table_acceptable(rules, state, seat, old_table, new_table, given, action):
        rec.calls.append(
            (
                "table",
                {
                    "seat": seat,
                    "old": len(old_table),
                    "new": len(new_table),
                    "given": sorted(given),
                    "action": action,
                },
            )
        )
        return Refusal("no_more", "one meld on the table is enough") if len(new_table) > 1 else None

    rec.rami_table_acceptable = rami_table_acceptable
    g = game_with("rami51", RAMI51_SETUP, rec)
    g.apply(A.Draw(0, "stock"))
    before = g.state.to_json()
    meld = A.Meld(0, ((C("9H"), C("10H"), C("JH")), (C("KS"), C("KH"), C("KC"))))
    with pytest.raises(RuleError) as e:
        g.apply(meld)
    assert e.value.code == "recorder.no_more"
    assert g.state.to_json() == before
    ((_, call),) = rec.calls
    assert call["seat"] == 0 and (call["old"], call["new"]) == (0, 2) and call["action"] == meld
    assert [c.face for c in call["given"]] == sorted(
        c.face for c in (C("9H"), C("10H"), C("JH"), C("KS"), C("KH"), C("KC"))
    )


def test_hook_rami_discard_allowed():
    seen = []

    class NoAces:
        name = "no_aces"

        @hookimpl
        def rami_discard_allowed(self, rules, state, seat, card):
            seen.append((card, card in state.hands[seat]))
            return Refusal("ace", "keep your aces") if card.rank == 1 else None

    setup = {"hands": [["AS", "2C", "5D"], ["3S", "4S"]], "stock": ["QC"], "discard": ["6C"]}
    g = game_with("rami51", setup, NoAces())
    g.apply(A.Draw(0, "stock"))
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.apply(A.Discard(0, C("AS")))
    assert e.value.code == "no_aces.ace" and g.state.to_json() == before
    g.apply(A.Discard(0, C("2C")))
    # the card is already out of the hand when the hook runs
    assert [(c.face, inside) for c, inside in seen] == [(C("AS").face, False), (C("2C").face, False)]


def test_hook_rami_timeout():
    seen = []

    class Watch:
        name = "watch"

        @hookimpl
        def rami_timeout(self, rules, state, seat):
            seen.append((seat, state.turn, len(state.hands[seat])))

    setup = {"hands": [["2S", "9H"], ["3C", "8D"]], "stock": ["5C", "6D", "7D", "8S"]}
    g = game_with("voleur", setup, Watch())
    g.apply(A.Timeout(0))
    # called on the working state after the default turn (drawn, turn passed)
    assert seen == [(0, 1, 3)]


def test_hook_rami_timeout_bundled_penalty_on_the_game_api():
    from rami_core.plugins.timeout_penalty import Plugin, Settings

    setup = {"hands": [["2S", "9H"], ["3C", "8D"]], "stock": ["5C", "6D", "7D", "8S", "9S"]}
    g = game_with("voleur", setup, Plugin(Settings(cards=2)))
    g.apply(A.Timeout(0))
    assert len(g.state.hands[0]) == 5 and len(g.state.stock) == 2
    assert sorted(g.state.all_cards()) == sorted(build_setup(load_profile("voleur"), setup).state.all_cards())


def _going_out_game(*plugins):
    setup = {"hands": [["3S", "4S"], ["JK", "AH", "2C"]], "stock": ["5S"], "opened": [True, True]}
    g = game_with("voleur", setup, *plugins)
    g.apply(A.Draw(0, "stock"))
    g.apply(A.Meld(0, ((C("3S"), C("4S"), C("5S")),)))
    return g


def test_hook_rami_hand_cost():
    class OnePerCard:
        name = "one_per_card"

        @hookimpl
        def rami_hand_cost(self, rules, cards):
            return len(cards)

    assert _going_out_game().state.penalties == [0, 63]
    assert _going_out_game(OnePerCard()).state.penalties == [0, 3]


def test_hook_rami_round_scores():
    got = []

    class Halve:
        name = "halve"

        @hookimpl
        def rami_round_scores(self, rules, state, penalties):
            got.append(list(penalties))
            return [p // 2 for p in penalties]

    g = _going_out_game(Halve())
    assert got == [[0, 63]]
    assert g.state.penalties == [0, 31] and g.state.scores == [0, 31]


def test_hook_rami_game_over():
    class OneRound:
        name = "one_round"

        @hookimpl
        def rami_game_over(self, rules, state):
            return True

    assert _going_out_game().state.game_over is False
    g = _going_out_game(OneRound())
    assert g.state.phase == OVER and g.state.game_over is True and g.state.game_winner == 0


def test_hook_rami_event():
    kinds = []

    class Log:
        name = "log"

        @hookimpl
        def rami_event(self, rules, event):
            kinds.append(event.kind)

    _going_out_game(Log())
    assert kinds[0] == "drawn" and kinds[-1] == "round_over"


# --------------------------------------------------------------------------- failures name the plugin and the hook


def test_unknown_plugin_is_a_profile_error_naming_it():
    with pytest.raises(ProfileError) as e:
        load_profile("voleur", rules={"plugins": {"no_joker_splt": {}}})
    text = e.value.format() if hasattr(e.value, "format") else str(e.value)
    assert "no_joker_splt" in text and "no_joker_split" in text  # the nearest name is suggested
    with pytest.raises(ProfileError):
        PluginHost({"no_such_plugin": {}})


def test_a_module_path_in_yaml_loads_no_code():
    with pytest.raises(ProfileError) as e:
        load_profile("voleur", rules={"plugins": {"os.path:join": {}}})
    assert "os.path:join" in str(e.value.problems[0].message) or "os.path:join" in str(
        e.value.problems[0].key_path
    )


def test_bad_plugin_settings_are_a_profile_error_naming_the_key():
    with pytest.raises(ProfileError) as e:
        load_profile("voleur", rules={"plugins": {"timeout_penalty": {"cards": -1}}})
    assert any(p.key_path == "plugins.timeout_penalty.cards" for p in e.value.problems)
    with pytest.raises(ProfileError) as e:
        load_profile("rami51", rules={"plugins": {"no_early_discard_draw": {"first_trun": False}}})
    assert any(p.key_path.startswith("plugins.no_early_discard_draw.first_trun") for p in e.value.problems)


def test_bad_settings_in_a_house_file_are_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "extends: voleur\nname: bad\nplugins:\n  timeout_penalty:\n    cards: many\n", encoding="utf-8"
    )
    with pytest.raises(ProfileError) as e:
        load_profile(str(path))
    (problem,) = e.value.problems
    assert (
        problem.file.endswith("bad.yaml")
        and problem.line == 5
        and problem.key_path == "plugins.timeout_penalty.cards"
    )


class Boom:
    name = "boom"

    def __init__(self, hook):
        self.hook = hook

    @hookimpl
    def rami_discard_allowed(self, rules, state, seat, card):
        if self.hook == "rami_discard_allowed":
            raise ValueError("kaboom")

    @hookimpl
    def rami_event(self, rules, event):
        if self.hook == "rami_event" and event.kind == "drawn":
            raise KeyError("kaboom")

    @hookimpl
    def rami_timeout(self, rules, state, seat):
        if self.hook == "rami_timeout":
            state.hands[seat].append(state.stock.pop())  # changes the working copy, then fails
            raise RuntimeError("kaboom")


@pytest.mark.parametrize(
    "hook, actions",
    [
        ("rami_discard_allowed", [A.Draw(0, "stock"), A.Discard(0, C("2C"))]),
        ("rami_event", [A.Draw(0, "stock")]),
        ("rami_timeout", [A.Timeout(0)]),
    ],
)
def test_a_plugin_that_raises_names_itself_and_the_hook_and_changes_nothing(hook, actions):
    g = game_with("rami51", RAMI51_SETUP, Boom(hook))
    *before_actions, failing = actions
    for a in before_actions:
        g.apply(a)
    before, log, events = g.state.to_json(), list(g.log), list(g.events)
    with pytest.raises(PluginError) as e:
        g.apply(failing)
    assert e.value.plugin == "boom" and e.value.hook == hook
    assert "'boom'" in str(e.value) and hook in str(e.value) and "kaboom" in str(e.value)
    assert g.state.to_json() == before and g.log == log and g.events == events


def test_a_plugin_returning_nonsense_is_a_plugin_error():
    class Nonsense:
        name = "nonsense"

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            return 42

    g = game_with("rami51", RAMI51_SETUP, Nonsense())
    before = g.state.to_json()
    with pytest.raises(PluginError) as e:
        g.apply(A.Draw(0, "stock"))
    assert (e.value.plugin, e.value.hook) == ("nonsense", "rami_draw_allowed")
    assert g.state.to_json() == before


def test_a_plugin_failing_in_a_scenario_fails_the_scenario_not_the_runner(tmp_path, monkeypatch):
    from rami_core.conformance.scenario import run_scenario

    result = run_scenario(
        {
            "name": "unknown",
            "variant": "voleur",
            "rules": {"plugins": {"nope": {}}},
            "setup": {"hands": [["2S"], ["3S"]]},
            "steps": [{"expect": {"turn": 0}}],
        },
        tmp_path,
        "<inline>",
    )
    assert not result.passed and "nope" in result.message


# --------------------------------------------------------------------------- one plugin manager per game


def test_each_game_has_its_own_plugin_manager():
    a = game_with("voleur", {"hands": [["2S"], ["3S"]], "stock": ["4C"]})
    b = game_with(
        "voleur",
        {"hands": [["2S"], ["3S"]], "stock": ["4C"]},
        rules={"plugins": {"timeout_penalty": {"cards": 1}}},
    )
    c = game_with("rami51", RAMI51_SETUP)
    assert a.rules.hooks is not b.rules.hooks and a.rules.hooks.pm is not b.rules.hooks.pm
    assert a.rules.hooks.names() == [] and b.rules.hooks.names() == ["timeout_penalty"]
    assert c.rules.hooks.names() == ["no_playable_discard"]


def test_api_plugins_add_to_the_profile_plugins():
    rec = Recorder()
    g = game_with("rami51", RAMI51_SETUP, rec)
    assert set(g.rules.hooks.names()) == {"no_playable_discard", "recorder"}


# --------------------------------------------------------------------------- traces


def test_trace_hooks_shows_every_hook_call(monkeypatch, capfd):
    monkeypatch.setenv("RAMI_TRACE_HOOKS", "1")
    g = game_with("rami51", RAMI51_SETUP)
    g.apply(A.Draw(0, "stock"))
    g.apply(A.Discard(0, C("2C")))
    err = capfd.readouterr().err
    assert "[rami hook] rami_discard_allowed <- no_playable_discard: None" in err


def test_trace_hooks_off_by_default(monkeypatch, capfd):
    monkeypatch.delenv("RAMI_TRACE_HOOKS", raising=False)
    g = game_with("rami51", RAMI51_SETUP)
    g.apply(A.Draw(0, "stock"))
    g.apply(A.Discard(0, C("2C")))
    assert "[rami hook]" not in capfd.readouterr().err


def test_trace_shows_a_refusal(monkeypatch, capsys):
    monkeypatch.setenv("RAMI_TRACE_HOOKS", "1")
    g = game_with(str(HOUSE / "rami51_no_early_discard_draw.yaml"), RAMI51_SETUP)
    with pytest.raises(RuleError):
        g.apply(A.Draw(0, "discard"))
    err = capsys.readouterr().err
    assert "rami_draw_allowed <- no_early_discard_draw: Refusal(code='first_turn'" in err


# --------------------------------------------------------------------------- the bundled plugins


BUNDLED = sorted(bundled_plugins())


def test_the_bundled_plugins():
    assert set(BUNDLED) >= {
        "no_playable_discard",
        "no_joker_split",
        "joker_freed_from_hand",
        "timeout_penalty",
        "no_early_discard_draw",
        "joker_replay_new_meld",
        "discard_for_opening_only",
    }


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_plugin_shape(name):
    cls = bundled_plugins()[name]
    module = importlib.import_module(f"rami_core.plugins.{name}")
    assert cls is module.Plugin and cls.name == name
    assert issubclass(cls.Settings, BaseModel) and cls.Settings.model_config.get("extra") == "forbid"
    assert module.__doc__ and module.__doc__.strip()
    for field in cls.Settings.model_fields.values():
        assert field.description, f"{name}: every setting has a description"
    impls = [m for m in dir(cls) if m.startswith("rami_")]
    assert impls and set(impls) <= set(hookspecs_names())


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_plugin_has_a_house_file_and_scenarios(name):
    files = [p for p in HOUSE.glob("*.yaml") if name in load_profile(str(p)).active_plugins]
    presets = [p for p in ("rami51",) if name in load_profile(p).active_plugins]
    assert files or presets, f"no house-rule file switches {name} on"
    scenario = PLUGIN_SCENARIOS / f"{name}.yaml"
    assert scenario.is_file()
    text = scenario.read_text(encoding="utf-8")
    assert "without the plugin" in text, "each plugin shows the same play accepted without it"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_plugin_codes_are_prefixed(name):
    """Plugin refusal codes found in the scenarios are `<plugin>.<code>` or one of rami_core.words.errors.ERROR_CODES."""
    import yaml

    from rami_core.words.errors import ERROR_CODES

    for doc in yaml.safe_load_all((PLUGIN_SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8")):
        for step in doc["steps"]:
            want = (step.get("expect") or {}).get("error")
            for code in want if isinstance(want, list) else [want] if want else []:
                assert code in ERROR_CODES or code.split(".")[0] in BUNDLED


# --------------------------------------------------------------------------- CLI


def test_cli_plugins_lists_bundled_plugins_with_settings():
    from rami_core.cli import main

    result = CliRunner().invoke(main, ["plugins"])
    assert result.exit_code == 0, result.output
    for name in BUNDLED:
        assert f"{name}  [bundled]" in result.output
    assert "cards = 3  Penalty cards" in result.output
    assert "first_turn = true" in result.output


def test_cli_schema_has_each_plugin_settings():
    from rami_core.cli import main

    result = CliRunner().invoke(main, ["schema"])
    schema = json.loads(result.output)
    plugins = schema["properties"]["plugins"]
    for name in BUNDLED:
        assert plugins["properties"][name]["anyOf"][0] == {"$ref": f"#/$defs/plugin_{name}"}
        assert f"plugin_{name}" in schema["$defs"]
    assert schema["$defs"]["plugin_timeout_penalty"]["properties"]["cards"]["default"] == 3


def test_installed_plugins_are_found_by_entry_point(monkeypatch):
    """A package's entry point in group `rami` is found, loaded and used like a bundled one."""
    import rami_core.profile.hooks as hooks

    class FakeEntryPoint:
        name = "fake_house_rule"
        value = "fake:Plugin"
        dist = None

        def load(self):
            class Settings(BaseModel):
                model_config = {"extra": "forbid"}
                limit: int = 3

            class Plugin:
                name = "fake_house_rule"

                def __init__(self, settings):
                    self.settings = settings

            Plugin.Settings = Settings
            return Plugin

    monkeypatch.setattr(hooks, "installed_plugins", lambda: {"fake_house_rule": FakeEntryPoint()})
    host = PluginHost({"fake_house_rule": {"limit": 5}})
    assert host.names() == ["fake_house_rule"]
    with pytest.raises(ProfileError):
        PluginHost({"fake_house_rule": {"limit": "x"}})
