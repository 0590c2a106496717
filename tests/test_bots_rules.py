"""Bots honour every rule: house files, and club plugins written from
docs/plugins.md that read the turn counters and the discard taken this turn.

The bots decide legality by asking the engine on the state rebuilt from
their view; these are the regressions from the cases where that state
lacked a public fact (the turn count: every lay off judged refused; the
first-turn rule: the discard never taken), and the caps that make every
bots-only run end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.players.bot_games import SimConfig, simulate
from rami_core.profile import hooks
from rami_core.profile.loader import load_profile
from rami_core.referee.caps import TURN_CAP
from tests.support import house_plugins

ROOT = Path(__file__).resolve().parents[1]
HOUSE = sorted((ROOT / "variants" / "house").glob("*.yaml"))


@pytest.fixture
def club_plugins(monkeypatch):
    """The test plugins, as if a club had installed them (entry points)."""
    monkeypatch.setattr(hooks, "installed_plugins", house_plugins.installed)


def house_file(tmp_path: Path, parent: str, plugin: str | None) -> Path:
    p = tmp_path / f"{parent}_{plugin or 'plain'}.yaml"
    text = f"extends: {parent}\nname: {parent}_{plugin or 'plain'}\n"
    if plugin:
        text += f"plugins:\n  {plugin}: {{}}\n"
    p.write_text(text)
    return p


def run(path: Path, bots: str, games: int, players: int = 2, seed: int = 1) -> dict:
    res = CliRunner().invoke(
        main,
        [
            "simulate",
            "--rules",
            str(path),
            "--games",
            str(games),
            "--bots",
            bots,
            "--players",
            str(players),
            "--seed",
            str(seed),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_late_lay_off_club_rule_simulates_like_the_plain_preset(club_plugins, tmp_path) -> None:
    """The issue's example: no laying off before the round's 8th turn."""
    plain = run(house_file(tmp_path, "rami51", None), "greedy", 3)
    late = run(house_file(tmp_path, "rami51", "late_lay_off"), "greedy", 3)
    assert late["timeouts"] == 0 and late["refused"] == 0 and late["bot_errors"] == 0
    assert late["turn_capped_rounds"] <= plain["turn_capped_rounds"]
    # Rounds of ordinary length: within a few turns of the plain preset's.
    assert late["turns_per_round"] < plain["turns_per_round"] * 1.5
    assert late["bots_stats"]["greedy"]["actions"].get("layoff", 0) > 0


PLAIN_RUNS: dict[str, dict] = {}  # the plain preset's games by bots: the same for every plugin compared


@pytest.mark.parametrize("plugin", ["keep_the_taken_suit", "first_lap_stock_only"])
@pytest.mark.parametrize("bots", ["greedy", pytest.param("expert", marks=pytest.mark.slow)])
def test_turn_and_taken_discard_plugins_are_played_cleanly(club_plugins, tmp_path, plugin, bots) -> None:
    if bots not in PLAIN_RUNS:
        PLAIN_RUNS[bots] = run(house_file(tmp_path, "rami51", None), bots, 2)
    plain = PLAIN_RUNS[bots]
    res = run(house_file(tmp_path, "rami51", plugin), bots, 2)
    assert (res["refused"], res["timeouts"], res["bot_errors"]) == (0, 0, 0)
    assert res["turn_capped_rounds"] <= plain["turn_capped_rounds"]


def test_greedy_takes_the_discard_after_the_first_turn() -> None:
    """rami51_no_early_discard_draw: the first lap draws from the stock, later
    turns take the discard as in plain rami51."""
    house = load_profile(ROOT / "variants" / "house" / "rami51_no_early_discard_draw.yaml")
    res = simulate(SimConfig(house, 2, ("greedy",), games=2, seed=1))
    assert res["refused"] == 0 and res["timeouts"] == 0
    assert res["bots_stats"]["greedy"]["actions"].get("draw_discard", 0) > 10


@pytest.mark.parametrize(
    "path",
    # Voleur's rebuilds make its games take minutes: in the slow run.
    [pytest.param(p, marks=pytest.mark.slow) if "voleur" in p.stem else p for p in HOUSE],
    ids=lambda p: p.stem,
)
def test_every_house_file_is_played_without_refusals(path: Path) -> None:
    profile = load_profile(path)
    players = 4 if profile.teams.enabled and profile.allows_players(4) else 2
    if not profile.allows_players(players):
        players = profile.players.min
    res = simulate(
        SimConfig(profile, players, ("greedy", "expert") if players == 2 else ("greedy",), 1, seed=1)
    )
    assert (res["refused"], res["timeouts"], res["bot_errors"], res["stuck"]) == (0, 0, 0, 0)
    assert res["turn_capped_rounds"] == 0


def test_bots_only_play_ends_under_the_late_rule(club_plugins, tmp_path) -> None:
    late = house_file(tmp_path, "rami51", "late_lay_off")
    res = CliRunner().invoke(
        main, ["play", "--rules", str(late), "--bots", "greedy,greedy", "--seed", "1"], input=""
    )
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output


def test_turn_cap_counts_turns_not_changes_of_seat() -> None:
    """A one-seat table never changes seat: the cap still stops its round."""
    from rami_core.referee.caps import round_capped, turns_in_round
    from rami_core.referee.engine import Game

    g = Game.new(load_profile("rami51"), 2, seed=1)
    s = g.state.copy()
    assert turns_in_round(s) == 1 and not round_capped(s)
    s.turns_played = TURN_CAP
    assert round_capped(s)
