"""`rami diff` on the bundled joker plugins (and the settings whose edge
needed setups of their own: the ace's corners, a round ended by a lay): a situation where one can
exist (its own setups find it, and the scenario written passes under B and
fails under A), a reason proven from the profiles where none can.

Each need reasons.PLUGIN_NEEDS claims is checked both ways: with the need
unmet, the profile with and without the plugin rule alike on every move of
the plugin's own setups; with it met, they part (so the check can fail)."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.conformance.scenario import run_file
from rami_core.diff.deal import deal_difference, shown_by_deal
from rami_core.diff.reasons import PLUGIN_NEEDS, Reason, reason_for
from rami_core.diff.search import Search
from rami_core.diff.settings import profile_with, settings_diff
from rami_core.diff.situation import Referee
from rami_core.profile.loader import load_profile


def search_pair(a, b, budget: int = 300):
    ra, rb = Referee(a), Referee(b)
    changes = settings_diff(a, b)
    result = Search(ra, rb, changes, 0, budget).run()
    explained = {p for f in result.found for p in f.causes}
    deal = deal_difference(a, b, 0)
    why = {
        c.path: reason_for(c, changes, ra, rb, result)
        for c in changes
        if c.path not in explained and not shown_by_deal(c.path, deal)
    }
    return explained, why


def own_search(profile, plugin: str, budget: int = 60):
    """The plugin's own search: `profile` without it against `profile` with it."""
    (change,) = settings_diff(profile_with(profile, f"plugins.{plugin}", None), profile)
    x = Referee(profile_with(profile, f"plugins.{plugin}", None))
    sub = Search(x, Referee(profile), [change], 0, budget, aimed=False)
    sub.aim_path = change.path
    return sub.run()


# (plugin, the profile with it where its need is met, the same with the need unmet)
CLAIMS = [
    (
        "joker_freed_from_hand",
        ("voleur_joker_freed_from_hand", []),
        ("voleur_joker_freed_from_hand", ["deck.jokers=0"]),
    ),
    ("no_joker_split", ("voleur_002_no_joker_split", []), ("voleur_002_no_joker_split", ["deck.jokers=0"])),
    (
        "no_joker_split",
        ("voleur_002_no_joker_split", []),
        ("voleur_002_no_joker_split", ["table.rearrange=false"]),
    ),
    (
        "joker_replay_new_meld",
        ("rami51_joker_replay_new_meld", []),
        ("rami51_joker_replay_new_meld", ["deck.jokers=0"]),
    ),
    (
        "joker_replay_new_meld",
        ("rami51_joker_replay_new_meld", []),
        ("rami51_joker_replay_new_meld", ["jokers.replay=any_time"]),
    ),
]


@pytest.mark.parametrize("plugin, met, unmet", CLAIMS)
def test_a_plugin_acts_where_its_need_is_met_and_never_where_it_is_not(plugin, met, unmet):
    assert plugin in PLUGIN_NEEDS
    found = own_search(load_profile(*met), plugin)
    assert found.found, f"{plugin} should refuse something under {met}"
    quiet = own_search(load_profile(*unmet), plugin)
    assert quiet.tried > 20 and quiet.found == [], [f.situation for f in quiet.found]


def test_joker_plugins_against_a_deck_without_jokers():
    _, why = search_pair(load_profile("classic"), load_profile("voleur_002_strict"), budget=60)
    for plugin in PLUGIN_NEEDS:
        assert why[f"plugins.{plugin}"] == Reason("plugin_no_jokers", {"side": "A"})


def test_a_split_rule_where_no_rearrangement_is_allowed():
    a, b = load_profile("rami51"), load_profile("rami51", ["plugins.no_joker_split={}"])
    _, why = search_pair(a, b, budget=40)
    assert why == {"plugins.no_joker_split": Reason("plugin_no_rearrange", {"side": "B"})}


def test_a_replay_rule_where_no_joker_is_owed_or_swapped(tmp_path):
    # a club's own file: rami51 whose freed joker may wait, with the new-meld rule
    house = tmp_path / "club.yaml"
    house.write_text(
        "extends: rami51\nname: club\njokers:\n  replay: any_time\nplugins:\n  joker_replay_new_meld: {}\n",
        encoding="utf-8",
    )
    _, why = search_pair(load_profile("rami51"), load_profile(str(house)), budget=60)
    assert why["plugins.joker_replay_new_meld"] == Reason("plugin_no_owed", {"side": "B"})
    _, why = search_pair(load_profile("simple"), load_profile("rami51_joker_replay_new_meld"), budget=60)
    assert why["plugins.joker_replay_new_meld"] == Reason("plugin_no_swap", {"side": "A"})


def test_the_plugin_reasons_print_in_both_languages():
    args = ["diff", "classic", "voleur_joker_freed_from_hand", "--budget", "30"]
    en = CliRunner().invoke(main, args, catch_exceptions=False).output
    fr = CliRunner().invoke(main, [*args, "--lang", "fr"], catch_exceptions=False).output
    assert "plugins.joker_freed_from_hand: A's deck holds no joker" in en
    assert "plugins.joker_freed_from_hand : le jeu de A n'a pas de joker" in fr


def scenarios_tell_apart(a: str, b: str, tmp_path) -> list[dict]:
    """`rami diff A B --scenarios F`: F passes under B and each scenario fails under A at its last move."""
    out = tmp_path / "club.yaml"
    result = CliRunner().invoke(main, ["diff", a, b, "--scenarios", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    docs = [d for d in yaml.safe_load_all(out.read_text(encoding="utf-8")) if d]
    assert all(r.passed for r in run_file(out))
    for d in docs:
        d["variant"] = a
        d.pop("rules", None)
    other = tmp_path / "under_a.yaml"
    other.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    for r, d in zip(run_file(other), docs, strict=True):
        assert not r.passed and r.step == len(d["steps"]), (r.name, r.message)
    return docs


def test_a_joker_freed_with_a_table_card_is_shown_against_a_file_that_never_rebuilds(tmp_path):
    docs = scenarios_tell_apart("rami51", "voleur_joker_freed_from_hand", tmp_path)
    assert any(d["name"].endswith(": plugins.joker_freed_from_hand") for d in docs)


@pytest.mark.parametrize(
    "a, b, path",
    [
        ("kaluki", "voleur_002_strict", "plugins.joker_freed_from_hand"),
        ("rami51_no_throw_back", "voleur_002_strict", "plugins.joker_freed_from_hand"),
        ("kaluki_10", "voleur_002_strict", "plugins.joker_freed_from_hand"),
        ("rami51_no_early_discard_draw", "voleur_002_strict", "plugins.joker_freed_from_hand"),
        ("voleur_002", "voleur_002_strict", "plugins.no_joker_split"),
        ("rami71", "classic_wrap_bonus", "melds.wrap"),
        ("simple", "classic_wrap_bonus", "melds.wrap"),
        ("kaluki_40", "classic_wrap_bonus", "melds.ace"),
        # a round ended by a lay, where a file has no discard: its penalty and its target
        ("voleur_002", "classic", "game.target"),
        ("voleur_simple_game", "voleur_002", "jokers.penalty"),
        ("voleur_simple_game", "voleur_002", "game.target"),
    ],
)
@pytest.mark.slow
def test_a_setting_found_at_its_own_edge(a, b, path):
    explained, why = search_pair(load_profile(a), load_profile(b))
    assert path in explained, why.get(path)


def test_a_run_turning_the_corner_is_shown(tmp_path):
    docs = scenarios_tell_apart("classic", "classic_wrap_bonus", tmp_path)
    assert any("melds.wrap" in d["name"] for d in docs)
