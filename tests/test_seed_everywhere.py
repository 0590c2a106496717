"""A seed is the same game everywhere: with and without the compiled search.

The bots call the solver while they play (the expert bot on every voleur
turn); its budgets are counts of states, the same for the C and the Python
search (``SEARCH_DEFAULTS``), so the same seed gives the same move log
whichever search the machine has. Each side runs in its own process, since
the choice of search is made once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rami_core.solver.results import SEARCH_DEFAULTS, SolverOptions
from rami_core.solver.sweep import PURE_ALL_ENV, PURE_ENV, compiled_sweep

ROOT = Path(__file__).resolve().parent.parent

needs_compiled = pytest.mark.skipif(
    compiled_sweep() is None,
    reason="the compiled search is not built here (no C compiler, or RAMI_SOLVER_PURE): nothing to compare",
)


def _start(pure: bool, games: int, rounds: int, presets: tuple[str, ...]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in (PURE_ENV, PURE_ALL_ENV)}
    if pure:
        env[PURE_ENV] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.seeded_games", str(games), str(rounds), *presets],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _logs(process: subprocess.Popen[str]) -> dict[str, list[str]]:
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err[-3000:]
    return json.loads(out)


def test_the_budgets_do_not_depend_on_the_search():
    settled = [SolverOptions().settled(compiled) for compiled in (True, False)]
    for o in settled:
        assert (o.relax_from, o.relax_after, o.lp_after, o.points_states) == SEARCH_DEFAULTS
    assert settled[0].compiled and not settled[1].compiled


def _compare(games: int, rounds: int, presets: tuple[str, ...] = ()) -> None:
    """The move logs of both searches; every preset unless some are named.

    Both processes run at once (each plays alone, on a core of its own when
    one is free): the pure search's side is most of the wait."""
    started = [_start(pure, games, rounds, presets) for pure in (False, True)]
    try:
        compiled, pure = (_logs(p) for p in started)
    finally:
        for p in started:
            if p.poll() is None:  # a side that timed out or was not read: never left behind
                p.kill()
                p.wait()
    assert compiled.keys() == pure.keys()
    assert any(k.startswith("voleur/") for k in compiled)
    differ = [k for k in compiled if compiled[k] != pure[k]]
    assert not differ, f"seeded games that differ with {PURE_ENV}=1: {differ}"
    assert all(len(log) > 10 for log in compiled.values())


@needs_compiled
def test_a_seeded_voleur_and_rami51_game_are_the_same_with_the_pure_search():
    """Voleur (the expert bot calls the solver on every turn) and rami51 (the
    greedy and the expert bot): one round each; every preset is the slow test."""
    _compare(games=1, rounds=1, presets=("voleur", "rami51"))


@needs_compiled
@pytest.mark.slow
def test_many_seeded_games_are_the_same_with_the_pure_search():
    """Every preset, seeds 0 to 3, two rounds each. (A game of seed 0 and one
    round is the start of the first of these logs: it is no test of its own.)"""
    _compare(games=4, rounds=2)
