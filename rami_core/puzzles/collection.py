"""Collections: the bundled puzzles, the puzzle of the day, and building a collection.

A collection is a JSON-lines file of puzzles. :func:`build` makes one from a
seed, as ``rami puzzle collection`` does: attempt ``n`` uses the ``n``-th
table shape of :data:`.generate.SCHEDULE` (in turn) and keeps what it proves
in the bucket of the grade it earns while that grade holds fewer than
``per_grade`` puzzles, until every grade is full. It appends each puzzle as it is found and, run again
on the same file, goes on from the attempt after the last one kept: a long
generation can be stopped and resumed, and gives the same file either way.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path

from rami_core.files.userfiles import FileRefused, open_append_safely
from rami_core.puzzles.compose import SCHEDULE, _attempt_shape
from rami_core.puzzles.format import Puzzle, PuzzleError, read_file, read_lines
from rami_core.puzzles.prove import puzzle_rules
from rami_core.words.problems import Said, said

BUNDLED = "voleur.jsonl"
GRADES = range(1, 11)


def bundled_path() -> Path:
    """The bundled collection's file (inside the installed package)."""
    return Path(str(resources.files("rami_core.puzzles") / "data" / BUNDLED))


@cache
def bundled() -> tuple[Puzzle, ...]:
    """The bundled collection, read once."""
    p = bundled_path()
    if not p.exists():  # pragma: no cover - a broken install
        raise PuzzleError(Said("puzzle_collection_missing", path=str(p)))
    return tuple(pz for _, pz in read_lines(p.read_text(encoding="utf-8"), BUNDLED))


def daily(day: _dt.date | None = None, puzzles: tuple[Puzzle, ...] | None = None) -> Puzzle:
    """The puzzle of the day: the same for everyone on a given date, its grade
    following the week (Monday easy, Sunday hardest)."""
    day = day or _dt.date.today()
    pool = puzzles if puzzles is not None else bundled()
    grade = 1 + (day.weekday() * 3) // 2  # 1, 2, 4, 5, 7, 8, 10
    of_grade = [p for p in pool if p.difficulty == grade] or list(pool)
    return of_grade[(day.toordinal() * 7919) % len(of_grade)]


def pick(difficulty: int, index: int | None = None, puzzles: tuple[Puzzle, ...] | None = None) -> Puzzle:
    """A bundled puzzle of a grade (the ``index``-th, or the day's)."""
    pool = [p for p in (puzzles if puzzles is not None else bundled()) if p.difficulty == difficulty]
    if not pool:
        raise PuzzleError(Said("puzzle_no_grade", difficulty=difficulty))
    i = index if index is not None else _dt.date.today().toordinal()
    return pool[i % len(pool)]


def _attempt_of(pz: Puzzle) -> int:
    """The attempt a collection puzzle came from (the last part of its id)."""
    return int(pz.id.rsplit("-", 1)[1])


def build(
    out: str | Path,
    *,
    per_grade: int,
    seed: int = 2026,
    variant: str = "voleur",
    attempts: int | None = None,
    progress: Callable[[Counter, int], None] | None = None,
) -> Counter:
    """Fill (or go on filling) a collection file; the count by grade at the end.
    ``attempts`` stops at that attempt number, counted from the first (None:
    when every grade is full), so the same command run again resumes and
    ends where one uninterrupted run would."""
    path = Path(out)
    puzzle_rules(variant)  # a variant refused creates no file
    have: Counter = Counter()
    start = 0
    if path.exists():
        kept = read_file(path)
        for pz in kept:
            have[pz.difficulty] += 1
            start = max(start, _attempt_of(pz) + 1)
    n = start
    try:
        fh = open_append_safely(path)  # never through a link, never a FIFO's hang
    except FileRefused as exc:
        raise PuzzleError(Said("at", where=str(path), detail=said(exc.reason))) from None
    with fh:
        while any(have[g] < per_grade for g in GRADES):
            if attempts is not None and n >= attempts:
                break
            got = collection_attempt(seed, n, variant)
            if got is not None and have[got.difficulty] < per_grade:
                fh.write(got.line() + "\n")
                fh.flush()
                have[got.difficulty] += 1
                if progress is not None:
                    progress(have, n)
            n += 1
    return have


def collection_attempt(seed: int, n: int, variant: str = "voleur") -> Puzzle | None:
    """Attempt ``n`` of a collection: the shapes of :data:`.generate.SCHEDULE`
    in turn, whatever the grades found so far, so that the positions tried
    (and the facts proved of them) never depend on the bots or the solver's
    effort, which the grade reads and a new version may measure otherwise."""
    return _attempt_shape(seed, n, SCHEDULE[n % len(SCHEDULE)], None, variant)
