"""Every hostile input reported against the command line ends in a clean refusal.

Each test is one reproduction: the input (a file under ``inputs/`` or built
here), the command, and what a clean refusal says. Commands run in a real
process under a memory cap and a time limit (see ``support.py``): a hang, an
exhausted memory or a traceback fails the test. Inputs refused before anything
is read at length (a folder, a path too long, a usage error, a name to show)
run in this process (``run_rami_here``), which prints the same.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.hostile.support import INPUTS, assert_refused, run_rami, run_rami_here

# --------------------------------------------------------------------------- scenarios that check nothing


SCENARIO_CASES = [
    ("scenario_expect_typo.yaml", "unknown key 'expcet' (did you mean `expect`?)"),
    ("scenario_error_outside_expect.yaml", "unknown key 'error'"),
    ("scenario_no_steps.yaml", "checks nothing"),
    ("scenario_empty_steps.yaml", "checks nothing"),
    ("scenario_empty_expect.yaml", "checks nothing"),
    ("scenario_actions_only.yaml", "checks nothing"),
    ("scenario_turn_false.yaml", "expect.turn: expected a whole number, got False"),
    ("scenario_hands_float_seat.yaml", "seat '0.5' is not a seat number"),
    ("scenario_hands_null_seat.yaml", "seat '~' is not a seat number"),
    ("scenario_turn_date.yaml", "expect.turn: expected a whole number, got '2024-01-01'"),
    ("scenario_binary.yaml", "unsupported YAML tag '!!binary'"),
    ("scenario_player_no_action.yaml", "`player` without an action"),
    ("scenario_two_actions.yaml", "a step holds one action"),
    ("scenario_rules_alias_bomb.yaml", "alias bomb"),
    ("scenario_many_docs_bomb.yaml", "aliases"),
    ("scenario_deep_setup.yaml", "nesting deeper than"),
]


@pytest.fixture(scope="module")
def checked() -> dict[str, str]:
    """One `rami check --json` over every hostile scenario (one process: the suite stays fast)."""
    files = [str(INPUTS / name) for name, _ in SCENARIO_CASES]
    result = run_rami("check", "--json", *files)
    assert_refused(result)
    assert f"0 passed, {len(files)} failed" in result.stderr
    return {Path(r["file"]).name: r["message"] for r in json.loads(result.stdout)}


@pytest.mark.parametrize("name, message", SCENARIO_CASES, ids=[c[0] for c in SCENARIO_CASES])
def test_a_scenario_that_checks_nothing_or_is_malformed_fails(
    checked: dict[str, str], name: str, message: str
) -> None:
    assert message in checked[name]


def test_one_bad_scenario_does_not_stop_the_run(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(
        "variant: rami51\nsetup:\n  hands: [[7H], [2C]]\nsteps:\n  - expect: {turn: 0}\n", encoding="utf-8"
    )
    bad = INPUTS / "scenario_binary.yaml"
    out = assert_refused(run_rami("check", str(bad), str(good)))
    assert "PASS" in out and "1 passed, 1 failed" in out


# --------------------------------------------------------------------------- exhaustion and crashes


PROFILE_CASES = [
    ("profile_huge_int.yaml", "an integer longer than 40 digits"),
    ("profile_nul_extends.yaml", "NUL byte"),
    ("profile_long_extends.yaml", "longer than"),
    ("profile_zero_hand.yaml", "deal.hand_size_by_players.2: input should be greater than or equal to 1"),
    ("profile_negative_hand.yaml", "deal.hand_size_by_players.2"),
    ("profile_one_player.yaml", "players.min: input should be greater than or equal to 2"),
    ("profile_empty_counts.yaml", "players.counts"),
    ("profile_unlayable_jokers.yaml", "could never be laid"),
    ("profile_python_tag.yaml", "unsupported YAML tag"),
    ("profile_nul_byte.yaml", "NUL"),
    ("profile_not_utf8.yaml", "not UTF-8"),
    ("profile_escape_key.yaml", "\\x1b[2Jbell\\x07: unknown key"),
]


@pytest.fixture(scope="module")
def validated() -> str:
    """One `rami validate` over every hostile profile: each problem is one line starting with its file."""
    result = run_rami("validate", *(str(INPUTS / name) for name, _ in PROFILE_CASES))
    out = assert_refused(result)
    assert "\x1b" not in out and "\x07" not in out, "control characters from a file reach the terminal raw"
    return out


@pytest.mark.parametrize("name, message", PROFILE_CASES, ids=[c[0] for c in PROFILE_CASES])
def test_hostile_profiles_are_refused_with_a_located_error(validated: str, name: str, message: str) -> None:
    lines = [line for line in validated.splitlines() if name in line]
    assert any(message in line for line in lines), lines


@pytest.mark.parametrize(
    "setting, message",
    [
        ("deal.hand_size_by_players.²=5", "deal.hand_size_by_players"),
        ("opening.points=" + "9" * 5000, "an integer longer than 40 digits"),
        ("name=!!python/name:os.system", "unsupported YAML tag"),
    ],
)
def test_hostile_set_values_are_refused(setting: str, message: str) -> None:
    out = assert_refused(run_rami("show", "rami51", "--set", setting))
    assert message in out


def test_a_five_thousand_character_path_is_refused() -> None:
    assert "longer than" in assert_refused(run_rami_here("validate", "./" + "a" * 5000 + ".yaml"))
    assert "longer than" in assert_refused(run_rami_here("replay", "a" * 5000))


@pytest.mark.parametrize("command", ["replay", "validate"])
def test_dev_zero_is_refused_not_read(command: str) -> None:
    out = assert_refused(run_rami(command, "/dev/zero"))
    assert "not a regular file" in out


@pytest.mark.parametrize("command", ["replay", "check"])
def test_a_fifo_is_refused_without_hanging(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    out = assert_refused(run_rami(command, str(fifo)))
    assert "not a regular file" in out


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert "folder" in assert_refused(run_rami_here("replay", str(tmp_path)), code=2)
    assert "folder" in assert_refused(run_rami_here("validate", str(tmp_path)))


# --------------------------------------------------------------------------- leaks


def test_a_scenario_naming_a_private_key_as_its_variant_does_not_print_it(tmp_path: Path) -> None:
    shutil.copy(INPUTS / "scenario_variant_secret.yaml", tmp_path / "s.yaml")
    shutil.copy(INPUTS / "secret.key", tmp_path / "secret.key")
    out = assert_refused(run_rami_here("check", str(tmp_path / "s.yaml")))
    assert "TOPSECRET" not in out and "PRIVATE KEY" not in out and "b3BlbnNzaC" not in out


def test_show_on_a_file_that_is_not_a_profile_does_not_print_it() -> None:
    out = assert_refused(run_rami_here("show", str(INPUTS / "secret.key")))
    assert "TOPSECRET" not in out and "PRIVATE KEY" not in out and "b3BlbnNzaC" not in out


# --------------------------------------------------------------------------- names shown through rich

# The name is shown in the report's title whatever the games: a few turns of one round each.
A_FEW_TURNS = ("--round-cap", "1", "--turn-cap", "20")


def test_a_profile_name_with_rich_markup_is_shown_as_written() -> None:
    result = run_rami_here(
        "simulate", "--rules", str(INPUTS / "profile_markup_name.yaml"), "--games", "2", *A_FEW_TURNS
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    assert "[/oops] :x: [bold]" in out and "❌" not in out


# --------------------------------------------------------------------------- exit codes


def test_exit_codes_are_documented_in_help() -> None:
    result = run_rami_here("--help")
    assert result.returncode == 0
    for line in ("0 success", "1 refused input or a failed check", "2 usage error", "3"):
        assert line in " ".join(result.stdout.split())


def test_a_usage_error_exits_2() -> None:
    assert_refused(run_rami_here("simulate", "--games", "zero"), code=2)


# --------------------------------------------------------------------------- numbers of seconds and workers (issue 23)


@pytest.mark.parametrize(
    "args",
    [
        ("serve", "--think-budget", "nan"),
        ("serve", "--think-budget", "-1"),
        ("serve", "--think-budget", "0"),
        ("serve", "--bot-delay", "inf"),
        ("serve", "--bot-delay", "-0.5"),
        ("serve", "--round-pause", "NaN"),
        ("serve", "--round-pause", "1e999"),
        ("play", "--bots", "greedy,greedy", "--delay", "nan"),
        ("play", "--bots", "greedy,greedy", "--delay", "-1"),
    ],
)
def test_numbers_of_seconds_are_finite_and_not_negative(tmp_path, args, monkeypatch):
    import uvicorn

    def started(*_: object, **__: object) -> None:
        raise AssertionError(f"the server started with {args[1:]}")

    monkeypatch.setattr(uvicorn, "run", started)  # in this process a running server would never return
    out = run_rami_here(
        *args,
        "--db" if args[0] == "serve" else "--seed",
        str(tmp_path / "x.sqlite") if args[0] == "serve" else "1",
    )
    assert out.returncode == 2, out.stderr
    assert "seconds" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_workers_are_capped_by_the_games_and_the_cores(monkeypatch):
    import os

    from click.testing import CliRunner

    from rami_core.cli import main
    from rami_core.cli import simulate as sim

    asked = []
    real = sim.run_simulation

    def spy(config, workers, backend, **kw):
        asked.append(workers)
        return real(config, 1, backend, **kw)

    monkeypatch.setattr(sim, "run_simulation", spy)
    short = ["--bots", "random", "--turn-cap", "20", "--round-cap", "1"]  # games of a few turns
    r = CliRunner().invoke(main, ["simulate", "--games", "1", "--workers", "100000", *short])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["simulate", "--games", "3", "--workers", "100000", *short])
    assert r.exit_code == 0, r.output
    assert asked == [1, min(3, os.cpu_count() or 1)]


ESCAPED_NAME = 'extends: rami51\nname: "house\\e[2J\\e]0;owned\\a"\n'


def test_simulate_shows_an_escaped_profile_name_escaped(tmp_path):
    (tmp_path / "house.yaml").write_text(ESCAPED_NAME)
    out = run_rami_here(
        "simulate", "--rules", str(tmp_path / "house.yaml"), "--games", "1", "--bots", "random", *A_FEW_TURNS
    )
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout + out.stderr and "\x07" not in out.stdout + out.stderr
    assert "house\\x1b[2J" in out.stdout


def test_replay_shows_an_escaped_profile_name_escaped(tmp_path):
    from rami_core.players.savegame import save
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    (tmp_path / "house.yaml").write_text(ESCAPED_NAME)
    game = Game.new(load_profile(tmp_path / "house.yaml"), 2, seed=3)
    save(game, tmp_path / "g.json")
    out = run_rami_here("replay", str(tmp_path / "g.json"))
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout + out.stderr and "\x07" not in out.stdout + out.stderr
    assert "house\\x1b[2J" in out.stdout


def test_rl_env_rules_refuses_a_path_clearly(tmp_path):
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
    import rami_core.rl as rl

    for bad in ("house.yaml", tmp_path / "house.yaml"):
        with pytest.raises(TypeError, match=r"rules= takes settings .* first argument"):
            rl.env("rami51", rules=bad)


def test_a_local_ray_gets_no_more_cpus_than_the_machine(monkeypatch):
    """`--workers 100000 --backend ray` started a local Ray of 100,000 CPUs
    (a worker process each, on demand): it is capped by the cores."""
    ray = pytest.importorskip("ray", reason="the [ray] extra is not installed (pip install -e '.[ray]')")

    from rami_core.players.bot_games import SimConfig, run_games
    from rami_core.profile.loader import load_profile

    asked = {}

    class Stop(Exception):
        pass

    def fake_init(**kwargs):
        asked.update(kwargs)
        raise Stop

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", fake_init)
    with pytest.raises(Stop):
        run_games(SimConfig(load_profile("rami51"), 2, ("random",), 1000), workers=100_000, backend="ray")
    assert 1 <= asked["num_cpus"] <= (os.cpu_count() or 1)
