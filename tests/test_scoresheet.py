"""Names and the score sheet of `rami play`."""

from __future__ import annotations

import re
import subprocess

from rami_core.cards.text import CardStyle
from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.terminal.screen import Screen
from rami_core.words.messages import Messages
from tests.support.in_process import run_in_process


def rami_play(*args: str, input: str = "") -> subprocess.CompletedProcess:
    """`rami play --ascii ARGS` with a script typed ahead, in this process: the screen is the point."""
    return run_in_process("play", "--ascii", *args, input=input, env={"COLUMNS": "200"})


def two_rounds(variant: str = "rami51") -> Game:
    game = Game.new(load_profile(variant, ["game.target=5000"]), 2, seed=7)
    bots = [make_bot("greedy", s) for s in range(2)]
    rounds = 0
    for _ in range(5000):
        s = game.state
        if s.phase == OVER:
            rounds += 1
            if rounds == 2 or s.game_over:
                break
            game.next_round()
            continue
        try:
            game.apply(bots[s.turn].choose(game.view(s.turn), game.rules))
        except Exception:
            game.apply(A.Timeout(s.turn))
    return game


def test_the_score_sheet_has_a_row_per_round_the_totals_and_the_target():
    game = two_rounds()
    for lang, words in (
        ("en", ("Score sheet", "Round", "Total", "game to 5000")),
        ("fr", ("Feuille de marque", "Manche", "Total", "partie en 5000")),
    ):
        lines = [
            t.plain
            for t in Screen(game.rules, ["Anne", "Luc"], CardStyle(lang), Messages(lang)).score_sheet(game)
        ]
        text = "\n".join(lines)
        for w in words:
            assert w in text, text
        assert lines[1].split()[1:] == ["Anne", "Luc"]
        rows = lines[2:-1]
        assert [r.split()[0] for r in rows] == ["1", "2"]
        per_round = [[int(x) for x in r.split()[1:]] for r in rows]
        totals = [int(x) for x in lines[-1].split()[1:]]
        assert totals == list(game.state.scores)
        assert [sum(col) for col in zip(*per_round, strict=True)] == totals


def test_names_given_on_the_command_line_and_the_sheet_on_demand():
    r = rami_play("--variant", "rami51", "--hotseat", "--names", "Anne,Luc", "--seed", "4", input="\nsc\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Pass the screen to Anne" in r.stdout or "Pass the screen to Luc" in r.stdout
    assert "Player 1" not in r.stdout
    assert "Score sheet (game to 500)" in r.stdout
    assert "Anne" in r.stdout.split("Score sheet")[1]


def test_one_bot_has_no_number_and_a_person_is_you():
    r = rami_play("--variant", "rami51", "--bots", "greedy", "--seed", "4", input="q\n")
    assert "greedy bot 2" not in r.stdout and re.search(r"Others: greedy bot \d+ cards", r.stdout)
    r = rami_play(
        "--variant", "rami51", "--bots", "greedy,greedy", "--players", "3", "--seed", "4", input="q\n"
    )
    assert "greedy bot 2" in r.stdout and "greedy bot 3" in r.stdout
