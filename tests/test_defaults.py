"""One default variant everywhere (rami51), and `rami simulate` with one bot
type in every seat reports each seat."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rami_core.cli import main
from rami_core.files.resources import DEFAULT_VARIANT


def test_the_default_variant_is_rami51_for_play_solve_and_simulate():
    assert DEFAULT_VARIANT == "rami51"
    r = CliRunner().invoke(main, ["simulate", "--games", "2", "--bots", "greedy,random", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["variant"] == "rami51"
    # A fixed seed: with a random one the bot may go out on its first turn
    # (a rami sec), and the seat's screen, which names the variant, never shows.
    r = CliRunner().invoke(main, ["play", "--seed", "1"], input="")
    assert r.exit_code == 0, r.output
    assert "rami51 - round 1" in r.output
    for cmd in ("play", "solve", "simulate"):
        text = " ".join(CliRunner().invoke(main, [cmd, "--help"]).output.split()).lower()
        assert "default: rami51" in text, cmd


def test_one_bot_type_in_every_seat_gets_a_row_per_seat():
    r = CliRunner().invoke(
        main, ["simulate", "--games", "4", "--bots", "greedy", "--players", "3", "--seed", "1"]
    )
    assert r.exit_code == 0, r.output
    rows = [line for line in r.output.splitlines() if "greedy " in line and "│" in line]
    assert [row.split("│")[1].strip() for row in rows] == ["greedy 0", "greedy 1", "greedy 2"]
    assert "seat" in r.output
    wins = [int(row.split("│")[3]) for row in rows]
    assert sum(wins) <= 4
