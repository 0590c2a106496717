"""Hostile inputs through the Python API, saves, plugins and ``rami play``'s prompt.

One test per reproduction of the hardening issue; each ends in the documented
refusal (a SaveError, a PluginError, a TypeError with a clear message, a
"not understood"), never another exception, and leaves no state changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rami_core.cards import parse_card
from rami_core.conformance.scenario import run_scenario
from rami_core.game import actions as A
from rami_core.players.savegame import SaveError, from_save, save, to_save
from rami_core.profile.hooks import PluginError
from rami_core.profile.hookspecs import hookimpl
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from tests.hostile.support import assert_refused, run_rami, run_rami_here

# --------------------------------------------------------------------------- saves


def _digest(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def resigned(data: dict[str, Any]) -> dict[str, Any]:
    """The save with its checksum recomputed: the checksum is no signature."""
    body = {k: v for k, v in data.items() if k != "sha256"}
    return {**body, "sha256": _digest(body)}


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    game = Game.new(load_profile("rami51"), 2, seed=5)
    game.apply(A.Draw(0, "stock"))
    return to_save(game)


def _edit(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return resigned(out)


@pytest.mark.parametrize(
    "path, value",
    [
        (("snapshot", "hands"), [[5]]),
        (("seed",), int("9" * 40)),
        (("seed",), "abc"),
        (("seed",), None),
        (("version",), True),
        (("version",), 1.0),
        (("version",), "1"),
        (("players",), True),
        (("log",), [{"player": True, "draw": "stock"}]),
        (("log",), [5]),
        (("log",), [{"player": 0, "meld": "7H"}]),
        (("profile",), []),
        (("profile", "players"), {"min": 1, "max": 1}),
        (("snapshot",), None),
        (("snapshot", "stock"), {"a": 1}),
        (("snapshot", "scores"), "x"),
        (("play",), {"seats": ["x"]}),  # an app's key: the game itself still loads
    ],
)
def test_a_hostile_save_with_a_recomputed_checksum_is_loaded_or_refused(
    saved: dict[str, Any], path: tuple[Any, ...], value: Any
) -> None:
    with contextlib.suppress(SaveError):  # refused, cleanly; or loaded
        from_save(_edit(saved, path, value))


def test_version_must_be_the_integer_one(saved: dict[str, Any]) -> None:
    for version in (True, 1.0, "1"):
        with pytest.raises(SaveError, match="version"):
            from_save(_edit(saved, ("version",), version))


def test_a_five_thousand_digit_seed_in_a_save_file_is_refused(tmp_path: Path, saved: dict[str, Any]) -> None:
    text = json.dumps(resigned(saved)).replace(f'"seed": {saved["seed"]}', '"seed": ' + "7" * 5000)
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    out = assert_refused(run_rami_here("replay", str(path)))
    assert "digits" in out


def test_saved_seating_that_is_not_a_mapping_is_refused(tmp_path: Path, saved: dict[str, Any]) -> None:
    path = tmp_path / "seats.json"
    path.write_text(json.dumps(_edit(saved, ("play",), {"seats": ["x", "y"]})), encoding="utf-8")
    out = assert_refused(run_rami_here("play", "--resume", str(path)))
    assert "seating" in out


@pytest.mark.parametrize("name", ["", ".", "/", "a\0b"])
def test_a_failed_save_names_the_reason_and_leaves_no_file(tmp_path: Path, name: str) -> None:
    game = Game.new(load_profile("rami51"), 2, seed=1)
    before = set(tmp_path.iterdir())
    target = tmp_path / name if name not in ("/", "a\0b") else name
    with pytest.raises(SaveError) as e:
        save(game, target)
    assert e.value.reason
    assert set(tmp_path.iterdir()) == before


def test_saving_onto_a_folder_leaves_no_stray_tmp_file(tmp_path: Path) -> None:
    game = Game.new(load_profile("rami51"), 2, seed=1)
    with pytest.raises(SaveError, match="folder"):
        save(game, tmp_path)
    assert not Path(str(tmp_path) + ".tmp").exists()


# --------------------------------------------------------------------------- the Python API


@pytest.mark.parametrize(
    "build",
    [
        lambda: A.Draw(False, "stock"),  # type: ignore[arg-type]
        lambda: A.Discard(0, (7, 1)),  # type: ignore[arg-type]
        lambda: A.Meld(0, [["7H"]]),  # type: ignore[list-item]
        lambda: A.Swap(0, (parse_card("7H"),), True),
        lambda: A.EndTurn("0"),  # type: ignore[arg-type]
        lambda: Game.new(load_profile("rami51"), 2, seed="abc"),  # type: ignore[arg-type]
        lambda: Game.new(load_profile("rami51"), True),
        lambda: Game.new({"name": "x"}, 2),  # type: ignore[arg-type]
    ],
)
def test_the_api_refuses_wrong_argument_types(build: Any) -> None:
    with pytest.raises(TypeError, match="must be"):
        build()


# --------------------------------------------------------------------------- plugins

SETUP = {
    "hands": [["9H", "10H", "JH", "KS", "KH", "KC", "2C", "5D"], ["3S", "4S", "8D", "8C", "QD"]],
    "stock": ["QC", "4C", "7S"],
    "discard": ["6C"],
}


def game_with(*plugins: Any, variant: str = "rami51", setup: dict[str, Any] = SETUP) -> Game:
    profile = load_profile(variant)
    base = build_setup(profile, setup)
    return Game(profile, base.state.players, base.state, plugins=plugins)


class Answer:
    """A plugin answering one hook with a fixed value (or a function of the call)."""

    name = "answer"

    def __init__(self, hook: str, value: Any):
        self.hook, self.value = hook, value

    def _answer(self, hook: str, **kw: Any) -> Any:
        if hook != self.hook:
            return None
        return self.value(**kw) if callable(self.value) else self.value

    @hookimpl
    def rami_hand_cost(self, rules, cards):
        return self._answer("rami_hand_cost", cards=cards)

    @hookimpl
    def rami_round_scores(self, rules, state, penalties):
        return self._answer("rami_round_scores", state=state, penalties=penalties)

    @hookimpl
    def rami_game_over(self, rules, state):
        return self._answer("rami_game_over", state=state)

    @hookimpl
    def rami_draw_allowed(self, rules, state, seat, source):
        return self._answer("rami_draw_allowed", state=state)


def _add_a_card(state: Any) -> None:
    state.hands[0].append(state.stock[0])


OUT_SETUP = {"hands": [["3S", "4S"], ["JK", "AH", "2C"]], "stock": ["5S"], "opened": [True, True]}


def _going_out(game: Game) -> None:
    """Seat 0 draws and lays its whole hand (voleur): the round ends and is scored."""
    game.apply(A.Draw(0, "stock"))
    game.apply(A.Meld(0, ((parse_card("3S"), parse_card("4S"), parse_card("5S")),)))


@pytest.mark.parametrize(
    "hook, value, message",
    [
        ("rami_draw_allowed", _add_a_card, "changed the game state"),
        ("rami_draw_allowed", 42, "expected None, a Refusal or a reason string"),
        ("rami_draw_allowed", lambda **kw: 1 / 0, "ZeroDivisionError"),
    ],
)
def test_a_judging_hook_that_misbehaves_is_a_plugin_error_and_changes_nothing(
    hook: str, value: Any, message: str
) -> None:
    game = game_with(Answer(hook, value))
    before, log = game.state.to_json(), list(game.log)
    with pytest.raises(PluginError) as e:
        game.apply(A.Draw(0, "stock"))
    assert (e.value.plugin, e.value.hook) == ("answer", hook)
    assert message in str(e.value)
    assert game.state.to_json() == before and game.log == log


@pytest.mark.parametrize(
    "hook, value, message",
    [
        ("rami_hand_cost", "abc", "non-negative whole number"),
        ("rami_hand_cost", -3, "non-negative whole number"),
        ("rami_hand_cost", True, "non-negative whole number"),
        ("rami_round_scores", [1], "a list of 2 whole numbers"),
        ("rami_round_scores", ["a", "b"], "whole number"),
        ("rami_game_over", "no", "expected None, True or False"),
        ("rami_game_over", 1, "expected None, True or False"),
    ],
)
def test_a_scoring_hook_returning_nonsense_is_a_plugin_error(hook: str, value: Any, message: str) -> None:
    game = game_with(Answer(hook, value), variant="voleur", setup=OUT_SETUP)
    with pytest.raises(PluginError) as e:
        _going_out(game)
    assert e.value.hook == hook and message in str(e.value)
    assert game.state.phase != "over"  # the round-ending move was not committed


def test_a_deal_hook_that_creates_a_card_is_refused() -> None:
    class Forger:
        name = "forger"

        @hookimpl
        def rami_deal(self, rules, state):
            state.hands[0].append(state.hands[1][0])

    with pytest.raises(PluginError, match="created or lost cards"):
        Game.new(load_profile("rami51"), 2, seed=1, plugins=[Forger()])


def test_a_failing_listener_does_not_undo_or_hide_the_move() -> None:
    game = game_with()
    told: list[str] = []

    def broken(event: Any) -> None:
        raise RuntimeError("listener bug")

    game.subscribe(broken)
    game.subscribe(lambda e: told.append(e.kind))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        game.apply(A.Draw(0, "stock"))
    assert len(game.log) == 1 and game.state.phase == "lay"
    assert told == ["drawn"]
    assert game.listener_errors and isinstance(game.listener_errors[0][2], RuntimeError)
    assert any("the move stands" in str(w.message) for w in caught)


def test_a_plugin_error_fails_its_scenario_and_the_next_one_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import rami_core.profile.hooks as hooks

    class Raiser:
        name = "raiser"

        def __init__(self, settings: Any = None):
            pass

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            raise RuntimeError("plugin bug")

    bundled = {**hooks.bundled_plugins(), "raiser": Raiser}
    monkeypatch.setattr(hooks, "bundled_plugins", lambda: bundled)
    doc = {
        "variant": "rami51",
        "rules": {"plugins": {"raiser": {}}},
        "setup": SETUP,
        "steps": [{"player": 0, "draw": "stock"}, {"expect": {"turn": 0}}],
    }
    result = run_scenario(doc, Path("."), "<inline>")
    assert not result.passed and "plugin 'raiser' failed in hook rami_draw_allowed" in result.message

    from rami_core.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["simulate", "--set", "plugins.raiser={}", "--games", "3", "--json"])
    # No game finished: no statistics, a failed run naming the first error, no traceback.
    assert out.exit_code == 1, out.output
    assert json.loads(out.stdout)["failed_games"] == 3
    assert json.loads(out.stdout)["first_plugin_error"]["game"] == 0
    assert (
        "3 of 3 games stopped by a plugin error; the first, game 0 (seed 0): plugin 'raiser' failed in hook rami_draw_allowed: RuntimeError: plugin bug"
        in out.stderr
    )
    assert "Traceback" not in out.output
    out = runner.invoke(main, ["simulate", "--set", "plugins.raiser={}", "--games", "2"])
    assert out.exit_code == 1 and "games stopped by a plugin error" in out.stdout
    assert "the first, game 0" in out.stderr


def test_simulate_names_the_first_plugin_error_and_goes_on_when_some_games_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rami_core.profile.hooks as hooks
    from rami_core.cli import main

    calls = []

    class FirstGameRaiser:
        """Fails on the first deal only: game 0 stops, games 1 and 2 are played."""

        name = "raiser"

        def __init__(self, settings: Any = None):
            pass

        @hookimpl
        def rami_deal(self, rules, state):
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("first call")

    bundled = {**hooks.bundled_plugins(), "raiser": FirstGameRaiser}
    monkeypatch.setattr(hooks, "bundled_plugins", lambda: bundled)
    out = CliRunner().invoke(main, ["simulate", "--set", "plugins.raiser={}", "--games", "3", "--json"])
    assert out.exit_code == 0, out.output
    res = json.loads(out.stdout)
    assert res["failed_games"] == 1 and res["first_plugin_error"]["game"] == 0
    assert "1 of 3 games stopped by a plugin error; the first, game 0 (seed 0)" in out.stderr
    assert "RuntimeError: first call" in out.stderr


# --------------------------------------------------------------------------- exit code 3


def test_an_internal_error_is_one_line_with_exit_3_and_a_traceback_on_demand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rami_core.cli.profiles as profiles
    from rami_core.cli import main

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(profiles, "yaml", type("Y", (), {"safe_dump": staticmethod(broken)}))
    monkeypatch.delenv("RAMI_DEBUG", raising=False)
    result = CliRunner().invoke(main, ["show", "rami51"])
    assert result.exit_code == 3
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and "please report" in lines[0] and "RuntimeError: a bug over two lines" in lines[0]
    )

    result = CliRunner().invoke(main, ["--debug", "show", "rami51"])
    assert isinstance(result.exception, RuntimeError)
    monkeypatch.setenv("RAMI_DEBUG", "1")
    result = CliRunner().invoke(main, ["show", "rami51"])
    assert isinstance(result.exception, RuntimeError)


# --------------------------------------------------------------------------- rami play's prompt


def test_every_typed_line_runs_or_is_not_understood(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        "l 7H ²",
        "l 7H ١",  # an Arabic-Indic digit: str.isdigit, not an int() for us
        "save /",
        "save .",
        f"save {tmp_path}",
        "save a\0b",
        "x \x1b[31mred\x07",
        "\x00\x01\x02",
        "r split ² 7H",
        "q",
    ]
    monkeypatch.chdir(tmp_path)  # where a relative save would land
    result = run_rami_here(
        "play", "--variant", "voleur", "--bots", "random", "--seed", "1", stdin="\n".join(lines) + "\n"
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "Traceback" not in out, out[-3000:]
    assert out.count("Could not save") == 4
    assert "\x1b[31m" not in result.stdout and "\x07" not in result.stdout and "\x00" not in result.stdout
    assert not Path(str(tmp_path) + ".tmp").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_rami_play_saves_the_game_before_stopping_on_a_plugin_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import rami_core.profile.hooks as hooks
    from rami_core.cli import main

    class Raiser:
        name = "raiser"

        def __init__(self, settings: Any = None):
            pass

        @hookimpl
        def rami_draw_allowed(self, rules, state, seat, source):
            raise RuntimeError("plugin bug")

    bundled = {**hooks.bundled_plugins(), "raiser": Raiser}
    monkeypatch.setattr(hooks, "bundled_plugins", lambda: bundled)
    monkeypatch.chdir(tmp_path)
    args = ["play", "--variant", "voleur", "--set", "plugins.raiser={}", "--bots", "random", "--seed", "2"]
    result = CliRunner().invoke(main, args, input="d\nd\n")
    assert result.exit_code == 1, result.output
    line = [x for x in result.stderr.splitlines() if "raiser" in x]
    assert len(line) == 1 and "rami_draw_allowed" in line[0] and "the game was saved to" in line[0]
    saved = list(tmp_path.glob("rami-rescued-*.json"))
    assert len(saved) == 1
    game, _ = __import__("rami_core.players.savegame", fromlist=["load_with_data"]).load_with_data(saved[0])
    assert game.log == []  # saved as it stood: the failed draw was not committed


def test_an_error_inside_one_scenario_fails_it_and_the_next_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import rami_core.conformance.scenario as scenario

    real = scenario.start

    def sometimes_broken(profile: Any, setup: Any, **kw: Any) -> scenario.Table:
        if setup.get("turn") == 1:
            raise RuntimeError("a bug in the runner")
        return real(profile, setup, **kw)

    monkeypatch.setattr(scenario, "start", sometimes_broken)
    path = tmp_path / "two.yaml"
    doc = "variant: rami51\nsetup: {hands: [[7H], [8H]], turn: %d}\nsteps: [{expect: {turn: %d}}]\n"
    path.write_text(doc % (1, 1) + "---\n" + doc % (0, 0), encoding="utf-8")
    first, second = scenario.run_file(path)
    assert not first.passed and "internal error: RuntimeError: a bug in the runner" in first.message
    assert second.passed


# --------------------------------------------------------------------------- saves written safely (issue 23)


def test_a_planted_tmp_symlink_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "game.json.tmp").symlink_to(victim)
    other = tmp_path / "notes.tmp"
    other.write_text("mine")
    game = Game.new(load_profile("rami51"), 2, seed=1)
    save(game, tmp_path / "game.json")
    assert victim.read_text() == "precious"
    assert (tmp_path / "game.json.tmp").is_symlink() and other.read_text() == "mine"
    assert json.loads((tmp_path / "game.json").read_text())["seed"] == game.state.seed
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game.json",
        "game.json.tmp",
        "notes.tmp",
        "victim.txt",
    ]


def test_two_saves_to_one_target_use_two_temporary_files(tmp_path: Path, monkeypatch) -> None:
    """The temporary name is unique: a second writer cannot clobber the first's."""
    import tempfile

    names = []
    real = tempfile.mkstemp

    def spy(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        names.append(name)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    game = Game.new(load_profile("rami51"), 2, seed=1)
    save(game, tmp_path / "g.json")
    save(game, tmp_path / "g.json")
    assert len(set(names)) == 2 and all(Path(n).parent == tmp_path for n in names)


@pytest.mark.parametrize("kind", ["fifo", "symlink", "dangling"])
def test_a_target_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    import os

    target = tmp_path / "game.json"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to(victim)
    else:
        target.symlink_to(tmp_path / "nowhere")
    game = Game.new(load_profile("rami51"), 2, seed=1)
    with pytest.raises(SaveError, match="refused"):
        save(game, target)
    assert victim.read_text() == "precious"
    assert not (tmp_path / "nowhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "victim.txt"]
    assert (kind == "fifo") == target.is_fifo()


def test_rami_play_save_refuses_a_fifo(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "game.json")
    one_round = ("--set", "game.end=rounds", "--set", "game.rounds=1")  # the first save is refused already
    out = run_rami(
        "play",
        "--bots",
        "greedy,greedy",
        "--seed",
        "3",
        *one_round,
        "--save",
        str(tmp_path / "game.json"),
        cwd=tmp_path,
    )
    assert "Traceback" not in out.stderr + out.stdout
    assert "not a regular file (a pipe, a device or a socket): refused" in out.stderr + out.stdout
    assert (tmp_path / "game.json").is_fifo()
