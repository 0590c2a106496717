"""Save, resume, replay (issue 4, part 4).

A random game over several rounds is saved and loaded back to the identical
state and event list; `rami replay FILE` prints it and exits 0. A save that is
corrupt or tampered with is refused with a SaveError that says what is wrong,
and `rami replay` exits 1 with that message and no traceback.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.players.savegame import MAX_SAVE_BYTES, SaveError, _digest, from_save, load, save, to_save
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from tests.support.in_process import run_in_process
from tests.support.playout import RandomBot, Tally, play_round


def play_game(name: str, players: int, seed: int, rounds: int, *overrides: str) -> Game:
    """A bot game over several rounds, with a few timeouts mixed in."""
    g = Game.new(load_profile(name, list(overrides)), players, seed=seed)
    bot = RandomBot(random.Random(seed))
    for r in range(rounds):
        for _ in range(2):  # the first turns run out of time
            if g.state.phase != OVER:
                g.apply(A.Timeout(g.state.turn))
        play_round(g, bot, Tally(), turn_cap=60)
        if g.state.phase != OVER or g.state.game_over or r == rounds - 1:
            break
        g.next_round()
    return g


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    out = {
        "rami51": play_game("rami51", 3, 12, 3, "game.target=100000"),
        "voleur": play_game("voleur", 2, 12, 3, "game.target=100000"),
        "classic": play_game("classic", 4, 13, 1),
        "rami71_teams": play_game("rami71", 4, 14, 2),
    }
    # The saved games are worth testing: several rounds, timeouts, the deals in the events.
    assert out["rami51"].state.round_no >= 2 and out["voleur"].state.round_no >= 2
    for g in out.values():
        assert any(isinstance(a, A.Timeout) for a in g.log)
    return out


@pytest.fixture()
def saved(games, tmp_path) -> Path:
    path = tmp_path / "game.json"
    save(games["rami51"], path)
    return path


def resign(data: dict) -> dict:
    """The save with its checksum recomputed, as a careful tamperer would."""
    body = {k: v for k, v in data.items() if k != "sha256"}
    return {**body, "sha256": _digest(body)}


def write(tmp_path: Path, data, name: str = "bad.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", ["rami51", "voleur", "classic", "rami71_teams"])
def test_save_and_load_give_the_identical_game(games, tmp_path, name):
    g = games[name]
    path = tmp_path / f"{name}.json"
    save(g, path)
    h = load(path)
    assert h.state.to_json() == g.state.to_json()
    assert h.events == g.events
    assert [e.to_dict() for e in h.events] == [e.to_dict() for e in g.events]
    assert h.log == g.log
    assert h.profile == g.profile and h.rules.players == g.rules.players and h.rules.teams == g.rules.teams
    for seat in range(g.rules.players):
        assert h.view(seat).to_dict() == g.view(seat).to_dict()
    # Saved again, byte for byte the same file.
    path2 = tmp_path / f"{name}_again.json"
    save(h, path2)
    assert path2.read_bytes() == path.read_bytes()
    assert not list(tmp_path.glob("*.tmp"))


def test_round_dealt_events_of_every_round_survive_a_save(games, tmp_path):
    g = games["voleur"]
    dealt = [e.data["round"] for e in g.events if e.kind == "round_dealt"]
    assert dealt == list(range(1, g.state.round_no + 1))
    save(g, tmp_path / "v.json")
    assert [e.data["round"] for e in load(tmp_path / "v.json").events if e.kind == "round_dealt"] == dealt


def test_a_loaded_game_plays_on_like_the_original(games, tmp_path):
    g = games["rami51"]
    h = from_save(json.loads(json.dumps(to_save(g))))
    if h.state.phase == OVER:
        h.next_round()
        g2 = from_save(to_save(g))
        g2.next_round()
    else:
        g2 = from_save(to_save(g))
    for _ in range(6):
        seat = h.state.turn
        h.apply(A.Timeout(seat))
        g2.apply(A.Timeout(seat))
    assert h.state.to_json() == g2.state.to_json()
    assert h.events == g2.events


def test_a_game_in_the_middle_of_a_turn_and_a_fresh_game(tmp_path):
    p = load_profile("rami51", ["deal.dealer_extra_card=true"])
    g = Game.new(p, 2, seed=3)
    save(g, tmp_path / "fresh.json")
    assert load(tmp_path / "fresh.json").state.to_json() == g.state.to_json()
    seat = g.state.turn
    assert g.state.phase == "lay"
    g.apply(A.Discard(seat, g.state.hands[seat][0]._replace(copy=0)))
    g.apply(A.Draw(1 - seat, "stock"))  # now in the lay phase of the other seat
    save(g, tmp_path / "mid.json")
    h = load(tmp_path / "mid.json")
    assert h.state.to_json() == g.state.to_json() and h.state.phase == "lay"
    assert h.profile.deal.dealer_extra_card is True


def test_the_save_holds_the_seed_and_a_readable_log(games):
    data = to_save(games["rami51"])
    assert data["format"] == "rami-save" and data["version"] == 1
    assert data["seed"] == 12 and data["players"] == 3
    assert {"next_round": True} in data["log"]
    assert any("timeout" in entry for entry in data["log"])
    assert data["sha256"] == _digest({k: v for k, v in data.items() if k != "sha256"})


def test_loading_with_an_observer_plugin(games):
    from rami_core.profile.hookspecs import hookimpl

    class Spy:
        name = "spy"

        def __init__(self):
            self.seen = []

        @hookimpl
        def rami_event(self, rules, event):
            self.seen.append(event)

    spy = Spy()
    h = from_save(to_save(games["voleur"]), plugins=[spy])
    assert spy.seen == h.events == games["voleur"].events


# --------------------------------------------------------------------------- rami replay


def test_rami_replay_in_process(saved):
    """What `rami replay` prints and returns (the installed script's own process is the next test's)."""
    r = run_in_process("replay", str(saved))
    assert r.returncode == 0, r.stderr
    assert "rami51" in r.stdout and "replay matches the saved snapshot" in r.stdout
    assert "round 2 dealt" in r.stdout.lower()
    assert "Traceback" not in r.stderr


def test_rami_replay_console_script(saved):
    import shutil

    exe = shutil.which("rami")
    if exe is None:
        pytest.skip("the rami console script is not installed")
    r = subprocess.run([exe, "replay", str(saved)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "replay matches the saved snapshot" in r.stdout
    lines = r.stdout.splitlines()
    assert lines[0].startswith("rami51 - 3 players, seed 12")
    assert any("runs out of time" in line for line in lines)
    assert any(line.lower().startswith("round over") for line in lines)


def test_rami_replay_with_click(games, saved):
    r = CliRunner().invoke(main, ["replay", str(saved)])
    assert r.exit_code == 0, r.output
    assert "replay matches the saved snapshot" in r.output
    g = games["rami51"]
    # One line per event, plus the title and the verdict.
    assert len(r.output.strip().splitlines()) == len(g.events) + 2


def test_rami_replay_as_one_seat_hides_the_others_draws(games, saved):
    g = games["rami51"]
    full = CliRunner().invoke(main, ["replay", str(saved)]).output
    seat0 = CliRunner().invoke(main, ["replay", str(saved), "--seat", "0"]).output
    assert "seat 1 draws" in full and "from the stock" in full
    stock_draws_1 = [
        line for line in seat0.splitlines() if line.strip().startswith("seat 1 draws") and "stock" in line
    ]
    assert stock_draws_1 and all(line.strip() == "seat 1 draws from the stock" for line in stock_draws_1)
    own = [line for line in seat0.splitlines() if line.strip().startswith("seat 0 draws") and "stock" in line]
    assert own and all(line.strip() != "seat 0 draws from the stock" for line in own)
    assert (
        str(g.state.seed) in seat0.splitlines()[0]
    )  # the referee's file names its seed; only the draws are hidden


# --------------------------------------------------------------------------- refused saves


def _bad_cases(data: dict) -> dict[str, tuple[object, str]]:
    """name -> (file content, a phrase the error must contain)."""
    text = json.dumps(data)
    cases: dict[str, tuple[object, str]] = {}
    cases["bad JSON"] = ("{ this is not json", "bad JSON")
    cases["truncated"] = (text[: len(text) // 2], "bad JSON")
    cases["empty file"] = ("", "bad JSON")
    cases["not an object"] = ("[1, 2, 3]", "expected a JSON object")
    cases["wrong format"] = ({**data, "format": "chess-save"}, "format is 'chess-save'")
    cases["wrong version"] = (resign({**data, "version": 99}), "version 99 is not supported")
    missing = {k: v for k, v in data.items() if k != "log"}
    cases["missing log"] = (missing, "missing log")
    # Edited without the checksum recomputed.
    edited = copy.deepcopy(data)
    edited["seed"] = data["seed"] + 1
    cases["checksum mismatch"] = (edited, "checksum does not match")
    cases["no checksum"] = ({k: v for k, v in data.items() if k != "sha256"}, "checksum does not match")
    # Edited with the checksum recomputed: the replay finds it out.
    log = copy.deepcopy(data)
    i = next(i for i, e in enumerate(log["log"]) if "discard" in e)
    hand_cards = {c.split("/")[0] for h in data["snapshot"]["hands"] for c in h}
    log["log"][i]["discard"] = "JK" if "JK" not in hand_cards else "7X"
    cases["edited log, checksum recomputed"] = (resign(log), f"action {i + 1}")
    shorter = copy.deepcopy(data)
    shorter["log"] = shorter["log"][:-3]
    cases["log cut short, checksum recomputed"] = (resign(shorter), "does not replay to its snapshot")
    snap = copy.deepcopy(data)
    snap["snapshot"]["scores"] = [s + 1 for s in snap["snapshot"]["scores"]]
    cases["snapshot edited, checksum recomputed"] = (resign(snap), "does not replay to its snapshot")
    reseeded = copy.deepcopy(data)
    reseeded["seed"] = data["seed"] + 1
    cases["seed edited, checksum recomputed"] = (resign(reseeded), "")
    junk = copy.deepcopy(data)
    junk["log"].insert(1, {"player": 0, "fly": "away"})
    cases["unknown action, checksum recomputed"] = (resign(junk), "action 2 is unreadable")
    bad_snapshot = copy.deepcopy(data)
    bad_snapshot["snapshot"] = {"hands": 5}
    cases["unreadable snapshot"] = (resign(bad_snapshot), "snapshot is unreadable")
    players = copy.deepcopy(data)
    players["players"] = 9
    cases["bad player count"] = (resign(players), "bad player count")
    seed = copy.deepcopy(data)
    seed["seed"] = "eleven"
    cases["bad seed"] = (resign(seed), "bad seed")
    # The profile: an unknown key, an unknown plugin.
    prof = copy.deepcopy(data)
    prof["profile"]["opening"]["pointz"] = 51
    cases["profile with an unknown key"] = (resign(prof), "opening.pointz")
    plug = copy.deepcopy(data)
    plug["profile"]["plugins"] = {"no_such_plugin": {}}
    cases["profile with an unknown plugin"] = (resign(plug), "no_such_plugin")
    cases["deeply nested JSON"] = ("[" * 50_000 + "]" * 50_000, "nested too deeply")
    return cases


@pytest.fixture(scope="module")
def save_data(games) -> dict:
    return to_save(games["rami51"])


CASE_NAMES = [
    "bad JSON",
    "truncated",
    "empty file",
    "not an object",
    "wrong format",
    "wrong version",
    "missing log",
    "checksum mismatch",
    "no checksum",
    "edited log, checksum recomputed",
    "log cut short, checksum recomputed",
    "snapshot edited, checksum recomputed",
    "seed edited, checksum recomputed",
    "unknown action, checksum recomputed",
    "unreadable snapshot",
    "bad player count",
    "bad seed",
    "profile with an unknown key",
    "profile with an unknown plugin",
    "deeply nested JSON",
]


def test_case_list_is_complete(save_data):
    assert sorted(_bad_cases(save_data)) == sorted(CASE_NAMES)


@pytest.mark.parametrize("case", CASE_NAMES)
def test_refused_saves(save_data, tmp_path, case):
    content, phrase = _bad_cases(save_data)[case]
    path = write(tmp_path, content)
    with pytest.raises(SaveError) as e:
        load(path)
    msg = str(e.value)
    assert msg.startswith(str(path)), msg
    assert phrase in msg, msg
    assert "Traceback" not in msg and len(msg) < 600
    # The command line says the same, on stderr, and exits 1 without a traceback.
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 1, (r.output, r.exception)
    assert r.output.startswith("cannot replay: ") and r.output.count("\n") == 1  # one line, not wrapped
    assert phrase in r.output and str(path) in r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_every_refused_case_is_distinct_from_a_good_save(save_data, tmp_path):
    """The good save itself loads: the cases fail for their own reason."""
    assert from_save(copy.deepcopy(save_data)).state.to_json() == json.dumps(
        save_data["snapshot"], sort_keys=True, separators=(",", ":")
    )


def test_huge_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(MAX_SAVE_BYTES + 1)  # sparse: fast to make
    with pytest.raises(SaveError) as e:
        load(path)
    assert "too large" in str(e.value)
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 1 and "too large" in r.output and "Traceback" not in r.output


def test_not_utf8_missing_file_and_folder(tmp_path):
    bin_path = tmp_path / "bin.json"
    bin_path.write_bytes(b"\xff\xfe\x00\x81garbage")
    for path, phrase in (
        (bin_path, "not UTF-8"),
        (tmp_path / "nope.json", "cannot read"),
        (tmp_path, "cannot read"),
    ):
        with pytest.raises(SaveError) as e:
            load(path)
        assert phrase in str(e.value)


def test_refused_save_exits_1_without_traceback(tmp_path, save_data):
    edited = copy.deepcopy(save_data)
    edited["log"] = edited["log"][:-2]
    path = write(tmp_path, resign(edited))
    r = run_in_process("replay", str(path))
    assert r.returncode == 1
    assert "cannot replay" in r.stderr and "does not replay to its snapshot" in r.stderr.replace("\n", " ")
    assert "Traceback" not in r.stderr + r.stdout
    assert r.stdout == ""


def test_from_save_refuses_what_is_not_a_dict():
    for bad in (None, [], "rami", 3):
        with pytest.raises(SaveError):
            from_save(bad)
