"""`rami simulate` and the simulation driver."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.players.bot_games import SimConfig, mean_ci, run_games, simulate, wilson
from rami_core.profile.loader import load_profile


def _strip_timing(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("timing", None)
    doc.pop("_records", None)
    return doc


def test_wilson_interval():
    lo, hi = wilson(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-3) and hi == pytest.approx(0.6906, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and lo < 2.0 < hi


def test_same_results_whatever_the_workers():
    runner = CliRunner()
    args = [
        "simulate",
        "--variant",
        "kaluki",
        "--games",
        "6",
        "--bots",
        "greedy,random",
        "--seed",
        "9",
        "--json",
        "--round-cap",
        "3",
    ]
    one = runner.invoke(main, args + ["--workers", "1"])
    two = runner.invoke(main, args + ["--workers", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert a["timing"]["workers"] == 1 and b["timing"]["workers"] == 2
    assert _strip_timing(a) == _strip_timing(b)
    assert a["games"] == 6 and sum(a["wins_per_seat"]) + a["ties"] + a["unfinished_games"] == 6


def test_table_output_and_statistics():
    res = CliRunner().invoke(
        main, ["simulate", "--variant", "classic", "--games", "4", "--bots", "expert,greedy", "--seed", "2"]
    )
    assert res.exit_code == 0, res.output
    for text in (
        "win rate",
        "rounds per game",
        "turns per round",
        "empty stock",
        "first opening",
        "average penalty",
        "games per second",
    ):
        assert text in res.output


def test_turn_cap_is_counted():
    cfg = SimConfig(load_profile("rami51"), 2, ("random",), 2, seed=1, turn_cap=5)
    res = simulate(cfg)
    assert res["turn_capped_rounds"] == 2
    assert res["unfinished_games"] == 2
    assert all(g["capped"] == "turn" for g in res["_records"])


def test_round_cap_and_whole_games():
    cfg = SimConfig(load_profile("kaluki"), 2, ("expert", "greedy"), 3, seed=4, round_cap=50, turn_cap=300)
    for g in run_games(cfg):
        # a whole game: rounds until the game is over, or a counted cap
        assert g["rounds"] and (g["finished"] or g["capped"] in ("turn", "round"))
        if g["finished"]:
            assert g["winner"] is not None or g["scores"].count(min(g["scores"])) > 1
    cfg = SimConfig(load_profile("kaluki"), 2, ("greedy",), 2, seed=4, round_cap=1, turn_cap=300)
    for g in run_games(cfg):
        assert len(g["rounds"]) == 1 and g["capped"] in ("round", "turn")


def test_bots_per_seat_validation():
    res = CliRunner().invoke(
        main, ["simulate", "--variant", "classic", "--games", "1", "--bots", "greedy,random,expert"]
    )
    assert res.exit_code == 2
    res = CliRunner().invoke(main, ["simulate", "--variant", "classic", "--games", "1", "--bots", "nobody"])
    assert res.exit_code == 2


def test_compare_two_profiles(tmp_path):
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("extends: classic\n")
    b.write_text("extends: classic\ndeal:\n  hand_size_by_players: {2: 7}\n")
    res = CliRunner().invoke(
        main, ["simulate", "--compare", str(a), str(b), "--games", "6", "--bots", "greedy", "--json"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    m = doc["compare"]["metrics"]["turns_per_round"]
    assert m["paired_games"] == 6 and len(m["ci95"]) == 2
    res = CliRunner().invoke(
        main, ["simulate", "--compare", str(a), str(b), "--games", "3", "--bots", "greedy"]
    )
    assert res.exit_code == 0 and "B - A" in res.output


@pytest.mark.slow  # starting a local Ray instance takes seconds
def test_ray_backend_gives_the_same_results():
    pytest.importorskip(
        "ray",
        reason="the [ray] extra is not installed (pip install -e '.[ray]'): the Ray backend is tested where it is",
    )
    cfg = SimConfig(load_profile("classic"), 2, ("greedy", "random"), 4, seed=3)
    local = simulate(cfg, workers=1)
    remote = simulate(cfg, workers=2, backend="ray")
    assert remote["timing"]["backend"] == "ray"
    assert _strip_timing(local) == _strip_timing(remote)


@pytest.mark.parametrize("bots", [("greedy", "random"), ("expert", "greedy")])
def test_a_seeded_voleur_game_does_not_depend_on_the_clock(monkeypatch, bots):
    """Voleur bots rebuild the table with the exact solver every turn; their
    limits are counts (search states, HiGHS nodes), so a machine a thousand
    times slower, or under load, plays the same game. Here every reading of
    the clock jumps a minute: any seconds-based limit would cut every search."""
    import time as _time

    from rami_core.solver import sweep as solver  # its `time` is the time module

    cfg = SimConfig(load_profile("voleur"), 2, bots, 1, seed=11, round_cap=1, turn_cap=200)
    normal = run_games(cfg)
    now = [_time.perf_counter()]

    def crawling() -> float:
        now[0] += 60.0
        return now[0]

    monkeypatch.setattr(solver.time, "perf_counter", crawling)
    slow = run_games(cfg)
    assert slow == normal
    assert normal[0]["rounds"] and normal[0]["refused"] == 0


def test_simulate_and_compare_report_the_same_statistics() -> None:
    """One definition per statistic: a run and --compare (its A and B columns)
    give the same numbers for the same profile and seed."""
    from pathlib import Path

    from rami_core.players.bot_games import STATISTICS

    runner = CliRunner()
    root = Path(__file__).resolve().parents[1] / "variants"
    args = ["--games", "3", "--bots", "greedy", "--seed", "4", "--json"]
    one = runner.invoke(main, ["simulate", "--variant", str(root / "rami51.yaml"), *args])
    both = runner.invoke(
        main, ["simulate", "--compare", str(root / "rami51.yaml"), str(root / "kaluki.yaml"), *args]
    )
    assert one.exit_code == 0 and both.exit_code == 0, one.output + both.output
    run, cmp = json.loads(one.output), json.loads(both.output)
    for name in STATISTICS:
        assert cmp["a"][name] == run[name], name
        assert cmp["compare"]["metrics"][name]["a"] == run[name], name
    assert run["average_penalty"] is not None
