"""The bundled collection: its size and grades, the grades monotone in card
moves over every puzzle, the first puzzles regenerated from the documented
command, a sample re-proved (every puzzle under the slow marker), and every
puzzle checked by the independent checker of tests/support/puzzle_referee.py
(the witness on all of them here; the counts and no-shortcut under slow)."""

from __future__ import annotations

import os
import statistics
from importlib import resources

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.puzzles import collection
from rami_core.puzzles.grade import grade
from rami_core.puzzles.prove import check
from tests.support import puzzle_referee as referee

SEED = 2026  # the seed docs/puzzles.md gives for the bundled collection
PUZZLES = collection.bundled()


def test_a_thousand_puzzles_in_ten_grades():
    assert len(PUZZLES) >= 1000
    by_grade = {g: [p for p in PUZZLES if p.difficulty == g] for g in range(1, 11)}
    assert all(len(ps) >= 50 for ps in by_grade.values()), {g: len(ps) for g, ps in by_grade.items()}
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)


def test_the_file_ships_as_package_data():
    # the file is read through importlib.resources, as an installed wheel reads it
    data = resources.files("rami_core.puzzles") / "data" / collection.BUNDLED
    assert data.is_file() and data.read_text(encoding="utf-8").count("\n") == len(PUZZLES)


def test_every_grade_is_its_recorded_proof():
    assert [p.difficulty for p in PUZZLES] == [grade(p.proof) for p in PUZZLES]


def test_grades_are_monotone_in_card_moves_over_the_whole_collection():
    moves = {g: [p.proof.min_moves for p in PUZZLES if p.difficulty == g] for g in range(1, 11)}
    for g in range(1, 10):
        # every puzzle of a grade needs at least the moves of every puzzle below
        assert max(moves[g]) <= min(moves[g + 1]), g
        assert statistics.mean(moves[g]) < statistics.mean(moves[g + 1]), g


def test_the_first_puzzles_regenerate_from_the_seed():
    # attempt n of `rami puzzle collection --seed 2026` gives the n-th line back
    for pz in PUZZLES[:4]:
        assert pz.seed == SEED
        n = int(pz.id.rsplit("-", 1)[1])
        assert collection.collection_attempt(SEED, n) == pz


def test_the_collection_command_regenerates_the_start(tmp_path):
    out = tmp_path / "c.jsonl"
    first = [p for p in PUZZLES if int(p.id.rsplit("-", 1)[1]) < 6]
    res = CliRunner().invoke(
        main, ["puzzle", "collection", "--out", str(out), "--seed", str(SEED), "--attempts", "6"]
    )
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").splitlines() == [p.line() for p in first]


def test_a_refused_variant_leaves_no_file_and_the_summary_is_in_the_language_asked(tmp_path):
    out = tmp_path / "c.jsonl"
    args = ["puzzle", "collection", "--out", str(out), "--lang", "fr"]
    res = CliRunner().invoke(main, [*args, "--variant", "rami51"])
    assert res.exit_code == 1 and "ne réarrange jamais la table" in res.output
    assert not out.exists()  # refused before anything is written
    res = CliRunner().invoke(main, [*args, "--seed", str(SEED), "--attempts", "2", "--per-grade", "1"])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip().endswith("(certains niveaux ne sont pas encore pleins : relancez)")
    assert " casse-têtes dans " in res.stdout


def test_every_witness_by_the_independent_checker():
    bad = [p.id for p in PUZZLES if not referee.witness_ok(p.table, p.hand, p.proof.witness)]
    assert bad == []


SAMPLE = PUZZLES[:: max(1, len(PUZZLES) // 12)]


@pytest.mark.parametrize("pz", SAMPLE, ids=lambda p: p.id)
def test_a_sample_is_proved_again(pz):
    problems, _notes = check(pz)
    assert problems == []


def _independent(pz) -> list[str]:
    got = referee.claims(pz.table, pz.hand)
    p = pz.proof
    wrong = []
    if got["shortcut"]:
        wrong.append("a shortcut exists")
    for name in ("solutions", "min_moves", "min_broken"):
        if got[name] != getattr(p, name):
            wrong.append(f"{name}: claimed {getattr(p, name)}, found {got[name]}")
    if referee.every_card_needed(pz.table, pz.hand, got["min_moves"]) != p.every_card_needed:
        wrong.append("every_card_needed differs")
    return wrong


@pytest.mark.parametrize("pz", SAMPLE[:4], ids=lambda p: p.id)
def test_a_sample_by_the_independent_checker(pz):
    assert _independent(pz) == []


# The independent checker counts every solution with its own exhaustive
# search: up to tens of seconds a puzzle, about an hour for the whole
# collection. RAMI_PUZZLE_EVERY=N checks every Nth puzzle (CI: 10, a spread
# over every grade); by hand the default, 1, checks them all.
EVERY = max(1, int(os.environ.get("RAMI_PUZZLE_EVERY", "1")))


@pytest.mark.slow
def test_every_puzzle_by_the_independent_checker():
    bad = {p.id: w for p in PUZZLES[::EVERY] if (w := _independent(p))}
    assert bad == {}


@pytest.mark.slow
def test_every_puzzle_is_proved_again_by_the_command():
    res = CliRunner().invoke(main, ["puzzle", "check", "--bundled", "-q"])
    assert res.exit_code == 0, res.output[-2000:]
    assert res.output.splitlines()[-1].startswith(f"{len(PUZZLES)} proved, 0 failed")
