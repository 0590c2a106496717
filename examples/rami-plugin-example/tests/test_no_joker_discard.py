"""Tests of the example house rule, run against the installed package."""

from __future__ import annotations

from pathlib import Path

import pytest

from rami_core.cards import parse_card
from rami_core.conformance.scenario import run_file
from rami_core.game import actions as A
from rami_core.profile.hooks import installed_plugins
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from rami_core.words.errors import ProfileError, RuleError

SCENARIOS = Path(__file__).parent / "scenarios"


def test_found_by_entry_point():
    assert "no_joker_discard" in installed_plugins()
    from rami_plugin_example import Plugin

    assert installed_plugins()["no_joker_discard"].load() is Plugin


def test_a_profile_switches_it_on_by_name():
    profile = load_profile("rami51", rules={"plugins": {"no_joker_discard": {"last_card_exempt": True}}})
    assert profile.active_plugins["no_joker_discard"] == {"last_card_exempt": True}


def test_bad_settings_are_a_profile_error():
    with pytest.raises(ProfileError) as e:
        load_profile("rami51", rules={"plugins": {"no_joker_discard": {"last_card": True}}})
    assert any(p.key_path.startswith("plugins.no_joker_discard") for p in e.value.problems)


@pytest.mark.parametrize("result", run_file(SCENARIOS / "no_joker_discard.yaml"), ids=lambda r: r.name)
def test_scenarios(result):
    assert result.passed, (
        f"step {result.step}: {result.message} (expected {result.expected}, got {result.actual})"
    )


def test_through_the_game_api():
    """The same rule passed as an object, without any profile naming it."""
    from rami_plugin_example import Plugin, Settings

    profile = load_profile("rami51")
    base = build_setup(profile, {"hands": [["JK", "2C"], ["3H", "4H"]], "stock": ["QC"], "discard": ["6C"]})
    game = Game(profile, 2, base.state, plugins=[Plugin(Settings())])
    game.apply(A.Draw(0, "stock"))
    before = game.state.to_json()
    with pytest.raises(RuleError) as e:
        game.apply(A.Discard(0, parse_card("JK")))
    assert e.value.code == "no_joker_discard.joker"
    assert game.state.to_json() == before
