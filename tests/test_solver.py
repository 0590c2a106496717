"""The exact solver (rami_core/solver/): optimum against a brute force,
every answer re-checked by read_meld and card conservation, known positions,
best openings and lay offs."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rami_core.cards import JOKER_SUIT, Card, parse_cards
from rami_core.cards.melds import MeldRules, meld_points, read_meld
from rami_core.profile.model import Opening
from rami_core.solver import SolverOptions, best_lay_offs, best_opening, check_solution, solve
from rami_core.solver import lp as solver_lp
from rami_core.solver.results import NEG
from rami_core.solver.sweep import _Model, _Sweep

DEFAULT = MeldRules()
ACE_LOW = MeldRules(ace_high=False)


def cards(text: str, start_copy: int = 0) -> list[Card]:
    """Parse cards and number equal faces as distinct copies (two decks)."""
    seen: Counter = Counter()
    out = []
    for c in parse_cards(text):
        out.append(Card(c.rank, c.suit, start_copy + seen[c[:2]]))
        seen[c[:2]] += 1
    return out


def two(table: str, hand: str) -> tuple[list[Card], list[Card]]:
    t = cards(table)
    h = cards(hand, start_copy=0)
    # hand copies differ from table copies of the same face
    used = Counter(c for c in t)
    fixed = []
    for c in h:
        copy = c.copy
        while used[Card(c.rank, c.suit, copy)]:
            copy += 1
        used[Card(c.rank, c.suit, copy)] += 1
        fixed.append(Card(c.rank, c.suit, copy))
    return t, fixed


def checked(table, hand, rules, **kw):
    sol = solve(table, hand, rules, **kw)
    assert check_solution(table, hand, sol, rules) is None
    assert sol.optimal
    return sol


# --------------------------------------------------------------------------- brute force


def brute_force(table: list[Card], hand: list[Card], rules: MeldRules) -> int:
    """The most hand cards laid, by trying every subset of the hand (largest
    first) and every partition of table + subset into melds valid by read_meld."""

    @cache
    def partition(rest: tuple[Card, ...]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for n in range(1, min(len(others), 13) + 1):
            for combo in combinations(range(len(others)), n):
                meld = [first] + [others[i] for i in combo]
                if read_meld(meld, rules) is None:
                    continue
                left = tuple(c for i, c in enumerate(others) if i not in combo)
                if partition(left):
                    return True
        return False

    for k in range(len(hand), -1, -1):
        for sub in combinations(hand, k):
            if partition(tuple(sorted(table + list(sub)))):
                return k
    return -1


# Small positions: a few ranks so that melds actually form.
RANKS = [1, 2, 3, 4, 11, 12, 13]


MELD_FACES = (
    [[(r, s) for r in (a, a + 1, a + 2)] for s in range(4) for a in (1, 2, 11)]
    + [[(12, s), (13, s), (1, s)] for s in range(4)]
    + [[(r, s) for s in suits] for r in RANKS for suits in ((0, 1, 2), (1, 2, 3), (0, 1, 2, 3))]
)


@st.composite
def positions(draw):
    """(table, hand): the table is 0-2 melds written from MELD_FACES (some with
    a joker in place of a card), the hand up to 6 cards from what is left."""
    pool = {(r, s): [Card(r, s, 1), Card(r, s, 0)] for r in RANKS for s in range(4)}
    jokers = [Card(0, JOKER_SUIT, i) for i in range(draw(st.integers(0, 2)))]
    table: list[Card] = []
    for faces in draw(st.lists(st.sampled_from(MELD_FACES), max_size=2)):
        if any(not pool[f] for f in faces):
            continue
        meld = [pool[f].pop() for f in faces]
        if jokers and draw(st.booleans()):
            i = draw(st.integers(0, len(meld) - 1))
            pool[meld[i][:2]].append(meld[i])
            meld[i] = jokers.pop()
        table += meld
    rest = [c for lst in pool.values() for c in lst] + jokers
    hand = draw(st.lists(st.sampled_from(sorted(rest)), max_size=6, unique=True))
    return table, hand


def small_case(pos, rules):
    """(table, hand) for a brute-force check: at most 5 hand cards, and the
    generated table kept only if it is valid as it stands (else no table)."""
    table_try, hand = pos
    table = table_try if brute_force(table_try, [], rules) == 0 else []
    return table, hand[:5]


rules_strategy = st.builds(
    MeldRules,
    ace_low=st.booleans(),
    ace_high=st.booleans(),
    max_jokers=st.sampled_from([None, 1]),
    min_naturals=st.sampled_from([1, 2]),
    set_distinct_suits=st.just(True),
).filter(lambda r: r.ace_low or r.ace_high)


@settings(max_examples=80)
@given(positions(), rules_strategy)
def test_optimum_equals_brute_force(pos, rules):
    table, hand = small_case(pos, rules)
    expected = brute_force(table, hand, rules)
    sol = checked(table, hand, rules)
    assert sol.max_cards_laid == expected


@settings(max_examples=25)
@given(positions())
def test_wrap_search_equals_brute_force(pos):
    rules = MeldRules(wrap=True)
    table, hand = small_case(pos, rules)
    sol = checked(table, hand, rules)
    assert sol.max_cards_laid == brute_force(table, hand, rules)


@settings(max_examples=30)
@given(positions(), st.sampled_from([DEFAULT, ACE_LOW]))
def test_points_objective_is_best_points(pos, rules):
    table, hand = small_case(pos, rules)
    value = lambda c: 50 if c.suit == JOKER_SUIT else (11 if c.rank == 1 else min(c.rank, 10))  # noqa: E731
    sol = checked(table, hand, rules, objective="points", points=value)
    # brute force on points: every subset that can go down
    best = 0
    for k in range(len(hand), -1, -1):
        for sub in combinations(hand, k):
            pts = sum(value(c) for c in sub)
            if pts > best and brute_force(table, list(sub), rules) == len(sub):
                best = pts
    assert sol.points_laid == best


# --------------------------------------------------------------------------- known positions


@pytest.mark.parametrize(
    "table, hand, laid",
    [
        ("8S 8H 8D 8C", "6H 7H", 2),  # Ramio's example: take the 8H into 6-7-8H
        ("3C 4C 5C 6C 7C", "5C", 1),  # split a run by its duplicate
        ("9D 10D JD QD", "QS QH", 2),  # take the QD into a set of queens
        ("", "AS 2S 3S 4S JK QH QD", 7),
        ("QS KS AS", "JS 2S 3S", 3),  # the ace high at the table, low in the hand? no: two aces needed
        ("5S 6S JK", "8S 9S", 2),  # the joker becomes the 7S
        ("5S 6S 7S", "KD", 0),
        ("JK 4H 4D", "4S", 1),
    ],
)
def test_known_positions(table, hand, laid):
    t, h = two(table, hand)
    sol = checked(t, h, DEFAULT)
    assert sol.max_cards_laid == laid


def test_one_physical_ace_is_used_once():
    # A-2-3 and Q-K-A of spades need two aces; with one, only one run forms
    t, h = two("", "AS 2S 3S QS KS")
    sol = checked(t, h, DEFAULT)
    assert sol.max_cards_laid == 3
    t, h = two("", "AS AS 2S 3S QS KS")
    assert checked(t, h, DEFAULT).max_cards_laid == 6


def test_ace_low_only_and_high_only():
    t, h = two("", "QS KS AS")
    assert checked(t, h, ACE_LOW).max_cards_laid == 0
    assert checked(t, h, MeldRules(ace_low=False)).max_cards_laid == 3
    t, h = two("", "AS 2S 3S")
    assert checked(t, h, MeldRules(ace_low=False)).max_cards_laid == 0


def test_jokers_per_meld_and_min_naturals():
    t, h = two("", "5S JK JK")
    assert checked(t, h, DEFAULT).max_cards_laid == 3
    assert checked(t, h, MeldRules(max_jokers=1)).max_cards_laid == 0
    assert checked(t, h, MeldRules(min_naturals=2)).max_cards_laid == 0


def test_table_jokers_must_stay_down():
    t, h = two("5S 6S JK", "")
    sol = checked(t, h, DEFAULT)
    assert sol.max_cards_laid == 0 and sum(len(m) for m in sol.melds) == 3


def test_unarrangeable_table_is_returned_as_is():
    t, h = two("5S 9D", "7C")
    sol = solve(t, h, DEFAULT)
    assert not sol.feasible and sol.max_cards_laid == 0


def test_points_objective_prefers_expensive_cards():
    # either 2-3-4S or the three kings: cards tie, points pick the kings
    t, h = two("", "2S 3S 4S KS KH KD")
    assert checked(t, h, DEFAULT).max_cards_laid == 6
    t, h = two("", "2S 3S 4S KS KH JK")
    sol = checked(t, h, MeldRules(max_jokers=1), objective="points")
    assert sol.points_laid >= 30


def test_larger_two_deck_position():
    t, h = two(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 7H 7D 7C 3H 4H 5H 6H QD QC QH KD KC KH",
        "8H 9H 2S JS QS KS 7S 4D 5D 6D JK",
    )
    sol = checked(t, h, DEFAULT)
    assert sol.max_cards_laid == 11


def test_no_run_holds_the_ace_at_both_ends():
    """With the ace low and high, A-2-...-K-A would be fourteen cards: the
    sweep once built it from two table runs (a voleur game found it)."""
    both = MeldRules(ace_low=True, ace_high=True)
    t, h = two("AC 2C 3C QH QD QC 10C JC JK KC AC 5C 6C 7C 8C 9C JK 5H 6H 7H 8H 7H 7D 7C", "3S")
    sol = checked(t, h, both)
    assert sol.max_cards_laid == 0
    assert all(len(m) <= 13 for m in sol.melds)
    t, h = two("", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")
    sol = checked(t, h, both)
    assert sol.max_cards_laid == 14 and len(sol.melds) == 2


def test_state_limit_cuts_the_search():
    """A count limit, unlike seconds, gives the same answer under any load:
    too few states and the answer is 'not proven' with the best arrangement
    found (the LP's, or without it the table as it was, nothing laid); enough
    and it is the optimum."""
    t, h = two(
        "8H 8D 8S 8C 5D 5C 5H 4D 5D 6D 7D 8D 9D 4D 4S 4C 4H AC AD AS AH 7D 7H 7C 7S",
        "3D 9D 10H KS 4S JS JS 2H 10S QS 5C 7C AD 2D 6S 8S JD",
    )
    cut = solve(t, h, DEFAULT, max_states=5)
    assert not cut.optimal and cut.feasible and cut.laid == [] and cut.max_cards_laid == 0
    assert Counter(c for m in cut.melds for c in m) == Counter(t)
    asked = SolverOptions(lp_after=2)
    best_found = solve(t, h, DEFAULT, max_states=600, options=asked)
    assert not best_found.optimal and best_found.feasible and best_found.max_cards_laid > 0
    assert check_solution(t, h, best_found, DEFAULT) is None
    assert solve(t, h, DEFAULT, max_states=600, options=asked).melds == best_found.melds  # deterministic
    full = solve(t, h, DEFAULT, max_states=10**7)
    assert full.optimal and full.max_cards_laid >= best_found.max_cards_laid
    assert (full.max_cards_laid, full.points_laid) >= (best_found.max_cards_laid, best_found.points_laid)
    wrap = MeldRules(wrap=True)
    assert not solve(t, h, wrap, max_states=3).optimal


# --------------------------------------------------------------------------- openings


RAMI51 = Opening(points=51, pure_run=True)
RAMI71 = Opening(points=71, jokers=False, run_and_set=True)


def opening_points(melds, rules):
    return sum(meld_points(read_meld(m, rules)) for m in melds)


def test_rami51_opening_with_pure_run_and_kings():
    h = cards("9H 10H JH KS KH KC 2C 5D")
    melds = best_opening(h, DEFAULT, RAMI51)
    assert melds is not None
    assert sorted(len(m) for m in melds) == [3, 3]
    assert opening_points(melds, DEFAULT) == 59


def test_rami51_sixty_points_without_pure_run_fails():
    h = cards("10S JK QS 10H QH") + [Card(0, JOKER_SUIT, 1)]
    assert best_opening(h, DEFAULT, RAMI51) is None
    melds = best_opening(h, DEFAULT, Opening(points=51))
    assert melds is not None and opening_points(melds, DEFAULT) >= 60


def test_rami71_without_joker_with_run_and_set():
    h = cards("JS QS KS AS 10H 10D 10C 4D")
    melds = best_opening(h, DEFAULT, RAMI71)
    assert melds is not None
    assert opening_points(melds, DEFAULT) == 71
    assert all(c.suit != JOKER_SUIT for m in melds for c in m)
    h2 = cards("QS KS AS 10H 10D 10C 4D") + [Card(0, JOKER_SUIT, 0)]
    assert best_opening(h2, DEFAULT, RAMI71) is None  # 61 without the joker, and no joker allowed
    h3 = cards("JS QS KS AS 2D 3D 4D 5D 6D 7D")
    assert best_opening(h3, DEFAULT, RAMI71) is None  # no set


def test_opening_ace_low_counts_one():
    h = cards("AS 2S 3S 4S")
    melds = best_opening(h, DEFAULT, Opening(points=10))
    assert melds is not None and opening_points(melds, DEFAULT) == 10
    assert best_opening(h, DEFAULT, Opening(points=11)) is None


def test_opening_melds_come_from_the_hand():
    h = cards("5C 6C 7C 8C 9C 9D 9H KS")
    melds = best_opening(h, DEFAULT, Opening(points=30))
    laid = [c for m in melds for c in m]
    assert not Counter(laid) - Counter(h)
    assert len(laid) == 7  # 5-6-7-8C and 9C 9D 9H


# --------------------------------------------------------------------------- lay offs


def test_best_lay_offs_positional():
    run = read_meld(cards("5H 6H 7H"), DEFAULT)
    nines = read_meld(cards("9S 9H 9D"), DEFAULT)
    h = cards("4H 8H 9C 2S 3S 4S KD")
    plan = best_lay_offs([run, nines], h, DEFAULT)
    assert plan.cards_laid == 6
    assert plan.readings[0].start == 4 and plan.readings[0].end == 8
    assert len(plan.readings[1].cards) == 4
    assert [sorted(str(c) for c in m) for m in plan.new_melds] == [["2S", "3S", "4S"]]


def test_lay_offs_respect_joker_places():
    # 5H JK 7H: the joker stands for the 6H; the 6H cannot be laid off onto it
    run = read_meld([Card(5, 1, 0), Card(0, JOKER_SUIT, 0), Card(7, 1, 0)], DEFAULT)
    plan = best_lay_offs([run], [Card(6, 1, 1)], DEFAULT)
    assert plan.cards_laid == 0
    plan = best_lay_offs([run], [Card(8, 1, 0), Card(0, JOKER_SUIT, 1)], DEFAULT)
    assert plan.cards_laid == 2


# --------------------------------------------------------------------------- the search bound


@settings(max_examples=40)
@given(positions(), rules_strategy)
def test_relaxation_bound_is_admissible(pos, rules):
    """The per-suit relaxation at the root never promises less than the optimum
    (an inadmissible bound would cut optimal lays), and the search with the
    bound finds what the search without it finds."""
    table, hand = small_case(pos, rules)
    weight = lambda c: 100 + (25 if c.suit == JOKER_SUIT else min(c.rank, 10))  # noqa: E731
    sweep = _Sweep(_Model(table, hand, rules, weight), None)
    sweep.gran = 100
    value = sweep.solve()
    bound = sweep.relaxed_bound(0, 0, sweep.root[0], sweep.m.J, sweep.root[3])
    assert bound >= value
    plain = _Sweep(_Model(table, hand, rules, weight), None)
    plain.use_h = False
    assert plain.solve() == value


@st.composite
def set_prices(draw, table, hand):
    """Duals for :meth:`_Sweep.price_sets`: any prices at all (the bound is
    admissible for every choice, not only the LP's), per face present."""
    faces = sorted({c[:2] for c in table + hand if c.suit != JOKER_SUIT})
    return {f: draw(st.sampled_from([-3.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 7.0])) for f in faces}


@settings(max_examples=60, deadline=None)
@given(positions(), rules_strategy, st.data())
def test_the_priced_relaxation_is_admissible_for_any_prices(pos, rules, data):
    """The relaxation with the sets priced (Lagrange) bounds the optimum from
    above whatever the prices: at the root, and through the search, which
    finds with it the optimum the brute force finds."""
    table, hand = small_case(pos, rules)
    duals = data.draw(set_prices(table, hand))
    best = brute_force(table, hand, rules)
    sweep = _Sweep(_Model(table, hand, rules, lambda c: 1), None)
    sweep.price_sets(duals)
    value = sweep.solve()
    if best < 0:
        assert value == NEG
        return
    assert value == best
    bound = sweep.relaxed_bound(0, 0, ((),) * 4, sweep.m.J, ((0, 0),) * 4)
    assert sweep._priced_bound(0, 0, ((),) * 4, sweep.m.J, ((0, 0),) * 4) >= best
    assert bound >= best


def test_the_lp_duals_make_the_priced_relaxation_as_tight_as_the_lp():
    """On a table where sets couple the suits, the plain relaxation promises
    more than the LP; priced by the LP's duals it promises no more than the
    LP's bound (the suits' programs are integral, the LP's columns are not)."""
    t, h = two("5S 5H 5D 6S 6H 6D 7S 7H 7D", "8S 8H 8D 5C 6C 4S 4H 9C")
    m = _Model(t, h, DEFAULT, lambda c: 1)
    lp = solver_lp.lp_solve(m.t, m.a, m.JT, m.J, m.w, m.wj, DEFAULT, integer=False)
    assert lp is not None and lp.duals is not None
    sweep = _Sweep(m, None)
    sweep.solve()
    root = (((),) * 4, ((0, 0),) * 4)
    plain = sweep.relaxed_bound(0, 0, root[0], m.J, root[1])
    sweep.price_sets(lp.duals)
    priced = sweep._priced_bound(0, 0, root[0], m.J, root[1])
    assert priced <= lp.bound < plain
    assert sweep.relaxed_bound(0, 0, root[0], m.J, root[1]) == min(plain, priced)
    plain_search = _Sweep(_Model(t, h, DEFAULT, lambda c: 1), None)
    plain_search.use_h = False
    assert priced >= sweep.value == plain_search.solve()


# The LP's relaxation asked at the first search state: its duals price the sets.
PRICED_AT_ONCE = SolverOptions(relax_after=1, lp_after=10**6)


@settings(max_examples=60, deadline=None)
@given(positions(), rules_strategy, st.sampled_from(["cards", "points"]))
def test_the_priced_search_equals_brute_force(pos, rules, objective):
    table, hand = small_case(pos, rules)
    value = lambda c: 50 if c.suit == JOKER_SUIT else (11 if c.rank == 1 else min(c.rank, 10))  # noqa: E731
    sol = checked(table, hand, rules, objective=objective, points=value, options=PRICED_AT_ONCE)
    plain = solve(
        table,
        hand,
        rules,
        objective=objective,
        points=value,
        options=SolverOptions(use_lp=False, priced=False),
    )
    assert (sol.max_cards_laid, sol.points_laid) == (plain.max_cards_laid, plain.points_laid)
    if objective == "cards":
        assert sol.max_cards_laid == brute_force(table, hand, rules)


# --------------------------------------------------------------------------- fast paths


def test_table_joker_goes_into_a_set_that_needs_none():
    # the three fours need no joker, but the table joker must stay down: in the set
    t, h = two("4H 4D 4C JK", "")
    sol = checked(t, h, ACE_LOW)
    assert sol.max_cards_laid == 0 and sum(len(m) for m in sol.melds) == 4


def test_table_joker_is_placed_by_splitting_a_full_run():
    # the ace completes A..K (13 cards, full): no room is left for the joker
    # unless the run is split
    t, h = two("JK 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AS")
    sol = checked(t, h, ACE_LOW)
    assert sol.max_cards_laid == 1


def test_two_fours_and_a_table_joker_lay_one():
    t, h = two("4H 4D JK", "4C 4S")
    sol = checked(t, h, ACE_LOW)
    assert sol.max_cards_laid == 1 == brute_force(t, h, ACE_LOW)


# The certified LP path asked at the first search state (not only on hard positions).
LP_AT_ONCE = SolverOptions(lp_after=1)


@settings(max_examples=60, deadline=None)
@given(positions(), rules_strategy)
def test_lp_path_equals_brute_force(pos, rules):
    table, hand = small_case(pos, rules)
    sol = checked(table, hand, rules, options=LP_AT_ONCE)
    assert sol.max_cards_laid == brute_force(table, hand, rules)


@settings(max_examples=25, deadline=None)
@given(positions(), st.sampled_from([DEFAULT, ACE_LOW]))
def test_lp_path_points_objective(pos, rules):
    table, hand = small_case(pos, rules)
    value = lambda c: 50 if c.suit == JOKER_SUIT else (11 if c.rank == 1 else min(c.rank, 10))  # noqa: E731
    sol = checked(table, hand, rules, objective="points", points=value, options=LP_AT_ONCE)
    plain = solve(table, hand, rules, objective="points", points=value, options=SolverOptions(use_lp=False))
    assert (sol.points_laid, sol.max_cards_laid) == (plain.points_laid, plain.max_cards_laid)


def test_lp_path_is_taken_and_certified(monkeypatch):
    seen = []
    real = solver_lp.lp_solve

    def spy(*args, **kw):
        res = real(*args, **kw)
        seen.append(res)
        return res

    monkeypatch.setattr(solver_lp, "lp_solve", spy)
    t, h = two(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 7H 7D 7C 3H 4H 5H 6H QD QC QH KD KC KH",
        "8H 9H 2S JS QS KS 7S 4D 5D 6D JK",
    )
    sol = checked(t, h, DEFAULT, options=LP_AT_ONCE)
    assert sol.max_cards_laid == 11
    assert seen and seen[0] is not None


@settings(max_examples=40, deadline=None)
@given(positions(), rules_strategy)
def test_lp_certificate_is_an_upper_bound(pos, rules):
    """The exact dual bound of rami_core.solver.lp never falls below the optimum,
    and a proven arrangement is worth exactly the optimum."""
    table, hand = small_case(pos, rules)
    if not table:
        return
    weight = lambda c: 1  # noqa: E731
    m = _Model(table, hand, rules, weight)
    res = solver_lp.lp_solve(m.t, m.a, m.JT, m.J, m.w, m.wj, rules)
    best = brute_force(table, hand, rules)
    if res is None:
        return
    assert res.bound >= best
    if res.proven:
        assert res.value == best


@settings(max_examples=40, deadline=None)
@given(positions(), rules_strategy, st.sampled_from([(1, 0), (101, 25), (7, 3)]))
def test_the_certificate_sums_alike_in_int64_and_in_python_integers(pos, rules, weights):
    """The dual bound is summed in int64 where its terms are known to fit,
    else in Python integers: both give the same bound, for the same duals."""
    table, hand = pos
    if not table or read_meld(table, rules) is None:
        return
    big, per_rank = weights
    weight = lambda c: big + per_rank * c.rank  # noqa: E731
    m = _Model(table, hand, rules, weight)
    fast = solver_lp.lp_solve(m.t, m.a, m.JT, m.J, m.w, m.wj, rules, integer=False)
    saved = solver_lp._Z_MAX
    solver_lp._Z_MAX = 0
    try:
        slow = solver_lp.lp_solve(m.t, m.a, m.JT, m.J, m.w, m.wj, rules, integer=False)
    finally:
        solver_lp._Z_MAX = saved
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert fast.bound == slow.bound


# --------------------------------------------------------------------------- openings: long runs


@st.composite
def opening_hands(draw):
    """Hands of 6-15 cards from a few suits and a stretch of ranks, with up to
    four jokers: long runs, and runs that could split, are common."""
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    lo = draw(st.integers(1, 6))
    ranks = range(lo, lo + draw(st.integers(5, 13)))
    pool = sorted(Card((r - 1) % 13 + 1, s, k) for r in ranks for s in suits for k in (0, 1))
    pool += [Card(0, JOKER_SUIT, k) for k in range(4)]
    return draw(st.lists(st.sampled_from(pool), min_size=6, max_size=15, unique=True))


opening_specs = st.sampled_from(
    [
        Opening(points=51, pure_run=True),
        RAMI71,
        Opening(points=0),
        Opening(points=40),
        Opening(points=30, run_and_set=True),
    ]
)
opening_rules = st.sampled_from(
    [
        DEFAULT,
        ACE_LOW,
        MeldRules(max_jokers=1),
        MeldRules(min_naturals=2),
        MeldRules(run_min=4),
        MeldRules(wrap=True),
        MeldRules(max_jokers=3),
    ]
)


# What the split-run check draws, in its quick run and its slow twin alike.
split_run_cases = (opening_hands(), opening_specs, opening_rules)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(*split_run_cases)
def test_opening_without_splittable_runs_loses_nothing(hand, spec, rules):
    """best_opening leaves out runs that split into two valid runs; against the
    search over every run window it finds the same card count and points."""

    def value(melds):
        if melds is None:
            return None
        for m in melds:
            assert read_meld(m, rules) is not None
        return sum(len(m) for m in melds), sum(meld_points(read_meld(m, rules)) for m in melds)

    fast = best_opening(hand, rules, spec)
    full = best_opening(hand, rules, spec, options=SolverOptions(split_long_runs=False))
    assert value(fast) == value(full)


# 40 hands in the default run, the 150 first checked in the slow run (same body).
test_opening_without_splittable_runs_loses_nothing_many = pytest.mark.slow(
    settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])(
        given(*split_run_cases)(test_opening_without_splittable_runs_loses_nothing.hypothesis.inner_test)
    )
)

# --------------------------------------------------------------------------- large tables


def _random_table(rnd, rules: MeldRules):
    """A valid two-deck table of random runs and sets (two jokers), and a hand
    drawn from what is left: the sizes a voleur table reaches late in a round."""
    from rami_core.cards import build_deck
    from rami_core.cards.melds import rank_at

    left = build_deck(2, 2)
    rnd.shuffle(left)
    lo, hi = (1 if rules.ace_low else 2), (14 if rules.ace_high else 13)
    wants: list[list[tuple[int, int]]] = []
    for _ in range(rnd.randint(2, 16)):
        roll = rnd.random()
        if roll < 0.15:
            # a whole suit, lowest place to highest, in touching runs: the
            # sweep must never join them into one run of more than 13 cards
            suit, (c1, c2) = rnd.randrange(4), sorted(rnd.sample(range(lo + 3, hi - 2), 2))
            wants += [
                [(rank_at(p), suit) for p in range(a, b)]
                for a, b in ((lo, c1), (c1, c2), (c2, hi + 1))
                if b - a >= 3
            ]
        elif roll < 0.55:
            suit, n = rnd.randrange(4), rnd.choice([3, 3, 4, 5, 6, 7, 9, 11, 13])
            start = rnd.randint(lo, hi - n + 1)
            wants.append([(rank_at(start + i), suit) for i in range(n)])
        else:
            rank = rnd.randint(1, 13)
            wants.append([(rank, s) for s in rnd.sample(range(4), rnd.randint(3, 4))])
    melds: list[list[Card]] = []
    for want in wants:
        meld = []
        for f in want:
            c = next((c for c in left if c[:2] == f), None)
            if c is None or rnd.random() < 0.08:
                c = next((c for c in left if c.suit == JOKER_SUIT), None)
            if c is None:
                break
            meld.append(c)
            left.remove(c)
        if len(meld) == len(want) and read_meld(meld, rules) is not None:
            melds.append(meld)
        else:
            left += meld
    hand = left[: rnd.randint(0, 20)]
    return melds, hand


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([DEFAULT, ACE_LOW, MeldRules(ace_low=False, ace_high=True), MeldRules(max_jokers=1)]),
)
def test_large_tables_are_rebuilt_validly(seed, rules):
    """Large positions, beyond the brute force's reach: the answer (proven or
    cut by the state limit) keeps every table card in valid melds. (The
    A..K..A run, found at this size, needs rarer positions than this draws
    often: test_no_run_holds_the_ace_at_both_ends pins it. A seed, not
    st.randoms: a shuffled deck is too much drawn data for hypothesis's
    health checks.)"""
    import random

    melds, hand = _random_table(random.Random(seed), rules)
    sol = solve(melds, hand, rules, max_states=5000)
    assert check_solution([c for m in melds for c in m], hand, sol, rules) is None
    assert sol.feasible


# --------------------------------------------------------------------------- two phases, options, input checks


@settings(max_examples=80, deadline=None)
@given(positions(), rules_strategy)
def test_two_phases_equal_one_search(pos, rules):
    """The most cards first, then the most points among them, is the one
    search of the combined weight: same card count, same points."""
    table, hand = small_case(pos, rules)
    two_phases = checked(table, hand, rules)
    one = checked(table, hand, rules, options=SolverOptions(two_phase=False))
    assert (two_phases.max_cards_laid, two_phases.points_laid) == (one.max_cards_laid, one.points_laid)


@settings(max_examples=60, deadline=None)
@given(positions(), rules_strategy, st.sampled_from([0, 1, 4, 25]))
def test_the_relaxation_built_mid_search_keeps_the_optimum(pos, rules, relax_from):
    """The search may run on the hand's potential and build the relaxation
    after ``relax_from`` states (at once with 0): the memo it found so far
    stays valid, and the optimum, points included, is the same."""
    table, hand = small_case(pos, rules)
    sol = checked(table, hand, rules, options=SolverOptions(relax_from=relax_from, use_lp=False))
    plain = checked(table, hand, rules, options=SolverOptions(relaxation=False, use_lp=False))
    assert sol.max_cards_laid == brute_force(table, hand, rules)
    assert (sol.max_cards_laid, sol.points_laid) == (plain.max_cards_laid, plain.points_laid)


@settings(max_examples=40, deadline=None)
@given(positions(), rules_strategy)
def test_points_tie_break_by_the_fixed_count_lp(pos, rules):
    """The LP asked at once for the points (the card count fixed by one more
    row) gives the same optimum as the search alone."""
    table, hand = small_case(pos, rules)
    lp_first = checked(table, hand, rules, options=SolverOptions(lp_after=1))
    plain = checked(table, hand, rules, options=SolverOptions(use_lp=False, two_phase=False))
    assert (lp_first.max_cards_laid, lp_first.points_laid) == (plain.max_cards_laid, plain.points_laid)


def test_a_cut_points_search_keeps_the_proven_card_count():
    # 10C cannot be laid: 11 of the 12 cards go down, and which 11 (the points)
    # is the second search's question, cut here after one state
    t, h = two(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 7H 7D 7C 3H 4H 5H 6H QD QC QH KD KC KH",
        "8H 9H 2S JS QS KS 7S 4D 5D 6D JK 10C",
    )
    sol = solve(t, h, DEFAULT, options=SolverOptions(points_states=1, use_lp=False))
    assert check_solution(t, h, sol, DEFAULT) is None
    assert sol.cards_optimal and not sol.optimal and sol.max_cards_laid == 11
    full = solve(t, h, DEFAULT)
    assert full.optimal and full.max_cards_laid == 11 and full.points_laid > sol.points_laid


def test_laying_the_whole_hand_needs_no_points_search():
    # every hand card goes down: no lay can have more points, whatever the budget
    t, h = two(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 7H 7D 7C 3H 4H 5H 6H QD QC QH KD KC KH",
        "8H 9H 2S JS QS KS 7S 4D 5D 6D JK",
    )
    sol = solve(t, h, DEFAULT, options=SolverOptions(points_states=1, use_lp=False))
    assert sol.optimal and sol.max_cards_laid == len(h)


def test_check_position_refuses_what_the_deck_cannot_hold():
    from rami_core.solver import SolverInputError, check_position

    check_position(cards("8S 8S JK"), decks=2, jokers=1)
    for text, decks, jokers, says in [
        ("8S 8S 8S", 2, 2, "3 copies of 8S"),
        ("JK JK JK", 2, 2, r"3 joker\(s\) in the table"),
        ("JK", 1, 0, "has no jokers"),
        ("2S 3S 4S", 1, 0, None),
    ]:
        if says is None:
            check_position(cards(text), decks=decks, jokers=jokers)
            continue
        with pytest.raises(SolverInputError, match=says):
            check_position(cards(text), decks=decks, jokers=jokers)
    with pytest.raises(SolverInputError, match="deck holds 1"):
        check_position(cards("JK JK"), decks=0, jokers=1)


def test_points_objective_is_not_solved_cards_first():
    """Regression: the two-phase search (cards, then points) is for the cards
    objective only. For points, AS AH laid as a set with the table joker (22)
    beats AS 2S in a run with it (13), though both lay two cards."""
    table = [Card(0, JOKER_SUIT, 0), Card(1, 1, 0), Card(1, 2, 0), Card(1, 3, 0)]
    hand = [Card(1, 0, 0), Card(1, 1, 1), Card(2, 0, 0)]
    value = lambda c: 50 if c.suit == JOKER_SUIT else (11 if c.rank == 1 else min(c.rank, 10))  # noqa: E731
    sol = checked(table, hand, DEFAULT, objective="points", points=value)
    assert sol.points_laid == 22


def _reference_columns(a: Counter, J: int, rules: MeldRules) -> list:
    """The LP's columns written plainly (every window, every choice of places
    for its jokers), the twin of the cached per-suit and per-window tables of
    rami_core.solver.lp.columns."""
    L, N, K = max(1, rules.run_min), max(1, rules.min_naturals), rules.max_jokers
    jm = J if K is None else min(J, K)
    lo, hi = (1 if rules.ace_low else 2), (14 if rules.ace_high else 13)
    out: dict = {}
    for s in range(4):
        for p0 in range(lo, hi - L + 2):
            for n in range(L, min(13, hi - p0 + 1) + 1):
                have = [a.get((1 if p == 14 else p, s), 0) > 0 for p in range(p0, p0 + n)]
                missing = [i for i in range(n) if not have[i]]
                present = [i for i in range(n) if have[i]]
                for extra in range(max(-1, jm - len(missing)) + 1):
                    for drop in combinations(present, extra):
                        jset = set(missing) | set(drop)
                        nat = n - len(jset)
                        if nat < N:
                            continue
                        pre, split = 0, False
                        for k in range(1, n):
                            pre += 0 if (k - 1) in jset else 1
                            split = split or (n >= 2 * L and L <= k <= n - L and pre >= N and nat - pre >= N)
                        if split:
                            continue
                        faces = tuple(
                            sorted((1 if p0 + i == 14 else p0 + i, s) for i in range(n) if i not in jset)
                        )
                        items = ["J" if i in jset else "N" for i in range(n)]
                        out.setdefault((faces, len(jset)), ("run", s, p0, items))
    return [(k[0], k[1], v) for k, v in out.items() if v[0] == "run"]


@settings(max_examples=60, deadline=None)
@given(positions(), rules_strategy)
def test_lp_columns_from_cached_tables_are_every_run_in_order(pos, rules):
    """The LP's run columns, built from tables cached per suit pattern and per
    window, are every run a plain listing finds, in the same order (the
    column order decides which of equal optima HiGHS returns, so a seeded
    game depends on it), asked cold and asked again."""
    table, hand = pos
    m = _Model(table, hand, rules, lambda c: 1)
    solver_lp._suit_runs.cache_clear()
    solver_lp._window_runs.cache_clear()
    first = solver_lp.columns(m.a, m.J, rules)
    again = solver_lp.columns(m.a, m.J, rules)
    runs = [col for col in first if col[2][0] == "run"]
    assert first == again
    assert runs == _reference_columns(m.a, m.J, rules)
