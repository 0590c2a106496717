"""Profiles that describe a game nobody can finish (issue 23, item 6).

Where no hand could ever go out (a hand below the smallest meld, an opening
no lay can reach, a set the opening needs that no set can be) the profile is
refused, at the line of the setting, by every reader of profiles: `rami
validate`, `play`, `simulate`, `serve --public-house` and the lobby. Where
hands can go out but hardly ever do, it is a warning: `rami validate` says
it and exits 0 (`--strict`: 1), the lobby's creation answer carries it. The
bundled presets and house files have neither."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.files.resources import house_dir, preset_names
from rami_core.profile.going_out import impossible, reaches, unlikely
from rami_core.profile.loader import check_profile, load_profile
from rami_core.words.errors import ProfileError

# (the house file's body after `extends: BASE`, the code, the line of the setting)
IMPOSSIBLE = [
    ("rami51", "opening:\n  points: 500\n", "opening_out_of_reach", 3),
    ("rami51", "opening:\n  points: 144\n", "opening_out_of_reach", 3),  # 13 cards at 11 points: 143
    ("rami51", "deal:\n  hand_size: 3\n", "opening_out_of_reach", 3),  # 3 cards never make 51
    # kaluki lays its last card (no keep_last): 5 cards, 10-J-Q-K-A makes 51, nothing makes 56
    ("kaluki", "deal:\n  hand_size: 4\nopening:\n  points: 56\n", "opening_out_of_reach", 5),
    ("rami51", "deal:\n  hand_size: 1\n", "hand_never_out", 3),
    ("rami51", "deal:\n  hand_size: 2\n", "hand_never_out", 3),
    ("rami51", "deal:\n  hand_size_by_players:\n    5: 2\n", "hand_never_out", 3),  # at 5 players only
    (
        "classic",
        "melds:\n  run_min: 8\n  set_min: 8\n  set_max: 8\n  set_distinct_suits: false\n",
        "hand_never_out",
        3,
    ),
    ("rami51", "deal:\n  hand_size: 5\njokers:\n  min_naturals: 8\n", "min_naturals_beyond_hand", 5),
    ("rami71", "jokers:\n  min_naturals: 5\n", "opening_set_impossible", 3),
    ("rami71", "deal:\n  hand_size: 5\n", "opening_run_and_set_beyond_lay", 3),
]

UNLIKELY = [
    ("rami51", "jokers:\n  min_naturals: 8\n", "sets_never_laid", 3),
    ("rami51", "jokers:\n  min_naturals: 5\n", "sets_never_laid", 3),
    ("rami51", "opening:\n  points: 143\n", "opening_rarely_reached", 3),
    ("rami51", "opening:\n  points: 120\n", "opening_rarely_reached", 3),
]


def _file(tmp_path: Path, base: str, body: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {base}\n{body}", encoding="utf-8")
    return path


@pytest.mark.parametrize(("base", "body", "code", "line"), IMPOSSIBLE)
def test_a_profile_where_no_hand_goes_out_is_refused_at_its_line(tmp_path, base, body, code, line):
    path = _file(tmp_path, base, body)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    [problem] = info.value.problems
    assert problem.code == code
    assert (Path(problem.file).name, problem.line) == ("house.yaml", line)
    r = CliRunner().invoke(main, ["validate", str(path), "--lang", "fr"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"house.yaml:{line}:" in r.output and problem.words("fr") in r.output


@pytest.mark.parametrize(("base", "body", "code", "line"), UNLIKELY)
def test_a_profile_where_hands_hardly_go_out_is_warned_about(tmp_path, base, body, code, line):
    path = _file(tmp_path, base, body)
    _, warnings = check_profile(path)
    assert [w.code for w in warnings] == [code]
    assert (Path(warnings[0].file).name, warnings[0].line) == ("house.yaml", line)
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0, r.output
    assert f"warning: {path}:{line}: " in r.output and "ok " in r.output
    r = CliRunner().invoke(main, ["validate", "--strict", "--lang", "fr", str(path)])
    assert r.exit_code == 1 and f"avertissement : {path}:{line}: " in r.output and "ok " not in r.output


def test_going_out_below_the_points_makes_any_opening_reachable(tmp_path):
    path = _file(tmp_path, "rami71", "opening:\n  points: 500\n")  # rami71 goes out below its points
    assert load_profile(path).opening.points == 500


def test_a_growing_hand_reaches_a_meld():
    """Without a discard pile (voleur) a hand grows a card a turn: one card dealt is not nonsense."""
    p = load_profile("voleur", ["deal.hand_size=1"])
    assert impossible(p) == [] and min(r.lay for r in reaches(p)) >= 3


@pytest.mark.parametrize("name", preset_names())
def test_the_presets_are_neither_refused_nor_warned_about(name):
    assert check_profile(name)[1] == []


@pytest.mark.parametrize("path", sorted(house_dir().glob("*.yaml")), ids=lambda p: p.stem)
def test_the_house_files_are_neither_refused_nor_warned_about(path):
    profile, warnings = check_profile(path)
    assert warnings == [] and unlikely(profile) == []
    r = CliRunner().invoke(main, ["validate", "--strict", str(path)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command", [["play", "--bots", "greedy"], ["simulate", "--games", "1"]])
def test_play_and_simulate_refuse_it_cleanly(tmp_path, command):
    path = _file(tmp_path, "rami51", "opening:\n  points: 500\n")
    r = CliRunner().invoke(main, [*command, "--variant", str(path)], input="")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "house.yaml:3: an opening of 500 points is out of reach" in r.output


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["play", "--clock=99999"], "--clock"),
        (["play", "--delay", "nan"], "--delay"),
        (["play", "--delay", "-1"], "--delay"),
        (["replay", "--seat", "-1", "x.json"], "--seat"),
        (["simulate", "--workers", "0"], "--workers"),
        (["simulate", "--games", "-3"], "--games"),
        (["serve", "--think-budget", "nan"], "--think-budget"),
        (["serve", "--bot-delay", "inf"], "--bot-delay"),
        (["serve", "--round-pause", "-1"], "--round-pause"),
        (["serve", "--public-wait", "-inf"], "--public-wait"),
    ],
)
def test_numeric_options_refuse_nan_infinities_and_negatives(args, option):
    r = CliRunner().invoke(main, args, input="")
    assert r.exit_code == 2 and option in r.output and "Traceback" not in r.output


pytest.importorskip("starlette", reason="the [server] extra is not installed")


@pytest.fixture
def client(tmp_path: Path):
    from starlette.testclient import TestClient

    from rami_core.server.app import create_app

    with TestClient(create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000)) as c:
        yield c


@pytest.mark.parametrize(("base", "body", "code", "line"), IMPOSSIBLE)
def test_the_lobby_refuses_it_at_its_line(client, base, body, code, line):
    rules = f"extends: {base}\n{body}"
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules, "lang": "fr"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "profile_invalid" and error["problems"][0]["code"] == code
    assert error["message"].startswith(f"rules:{line}:")
    assert error["messages"]["fr"].startswith(f"rules:{line}:") and "rami-rules-" not in r.text


@pytest.mark.parametrize(("base", "body", "code", "line"), UNLIKELY)
def test_the_lobby_creates_it_and_says_the_warning(client, base, body, code, line):
    rules = f"extends: {base}\n{body}"
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules})
    assert r.status_code == 201, r.text
    [warning] = r.json()["warnings"]
    assert warning["code"] == code and warning["file"] == "rules" and warning["line"] == line
    assert warning["messages"]["fr"].startswith(f"rules:{line}: ") and "rami-rules-" not in r.text


def test_a_bundled_variant_comes_with_no_warning(client):
    r = client.post("/api/tables", json={"seats": ["human", "human"], "variant": "rami51"})
    assert r.status_code == 201 and r.json()["warnings"] == []
