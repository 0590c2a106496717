"""`rami puzzle`: casse-têtes (voleur puzzles) to generate, re-prove and solve.

``new`` prints a generated puzzle (one JSON line, reproducible from its
seed); ``check`` proves every puzzle of a file again; ``play`` solves one at
the terminal; ``collection`` builds (or resumes building) a collection file.
See docs/puzzles.md.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

import rami_core.cli.types as types
from rami_core.cli.common import lang_option
from rami_core.words.printable import visible


@click.group("puzzle")
def puzzle_group() -> None:
    """Casse-têtes: voleur puzzles, generated, proven and graded (docs/puzzles.md)."""


@puzzle_group.command("new")
@click.option("--difficulty", "-d", type=types.IntRange(1, 10), help="The grade, 1 (easy) to 10.")
@click.option(
    "--seed", type=types.IntRange(0, 2**63), help="The seed (default: a random one, printed in the puzzle)."
)
@click.option("--variant", default="voleur", show_default=True, help="A profile that rearranges the table.")
@click.option("--show", is_flag=True, help="Also show the table and the hand in words on stderr.")
@lang_option(help="Language of the errors.")
def new_cmd(difficulty: int | None, seed: int | None, variant: str, show: bool, lang: str) -> None:
    """Print a new puzzle as one JSON line (save it with `> FILE`, then `rami puzzle play FILE`)."""
    from rami_core.puzzles.compose import generate

    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    pz = generate(seed, difficulty, variant)
    click.echo(pz.line())
    if show:
        click.echo(_describe(pz, lang), err=True)


def _describe(pz, lang: str) -> str:
    from rami_core.words.messages import Messages

    msg = Messages(lang)
    lines = [msg("puzzle_described", id=pz.id, difficulty=pz.difficulty, goal=pz.goal.kind)]
    lines += [f"  {i}: {m}" for i, m in enumerate(pz.table, 1)]
    lines.append("  " + msg("puzzle_described_hand", cards=pz.hand))
    return "\n".join(lines)


@puzzle_group.command("check")
@click.argument("files", nargs=-1, type=types.Path(path_type=Path))
@click.option("--sample", type=types.IntRange(1), help="Check only this many puzzles, spread over each file.")
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
@click.option("--bundled", is_flag=True, help="Also the bundled collection (the default without FILES).")
@lang_option(help="Language of the problems found and of the errors.")
def check_cmd(files: tuple[Path, ...], sample: int | None, quiet: bool, bundled: bool, lang: str) -> None:
    """Prove again every puzzle of FILES (default: the bundled collection): the
    referee on the witness, the solver on the goal, no shortcut, every card
    needed, the count of solutions, the moves and the grade."""
    from rami_core.puzzles.collection import bundled_path
    from rami_core.puzzles.format import read_file
    from rami_core.puzzles.prove import check
    from rami_core.words.messages import Messages
    from rami_core.words.problems import words

    msg = Messages(lang)
    # The frame (ok, FAIL, the summary) is the same in every language, as rami check's.
    paths = list(files) + ([bundled_path()] if bundled or not files else [])
    failed = checked = noted = 0
    for path in paths:
        puzzles = read_file(path)
        if sample is not None and sample < len(puzzles):
            step = len(puzzles) / sample
            puzzles = [puzzles[int(i * step)] for i in range(sample)]
        for pz in puzzles:
            problems, notes = check(pz)
            checked += 1
            if problems:
                failed += 1
                click.echo(f"FAIL {visible(pz.id)}")
                for p in problems:
                    click.echo(f"     {words(p, lang)}")
            elif not quiet:
                proved = msg.count("puzzle_check_ok", pz.proof.min_moves, difficulty=pz.difficulty)
                click.echo(f"ok   {visible(pz.id)} ({proved})")
            for n in notes:
                noted += 1
                if not quiet:
                    click.echo(f"     {msg('puzzle_check_note')}{words(n, lang)}")
    sys.stdout.flush()
    click.echo(f"{checked - failed} proved, {failed} failed" + (f", {noted} notes" if noted else ""))
    sys.exit(1 if failed or not checked else 0)


@puzzle_group.command("collection")
@click.option(
    "--out",
    required=True,
    type=types.Path(path_type=Path),
    help="The collection file (resumed if it exists).",
)
@click.option(
    "--per-grade", default=150, show_default=True, type=types.IntRange(1), help="Puzzles in each grade."
)
@click.option(
    "--seed", default=2026, show_default=True, type=types.IntRange(0), help="The collection's seed."
)
@click.option("--variant", default="voleur", show_default=True, help="A profile that rearranges the table.")
@click.option(
    "--attempts",
    type=types.IntRange(1),
    help="Stop at this attempt number, counted from the first (the same command resumes).",
)
@lang_option(help="Language of the errors.")
def collection_cmd(
    out: Path, per_grade: int, seed: int, variant: str, attempts: int | None, lang: str
) -> None:
    """Generate a collection of puzzles in ten grades, reproducibly from a seed;
    run again on the same file to go on where it stopped."""
    from rami_core.puzzles.collection import GRADES, build
    from rami_core.words.messages import Messages

    msg = Messages(lang)

    def progress(have, n) -> None:
        grades = " ".join(f"{g}:{have[g]}" for g in GRADES)
        click.echo(msg("puzzle_attempt", n=n, grades=grades), err=True)

    have = build(out, per_grade=per_grade, seed=seed, variant=variant, attempts=attempts, progress=progress)
    full = all(have[g] >= per_grade for g in GRADES)
    done = "puzzle_collection_full" if full else "puzzle_collection_partial"
    click.echo(msg(done, n=sum(have.values()), path=str(out)))


@puzzle_group.command("play")
@click.argument("file", required=False, type=types.Path(path_type=Path))
@click.option("--daily", is_flag=True, help="The puzzle of the day from the bundled collection.")
@click.option("--difficulty", "-d", type=types.IntRange(1, 10), help="A bundled puzzle of this grade.")
@click.option("--id", "pid", help="The puzzle of FILE (or of the collection) with this id.")
@lang_option(help="Language of the puzzle (and of the errors).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Suits as letters.")
def play_cmd(
    file: Path | None, daily: bool, difficulty: int | None, pid: str | None, lang: str, ascii_only: bool
) -> None:
    """Solve a puzzle at the terminal, with the table editor of `rami play`: from
    FILE (its first puzzle, or --id), the puzzle of the day (--daily, the
    default) or a bundled one of a grade (--difficulty)."""
    from rich.console import Console

    from rami_core.cards.text import CardStyle
    from rami_core.puzzles import collection
    from rami_core.puzzles.format import PuzzleError, read_file
    from rami_core.terminal import Terminal
    from rami_core.terminal.puzzle_session import PuzzleSession
    from rami_core.words.messages import Messages
    from rami_core.words.problems import Said

    msg = Messages(lang)
    if sum(x is not None and x is not False for x in (file, difficulty, daily or None)) > 1:
        raise click.UsageError(msg("cli_one_of", choices="FILE, --daily, --difficulty"))
    pool = tuple(read_file(file)) if file is not None else collection.bundled()
    if pid is not None:
        found = [p for p in pool if p.id == pid]
        if not found:
            where = str(file) if file is not None else Said("puzzle_the_collection")
            raise PuzzleError(Said("puzzle_no_id", id=repr(pid), where=where))
        pz = found[0]
    elif difficulty is not None:
        pz = collection.pick(difficulty)
    elif file is not None:
        if not pool:
            raise PuzzleError(Said("puzzle_file_empty", path=str(file)))
        pz = pool[0]
    else:
        pz = collection.daily()
    out_tty = sys.stdout.isatty()
    style = CardStyle(lang, ascii_only=ascii_only or not out_tty, empty_table=msg("table_is_empty"))
    console = Console(highlight=False, emoji=False, soft_wrap=not out_tty)
    term = Terminal(console, interactive=sys.stdin.isatty(), delay=0.0)
    sys.exit(PuzzleSession(pz, term, msg, style).run())
