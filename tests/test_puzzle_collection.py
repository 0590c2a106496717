"""The bundled collection: ten grades, grades rising with card moves, a sample
re-proved by `rami puzzle check` and by an independent checker (every puzzle
under the slow marker)."""

from __future__ import annotations

import pytest

from rami_core.puzzles import collection
from rami_core.puzzles.prove import check
from tests.support import puzzle_referee as independent


def _sample(n):
    pool = collection.bundled()
    step = max(1, len(pool) // n)
    return list(pool[::step])[:n]


def test_the_collection_has_ten_grades_of_many_puzzles():
    pool = collection.bundled()
    by_grade = {g: [p for p in pool if p.difficulty == g] for g in range(1, 11)}
    assert len(pool) >= 1000
    assert all(len(v) >= 100 for v in by_grade.values())
    assert len({p.id for p in pool}) == len(pool)


def test_grades_rise_with_card_moves_on_the_whole_collection():
    pool = collection.bundled()
    means = []
    for g in range(1, 11):
        moves = [p.proof.min_moves for p in pool if p.difficulty == g]
        means.append(sum(moves) / len(moves))
    assert means == sorted(means) and means[0] < means[-1]


@pytest.mark.parametrize("pz", _sample(12), ids=lambda p: p.id)
def test_a_sample_of_the_collection_is_proved_again(pz):
    problems, _notes = check(pz)
    assert problems == []
    assert independent.witness_ok(pz.table, pz.hand, pz.proof.witness)
    assert not independent.shortcut_exists(pz.table, pz.hand)


@pytest.mark.slow
def test_every_bundled_puzzle_is_proved_again():
    failures = []
    for pz in collection.bundled():
        problems, _notes = check(pz)
        if problems:
            failures.append((pz.id, problems))
    assert failures == []


@pytest.mark.slow
def test_the_independent_checker_agrees_on_every_bundled_puzzle():
    bad = [
        pz.id
        for pz in collection.bundled()
        if not independent.witness_ok(pz.table, pz.hand, pz.proof.witness)
        or independent.shortcut_exists(pz.table, pz.hand)
    ]
    assert bad == []


SETS = ["5S 5H 5D 5C", "6S 6H 6D 6C", "7S 7H 7D 7C"]


def test_the_independent_checker_sees_a_shortcut_and_a_bad_witness():
    assert independent.shortcut_exists(["3H 4H 5H 6H 7H", "7S 7D 7H"], "7C 8H")
    assert not independent.shortcut_exists(SETS, "4H 8H")
    assert not independent.witness_ok(SETS, "4H 8H", ["4H 5H 6H 7H 8H", "5S 5D 5C", "6S 6D 6C", "7S 7D"])


def test_the_daily_puzzle_is_the_same_all_day():
    import datetime as dt

    day = dt.date(2026, 12, 2)
    assert collection.daily(day) == collection.daily(day)
    assert collection.daily(day).difficulty == 1 + (day.weekday() * 3) // 2
