"""The grade: a difficulty from 1 to 10 from what a puzzle takes.

Four measures, all recorded in the proof: the fewest table cards moved to a
solution (``min_moves``), the fewest table melds broken (``min_broken``),
which bots find it (``bots``), and the solver's effort (the smallest state
budget of a doubling ladder from 250 that finds it). They are added into a
score, each with a positive weight, so the grade never falls when one
measure grows and the others stay (monotone in every measure):

    score = 2 x min_moves + min_broken + 2 x (greedy fails) + 2 x (expert fails)
            + effort steps (doublings of the budget past 250, at most 4)

and the grade is the band of the score in :data:`BANDS`. Card moves weigh
most because they are what a person must see: a sample of any grade has
more moves, on average, than the grade below (tests/test_puzzles.py on the
bundled collection).
"""

from __future__ import annotations

import math

from .format import Proof

# the lowest score of grades 2..10 (grade 1 below the first)
BANDS = (5, 8, 11, 12, 13, 15, 18, 21, 25)


def effort_steps(effort: int) -> int:
    """Doublings of the solver's budget past 250 states, at most 4."""
    if effort <= 250:
        return 0
    return min(4, math.ceil(math.log2(effort / 250)))


def score(proof: Proof) -> int:
    """The weighted sum the grade bands."""
    return (
        2 * proof.min_moves
        + proof.min_broken
        + 2 * (not proof.bots.greedy)
        + 2 * (not proof.bots.expert)
        + effort_steps(proof.solver_effort)
    )


def grade(proof: Proof) -> int:
    """The difficulty, 1 to 10."""
    s = score(proof)
    return 1 + sum(s >= b for b in BANDS)
