"""best_opening's search in C (``_openingc.c``) is the twin of its Python
``rec``: on thousands of seeded random hands, under every preset's meld rules
and opening settings and a few other meld rules, with and without jokers,
exact and cut (small ``max_states``, a shared ``StateBudget``), both return
the same opening (the same Card objects, melds in the same order) and spend
the same number of states."""

from __future__ import annotations

import importlib
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import replace
from pathlib import Path

import pytest

from rami_core.cards import JOKER_RANK, JOKER_SUIT, Card, build_deck
from rami_core.cards.melds import MeldRules
from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import OpeningNeed
from rami_core.solver import SolverOptions, best_opening
from rami_core.solver.best_opening import StateBudget, compiled_opening
from rami_core.solver.sweep import PURE_ALL_ENV, PURE_ENV, pure_asked

# the module (the package's `best_opening` is the function)
best_opening_module = importlib.import_module("rami_core.solver.best_opening")

ROOT = Path(__file__).resolve().parent.parent


def _has_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


needs_compiled = pytest.mark.skipif(
    compiled_opening() is None,
    reason="best_opening's compiled search is not built here (no C compiler, or RAMI_SOLVER_PURE / RAMI_PURE set)",
)

PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")
# meld rules no preset has, each changing what the candidates are
OTHER_RULES = (
    MeldRules(wrap=True),
    MeldRules(ace_high=True, ace_low=False),
    MeldRules(ace_high=True, max_jokers=1, min_naturals=2),
    MeldRules(ace_high=True, set_distinct_suits=False, set_max=6),
    MeldRules(ace_high=True, run_min=4, set_min=4),
)
PURE = SolverOptions(compiled=False)
COMPILED = SolverOptions(compiled=True)
LIMITS = (0, 1, 2, 5, 17, 60, 300, 2000)


class _Spy:
    """The compiled module, counting its searches and any input it refused
    (the caller then runs Python's: this test must compare the C search)."""

    def __init__(self, mod):
        self.mod, self.searches, self.refused = mod, 0, []

    def search(self, *args):
        try:
            out = self.mod.search(*args)
        except Exception as exc:
            self.refused.append(exc)
            raise
        self.searches += 1
        return out


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> _Spy:
    s = _Spy(compiled_opening())
    monkeypatch.setattr(best_opening_module, "compiled_opening", lambda: s)
    return s


def _hand(rng: random.Random, decks: int, jokers: int, size: int) -> list[Card]:
    """A hand of `size` cards: half the time drawn from few ranks and suits
    (melds, and ties between them, are common), else from the whole deck."""
    deck = build_deck(decks, jokers)
    if rng.random() < 0.5:
        ranks = set(rng.sample(range(1, 14), rng.randint(3, 7)))
        suits = set(rng.sample(range(4), rng.randint(1, 4)))
        deck = [c for c in deck if c.suit == JOKER_SUIT or (c.rank in ranks and c.suit in suits)]
    return rng.sample(deck, min(size, len(deck)))


def _specs(rng: random.Random, opening: OpeningNeed) -> list[OpeningNeed]:
    """The preset's opening, with and without jokers, and a few others."""
    return [
        opening,
        replace(opening, jokers=not opening.jokers),
        OpeningNeed(points=0),
        OpeningNeed(
            points=rng.choice((0, 30, 51, 71)), pure_run=rng.random() < 0.5, run_and_set=rng.random() < 0.5
        ),
    ]


def _same(hand, rules, spec, score, **kw) -> bool:
    """Both searches on one question: the same melds (the very Card objects)
    and, given the same budget, the same states spent and the same cut."""
    budget = kw.pop("budget", None)
    b_pure = b_c = None
    if budget is not None:
        b_pure, b_c = StateBudget(budget), StateBudget(budget)
    p = best_opening(hand, rules, spec, score=score, options=PURE, budget=b_pure, **kw)
    c = best_opening(hand, rules, spec, score=score, options=COMPILED, budget=b_c, **kw)
    assert c == p, (hand, rules, spec, kw)
    if p is not None:
        assert [[id(x) for x in m] for m in c] == [[id(x) for x in m] for m in p]
    if budget is not None:
        assert (b_c.left, b_c.cut) == (b_pure.left, b_pure.cut), (hand, rules, spec, budget)
    return p is not None


def _check(
    rng: random.Random,
    rules: MeldRules,
    opening: OpeningNeed,
    score: dict,
    decks: int,
    jokers: int,
    hands: int,
):
    found = 0
    for _ in range(hands):
        size = rng.choice((3, 5, 7, 9, 10, 11, 13, 14, 15, 18, 22))
        hand = _hand(rng, decks, jokers, size)
        for spec in _specs(rng, opening):
            if size <= 14:  # exact (the default limit), quick enough in Python at this size
                found += _same(hand, rules, spec, score)
            found += _same(hand, rules, spec, score, max_states=rng.choice(LIMITS))
            found += _same(hand, rules, spec, score, budget=rng.choice(LIMITS))
    return found


@needs_compiled
@pytest.mark.parametrize("preset", PRESETS)
def test_the_compiled_opening_search_is_the_python_one_under_each_preset(preset: str, spy: _Spy) -> None:
    """300 hands a preset (its decks and jokers, and 4 jokers more), its
    opening and three others, exact, cut by max_states and by a budget."""
    rules = rules_for(load_profile(preset), 2)
    rng = random.Random(f"opening-c:{preset}")
    found = _check(rng, rules.melds, rules.opening, rules.score_args, rules.decks, rules.deck_jokers, 150)
    found += _check(rng, rules.melds, rules.opening, rules.score_args, rules.decks, 4, 150)
    assert spy.refused == [] and spy.searches > 0
    assert found >= 300  # openings were found, not only None compared


@needs_compiled
@pytest.mark.parametrize("index", range(len(OTHER_RULES)))
def test_the_compiled_opening_search_is_the_python_one_under_other_meld_rules(index: int, spy: _Spy) -> None:
    """100 hands for each of five meld rules no preset has (wrapping runs, a
    high ace only, one joker and two naturals a meld, sets of one suit up to
    six, runs and sets of four), two decks and four jokers."""
    rules = OTHER_RULES[index]
    rng = random.Random(f"opening-c:other:{index}")
    score = {"ace": 11, "ace_low": 1, "court": 10}
    found = _check(rng, rules, OpeningNeed(points=51, pure_run=True), score, 2, 4, 100)
    assert spy.refused == [] and spy.searches > 0
    assert found >= 100


@needs_compiled
def test_a_cut_search_returns_the_same_best_found_opening(spy: _Spy) -> None:
    """A hand rich in melds, every limit from 0 to past its exact search:
    each cut returns the opening found so far, the same on both sides, and
    the budget is cut exactly when the search stopped short."""
    rules = rules_for(load_profile("rami51"), 2)
    hand = [Card(r, s, k) for r in range(2, 8) for s in (0, 1) for k in (0, 1)] + [
        Card(JOKER_RANK, JOKER_SUIT, 0)
    ]
    exact = StateBudget(10**9)
    best_opening(hand, rules.melds, OpeningNeed(points=0), score=rules.score_args, budget=exact)
    spent = 10**9 - exact.left
    assert spent > 50
    seen = set()
    for limit in [*range(50), *range(50, spent + 3, max(1, spent // 200))]:
        _same(hand, rules.melds, OpeningNeed(points=0), rules.score_args, budget=limit)
        _same(hand, rules.melds, OpeningNeed(points=30, pure_run=True), rules.score_args, max_states=limit)
        got = best_opening(hand, rules.melds, OpeningNeed(points=0), score=rules.score_args, max_states=limit)
        seen.add(None if got is None else sum(len(m) for m in got))
    assert len(seen) > 2  # the cuts stopped at different best-found openings
    assert spy.refused == []


@needs_compiled
def test_the_compiled_search_refuses_what_it_cannot_hold() -> None:
    """Bad or out-of-range input is an error (the caller then runs Python's
    search), never a wrong answer."""
    mod = compiled_opening()
    row = [(((0, 3),), 3, 30, 4)]
    assert mod.search([row], [3], 0, 0, 10, 3) == (2, [(0, 0)])
    assert mod.search([row], [3], 31, 0, 10, 3) == (5, None)  # the meld, then each copy left out
    with pytest.raises(ValueError):
        mod.search([row], [3], 0, 0, 10, 4)  # total is not the sum of left
    with pytest.raises(ValueError):
        mod.search([[(((1, 3),), 3, 30, 4)]], [3], 0, 0, 10, 3)  # a face out of range
    with pytest.raises(ValueError):
        mod.search([[(((0, 0),), 0, 30, 4)]], [3], 0, 0, 10, 3)  # a need of no card
    with pytest.raises(ValueError):
        mod.search([row], [3], 10**30, 0, 10, 3)  # points out of range
    with pytest.raises(ValueError):
        mod.search([[]] * 2, [600, 600], 0, 0, 10, 1200)  # more cards than it recurses over
    with pytest.raises(TypeError):
        mod.search([row], [3], 0.5, 0, 10, 3)
    with pytest.raises(TypeError):
        mod.search([[((0, 3), 3, 30, 4)]], [3], 0, 0, 10, 3)  # needs not a tuple of pairs
    # a huge limit is "no limit"; a negative one stops at once, as in Python
    assert mod.search([row], [3], 0, 0, 10**40, 3) == (2, [(0, 0)])
    assert mod.search([row], [3], 0, 0, -(10**40), 3) == (0, None)


@needs_compiled
def test_python_floats_and_huge_points_fall_back_to_python() -> None:
    """An opening whose points the C search cannot hold is answered by the
    Python search, the same as with the compiled search off."""
    rules = rules_for(load_profile("rami51"), 2)
    hand = [Card(r, 0, 0) for r in range(2, 9)] + [Card(9, s, 0) for s in range(4)]
    for points in (40.5, 10**30, -(10**30)):
        spec = OpeningNeed(points=points)  # type: ignore[arg-type]
        a = best_opening(hand, rules.melds, spec, score=rules.score_args, options=COMPILED)
        b = best_opening(hand, rules.melds, spec, score=rules.score_args, options=PURE)
        assert a == b


@pytest.mark.skipif(
    not _has_compiler() or pure_asked(PURE_ENV),
    reason="no C compiler on this machine, or the pure searches asked for",
)
def test_the_compiled_opening_search_is_built_where_a_compiler_is() -> None:
    assert compiled_opening() is not None


@pytest.mark.parametrize("name", [PURE_ENV, PURE_ALL_ENV])
def test_the_pure_switches_turn_the_compiled_opening_search_off(name: str) -> None:
    """RAMI_SOLVER_PURE=1 and RAMI_PURE=1 (every compiled hot path off) each
    leave both compiled searches unused (read once per process: a process of
    its own)."""
    env = {k: v for k, v in os.environ.items() if k not in (PURE_ENV, PURE_ALL_ENV)}
    env[name] = "1"
    code = (
        "from rami_core.solver.best_opening import compiled_opening\n"
        "from rami_core.solver.sweep import compiled_sweep\n"
        "print(compiled_opening(), compiled_sweep())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    assert out.stdout.split() == ["None", "None"]
