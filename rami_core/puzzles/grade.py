"""The grade: a difficulty from 1 to 10 from what a puzzle takes.

Four measures, all recorded in the proof: the fewest table cards moved to a
solution (``min_moves``), the fewest table melds broken (``min_broken``),
which bots find it (``bots``), and the solver's effort (the smallest state
budget of a doubling ladder from 250 that finds it). Card moves come first,
because they are what a person must see; the other measures order the
puzzles of the same number of moves:

    score = 16 x min_moves + min(15, min_broken + 2 x (greedy fails)
                                 + 2 x (expert fails) + effort steps)

(effort steps: the doublings of the budget past 250, at most 4) and the
grade is the band of the score in :data:`BANDS`. The score grows with every
measure, so the grade never falls when one measure grows and the others
stay; and since the second part stays below 16, a puzzle of more moves never
has a lower grade than one of fewer: the grades are monotone in card moves
(tests/test_puzzle_collection.py checks it on the whole bundled collection).
Two bands begin inside a number of moves, where the other measures decide:
two-move puzzles that break more than two melds or cost the solver more,
and nine-move puzzles of that kind.
"""

from __future__ import annotations

import math

from rami_core.puzzles.format import Proof

MOVES_WEIGHT = 16  # more than the rest of the score can reach

# the lowest score of grades 2..10 (grade 1 below the first): moves 2; moves
# 2 with the rest at least 3; moves 4, 5, 6, 7, 8, 9; moves 9 with the rest
# at least 5 (and every puzzle of 10 moves or more)
BANDS = (32, 35, 64, 80, 96, 112, 128, 144, 149)


def effort_steps(effort: int) -> int:
    """Doublings of the solver's budget past 250 states, at most 4."""
    if effort <= 250:
        return 0
    return min(4, math.ceil(math.log2(effort / 250)))


def rest(proof: Proof) -> int:
    """What orders the puzzles of the same number of moves, 0 to 15."""
    return min(
        MOVES_WEIGHT - 1,
        proof.min_broken
        + 2 * (not proof.bots.greedy)
        + 2 * (not proof.bots.expert)
        + effort_steps(proof.solver_effort),
    )


def score(proof: Proof) -> int:
    """The weighted sum the grade bands."""
    return MOVES_WEIGHT * proof.min_moves + rest(proof)


def grade(proof: Proof) -> int:
    """The difficulty, 1 to 10."""
    s = score(proof)
    return 1 + sum(s >= b for b in BANDS)
