"""Casse-têtes: voleur puzzles like chess problems, generated, proven and graded.

A puzzle is a table of melds, a hand and a goal (lay every hand card in one
turn, the classic; or a number of cards; or a number of points) under a
profile that rearranges the table (voleur by default). Modules:

* :mod:`.format` - the JSON-lines format (a pydantic model; ``rami schema --puzzle``);
* :mod:`.arrange` - every final table of a position, and the distance (card
  moves, melds broken) from the table as it lies to each;
* :mod:`.prove` - the claims a puzzle carries, proved from the position: the
  solver's certificate, the referee on the witness, no shortcut, every hand
  card needed, the count of solutions, the bots, the solver's effort;
* :mod:`.grade` - the difficulty 1 to 10 from those measures;
* :mod:`.generate` - puzzles from a seed, worked backwards from a solution;
* :mod:`.collection` - the bundled collection, the puzzle of the day, building one;
* :mod:`.play` - solving one at the terminal with the table editor of ``rami play``.

docs/puzzles.md is the user's guide: the format, the claims and how they are
proved, the grade's definition, and how a club makes its own collection.
"""

from __future__ import annotations

from rami_core.puzzles.format import FORMAT, Goal, Proof, Puzzle, PuzzleError, read_file
from rami_core.puzzles.grade import grade
from rami_core.puzzles.prove import Position, check, prove

__all__ = [
    "FORMAT",
    "Goal",
    "Position",
    "Proof",
    "Puzzle",
    "PuzzleError",
    "check",
    "grade",
    "prove",
    "read_file",
]
