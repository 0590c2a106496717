"""The solver's two searches, compiled (C) and pure Python, are twins: given
the same options and budgets they visit the same states and return the same
answer, arrangement and "not proven" included. The pure one is what runs on
a machine without a C compiler; CI also runs the solver's tests on it."""

from __future__ import annotations

import random
import shutil
import sysconfig
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rami_core.cards import JOKER_SUIT, Card
from rami_core.cards.melds import MeldRules, read_meld
from rami_core.solver import SolverOptions, check_solution, solve
from rami_core.solver.sweep import PURE_ENV, _Model, _Sweep, compiled_sweep, pure_asked
from tests.test_solver import positions, rules_strategy, set_prices

needs_compiled = pytest.mark.skipif(
    compiled_sweep() is None,
    reason="the compiled search is not built here (no C compiler, or RAMI_SOLVER_PURE)",
)


def _has_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


@pytest.mark.skipif(
    not _has_compiler() or pure_asked(PURE_ENV),
    reason="no C compiler on this machine, or the pure search asked for",
)
def test_the_compiled_search_is_built_where_a_compiler_is():
    assert compiled_sweep() is not None


def both(table, hand, rules, **kw):
    """(compiled answer, pure answer) under the same explicit options (every
    budget given: their defaults differ by search)."""
    opts = kw.pop("options", SolverOptions())
    c = solve(table, hand, rules, options=SolverOptions(**{**opts.__dict__, "compiled": True}), **kw)
    p = solve(table, hand, rules, options=SolverOptions(**{**opts.__dict__, "compiled": False}), **kw)
    return c, p


def same(c, p) -> None:
    assert (c.melds, c.laid, c.optimal, c.cards_optimal, c.feasible, c.points_laid) == (
        p.melds,
        p.laid,
        p.optimal,
        p.cards_optimal,
        p.feasible,
        p.points_laid,
    )


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(
    positions(),
    rules_strategy,
    st.sampled_from(["cards", "points"]),
    st.sampled_from([30, 300, 10**6]),
    st.sampled_from(
        [(0, 3, 5, 40), (2, 20, 2_500, 20_000), (0, 10**6, 10**6, 10**6), (50, 10**6, 10**6, 10**6)]
    ),
)
def test_compiled_and_pure_give_the_same_answer(pos, rules, objective, max_states, budgets):
    table, hand = pos
    if read_meld(table, rules) is None and table:
        table = []
    relax_from, relax_after, lp_after, points_states = budgets
    options = SolverOptions(
        relax_from=relax_from, relax_after=relax_after, lp_after=lp_after, points_states=points_states
    )
    c, p = both(table, hand, rules, objective=objective, max_states=max_states, options=options)
    same(c, p)
    assert check_solution(table, hand, c, rules) is None


def two_deck_position(rng: random.Random, jokers: int) -> tuple[list[Card], list[Card]]:
    """A random valid table of runs and sets from two decks, and a hand from the rest."""
    pool = {(r, s): [Card(r, s, 0), Card(r, s, 1)] for r in range(1, 14) for s in range(4)}
    jks = [Card(0, JOKER_SUIT, i) for i in range(jokers)]
    table: list[Card] = []
    for _ in range(rng.randint(2, 9)):
        if rng.random() < 0.5:
            s, n = rng.randrange(4), rng.randint(3, 5)
            lo = rng.randint(1, 14 - n + 1)
            faces = [((p - 1) % 13 + 1, s) for p in range(lo, lo + n)]
        else:
            r = rng.randint(1, 13)
            faces = [(r, s) for s in rng.sample(range(4), rng.choice([3, 4]))]
        if any(not pool[f] for f in faces):
            continue
        meld = [pool[f].pop() for f in faces]
        if jks and rng.random() < 0.4:
            i = 1
            pool[meld[i][:2]].append(meld[i])
            meld[i] = jks.pop()
        table += meld
    rest = [c for lst in pool.values() for c in lst] + jks
    rng.shuffle(rest)
    return table, rest[: rng.randint(4, 14)]


@needs_compiled
@pytest.mark.parametrize("seed", range(12))
def test_twins_agree_on_two_deck_positions(seed):
    rng = random.Random(seed)
    table, hand = two_deck_position(rng, jokers=(0, 1, 2, 4)[seed % 4])
    voleur = MeldRules()
    options = SolverOptions(
        relax_from=(0, 200)[seed % 2], relax_after=500, lp_after=3_000, points_states=3_000
    )
    c, p = both(table, hand, voleur, max_states=6_000, options=options)
    same(c, p)
    assert Counter(c for m in c.melds for c in m) >= Counter(table)


@needs_compiled
@settings(max_examples=30, deadline=None)
@given(positions(), rules_strategy, st.sampled_from([0, 1, 7, 60]))
def test_twins_count_the_same_states_and_bounds(pos, rules, relax_from):
    table, hand = pos
    if read_meld(table, rules) is None and table:
        table = []
    weight = lambda c: 100 + (25 if c.suit == JOKER_SUIT else min(c.rank, 10))  # noqa: E731
    values = []
    for compiled in (True, False):
        sweep = _Sweep(_Model(table, hand, rules, weight), None, compiled=compiled)
        sweep.gran = 100
        sweep.relax_from = relax_from
        value = sweep.solve()
        bound = sweep.relaxed_bound(0, 0, sweep.root[0], sweep.m.J, sweep.root[3])
        calls = sweep._c.counts()[0] if compiled else sweep.calls
        values.append((value, bound, calls))
    assert values[0] == values[1]


@needs_compiled
@settings(max_examples=30, deadline=None)
@given(positions(), rules_strategy, st.data())
def test_twins_price_the_sets_alike(pos, rules, data):
    """The relaxation with the sets priced (any prices): the same states,
    the same bound and the same value in both searches."""
    table, hand = pos
    if read_meld(table, rules) is None and table:
        table = []
    duals = data.draw(set_prices(table, hand))
    weight = lambda c: 100 + (25 if c.suit == JOKER_SUIT else min(c.rank, 10))  # noqa: E731
    values = []
    for compiled in (True, False):
        sweep = _Sweep(_Model(table, hand, rules, weight), None, compiled=compiled)
        sweep.gran = 100
        sweep.price_sets(duals)
        value = sweep.solve()
        bound = sweep.relaxed_bound(0, 0, sweep.root[0], sweep.m.J, sweep.root[3])
        calls = sweep._c.counts()[0] if compiled else sweep.calls
        values.append((value, bound, calls))
    assert values[0] == values[1]


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_twins_agree_where_the_lp_prices_the_sets(seed):
    """Two-deck positions with the LP's relaxation asked early (its duals
    price the sets) and a small budget for the priced work: the same answer."""
    rng = random.Random(500 + seed)
    table, hand = two_deck_position(rng, jokers=(0, 1, 2, 4)[seed % 4])
    options = SolverOptions(relax_from=0, relax_after=50, lp_after=10**6, points_states=3_000)
    for max_states in (400, 20_000):
        c, p = both(table, hand, MeldRules(), max_states=max_states, options=options)
        same(c, p)


@st.composite
def meld_rules(draw):
    """Meld rules a house file may set, beyond the presets' own."""
    set_min = draw(st.integers(2, 4))
    distinct = draw(st.booleans())
    set_max = draw(st.integers(set_min, 4 if distinct else 6))
    ace_low, ace_high = draw(st.sampled_from([(True, True), (True, False), (False, True)]))
    return MeldRules(
        run_min=draw(st.integers(2, 5)),
        set_min=set_min,
        set_max=set_max,
        set_distinct_suits=distinct,
        ace_low=ace_low,
        ace_high=ace_high,
        max_jokers=draw(st.sampled_from([None, 0, 1, 2])),
        min_naturals=draw(st.integers(1, 3)),
    )


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(positions(), meld_rules(), st.sampled_from(["cards", "points"]))
def test_twins_agree_under_house_meld_rules(pos, rules, objective):
    table, hand = pos
    if read_meld(table, rules) is None and table:
        table = []
    options = SolverOptions(relax_from=10, relax_after=20, lp_after=200, points_states=2_000)
    c, p = both(table, hand, rules, objective=objective, max_states=5_000, options=options)
    same(c, p)
    assert check_solution(table, hand, c, rules) is None


@pytest.mark.parametrize("seed", range(8))
def test_a_small_state_limit_builds_the_relaxation_at_once(seed):
    """Under a small limit (the bots' rebuilds) the search does not wait
    for the relaxation: the same answer, cut or not, as with none to wait."""
    rng = random.Random(100 + seed)
    table, hand = two_deck_position(rng, jokers=(0, 1, 2, 4)[seed % 4])
    voleur = MeldRules()
    waits = solve(table, hand, voleur, max_states=2_000, options=SolverOptions(relax_from=5_000))
    at_once = solve(table, hand, voleur, max_states=2_000, options=SolverOptions(relax_from=0))
    same(waits, at_once)


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_run_book_lists_the_runs_as_python_does(seed):
    """The compiled rebuild keeps the run book itself; along the same walk
    the Python bookkeeping lists the same runs and sets in the same order."""
    rng = random.Random(300 + seed)
    table, hand = two_deck_position(rng, jokers=(0, 1, 2, 4)[seed % 4])
    sweep = _Sweep(_Model(table, hand, MeldRules(), lambda c: 1), None)
    sweep.solve()
    runs_state, msum, jl, res = sweep.root
    walked = sweep._c.rebuild((0, 0, runs_state, msum, jl, res, sweep.value), sweep._limits())
    assert walked is not None
    compiled = sweep._compiled_rebuild(*walked)
    c = sweep._c

    class WalkOnly:
        """The compiled search with its run book withheld."""

        def __getattr__(self, name):
            return getattr(c, name)

        def rebuild(self, *args):
            return None

    sweep._c = WalkOnly()
    assert sweep.rebuild() == compiled
    assert compiled[0] or compiled[1]
