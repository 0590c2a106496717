"""Every profile setting is strictly typed (issue 44): a boolean is not a
number, 51.0 and "51" are not the integer 51; each refusal is located and
said in English and French. The presets still load, and --set still parses."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.profile.loader import load_profile
from rami_core.words.errors import ProfileError

CASES = [
    ("opening:\n  points: true\n", "opening.points", "a boolean"),
    ("jokers:\n  penalty: on\n", "jokers.penalty", "a boolean"),
    ("deal:\n  hand_size: yes\n", "deal.hand_size", "a boolean"),
    ("game:\n  target: 51.0\n", "game.target", "decimal point"),
    ("opening:\n  points: '51'\n", "opening.points", "without quotes"),
    ("melds:\n  run_min: 3.5\n", "melds.run_min", "decimal point"),
    ("deck:\n  jokers: false\n", "deck.jokers", "a boolean"),
    ("players:\n  counts: [2, true]\n", "players.counts", "a boolean"),
    ("deal:\n  upcard: 1\n", "deal.upcard", "boolean"),
    ("opening:\n  required: 'true'\n", "opening.required", "without quotes"),
    ("turn:\n  time_limit: 30.0\n", "turn.time_limit", "decimal point"),
    ("plugins:\n  timeout_penalty: {cards: true}\n", "plugins.timeout_penalty.cards", "a boolean"),
    (
        "plugins:\n  no_early_discard_draw: {first_turn: 0}\n",
        "plugins.no_early_discard_draw.first_turn",
        "boolean",
    ),
]


@pytest.mark.parametrize(("body", "key", "words"), CASES)
def test_a_loose_type_is_refused_where_it_is(tmp_path, body, key, words):
    path = tmp_path / "house.yaml"
    path.write_text("extends: rami51\n" + body, encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(str(path))
    text = str(info.value)
    assert f"house.yaml:3: {key}" in text or f"house.yaml:2: {key}" in text or f":4: {key}" in text, text
    assert words in text
    fr = info.value.format("fr")
    assert key in fr and fr != text and ("entier" in fr or "booléen" in fr)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rami_validate_refuses_it(tmp_path, lang):
    path = tmp_path / "house.yaml"
    path.write_text("extends: rami51\nopening:\n  points: true\njokers:\n  penalty: on\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--lang", lang, str(path)])
    assert r.exit_code == 1, r.output
    assert "opening.points" in r.output and "jokers.penalty" in r.output


def test_set_still_parses_numbers_and_refuses_loose_ones():
    r = CliRunner().invoke(
        main, ["show", "rami51", "--set", "opening.points=71", "--set", "deal.upcard=true"]
    )
    assert r.exit_code == 0, r.output
    assert "points: 71" in r.output
    for bad in ("opening.points=true", "opening.points=51.0", "opening.points='51'"):
        r = CliRunner().invoke(main, ["show", "rami51", "--set", bad])
        assert r.exit_code != 0 and "opening.points" in r.output, (bad, r.output)


def test_every_preset_and_house_file_still_loads():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "variants"
    files = sorted(root.glob("*.yaml")) + sorted((root / "house").glob("*.yaml"))
    assert files
    for f in files:
        load_profile(str(f))
