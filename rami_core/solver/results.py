"""What the solver returns, how it may be tuned, and how it refuses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rami_core.cards import Card, card_points
from rami_core.cards.melds import Reading
from rami_core.words.errors import RamiError

NEG = -(10**18)

# Search states a solve may spend when the caller names no limit: a count, not
# a clock, so the same input gives the same answer on any machine under any
# load. Past it the answer is "not proven" with the best arrangement found.
DEFAULT_MAX_STATES = 300_000


class SolverTimeout(Exception):
    """Raised inside the search when its time or state limit is reached."""


class SolverInputError(RamiError, ValueError):
    """The position itself is wrong (more copies of a card than the decks hold,
    jokers the game does not have, a table that cannot be arranged): the
    caller's input, reported in one line, never a bug."""


@dataclass(frozen=True)
class SolverOptions:
    """How the search runs; every choice keeps the answer exact.

    ``relaxation``: the per-suit relaxation bound (False: the plain hand
    potential, the reference the tests compare with); ``relax_from``: search
    states on the hand's potential alone before the relaxation is built (it
    solves every suit's program for every joker count, which costs more
    than the whole search on most positions; the points search after the
    card count waits a sixteenth of it), 0: at once; a solve whose
    state limit is under ``RELAX_FROM_SHARE`` times that builds it at once,
    since a small limit needs its pruning from the first state; ``use_lp``: the
    certified linear program on hard positions (needs highspy); ``relax_after``:
    search states before the LP's relaxation alone is asked, for its exact
    bound (a cap that spares the search its rounds of proving that more
    cards cannot be laid), None: never; ``lp_after``: search states before
    the LP is asked with HiGHS's integer search; ``split_long_runs``: best_opening
    leaves out runs that split into two valid runs (False: every run window);
    ``two_phase``: for the cards objective with a table, prove the most cards
    first, then the most points among lays of that many (False: one search
    of the combined weight); ``points_states``: the state budget of that
    second search (the card count is proven by then; only the tie-break among
    equal counts is at stake); ``compiled``: run the search in its C twin
    where it was built (False: the Python search); ``priced``: once the LP's
    relaxation is asked, its duals price the cards the relaxation sends to
    sets, which couples the suits (``_Sweep.price_sets``), and a two-phase
    solve asks the program of the combined weight, whose duals then price
    both searches (False: the relaxation as it was, the LP's bound only a cap).

    ``relax_from``, ``relax_after``, ``lp_after`` and ``points_states`` left at None take
    :data:`SEARCH_DEFAULTS`, the same counts of states for the compiled and the
    Python search: given the same numbers the two visit the same states and
    return the same answer, arrangement included, so a seeded game (the bots
    solve as they play) is the same game whether or not the C search was built."""

    relaxation: bool = True
    relax_from: int | None = None
    use_lp: bool = True
    relax_after: int | None = None
    lp_after: int | None = None
    split_long_runs: bool = True
    two_phase: bool = True
    points_states: int | None = None
    compiled: bool = True
    priced: bool = True

    def settled(self, compiled: bool) -> SolverOptions:
        """These options with every default filled in for the search that runs
        (``compiled``: the C search is available and asked for; it changes how
        the states are visited, never which, nor the budgets)."""
        relax_from, relax_after, lp_after, points_states = SEARCH_DEFAULTS
        return replace(
            self,
            compiled=compiled,
            relax_from=relax_from if self.relax_from is None else self.relax_from,
            relax_after=relax_after if self.relax_after is None else self.relax_after,
            lp_after=lp_after if self.lp_after is None else self.lp_after,
            points_states=points_states if self.points_states is None else self.points_states,
        )


# (relax_from, relax_after, lp_after, points_states), counts of search states,
# one set for both searches: budgets that differed by search made a seeded
# voleur game with the expert bot differ with RAMI_SOLVER_PURE=1
# (tests/test_seed_everywhere.py). Measured on
# benchmarks/bench_solver.py's positions (seeds 2015 and 77). The compiled
# search proves in 50,000 states most of what HiGHS's integer search would
# certify, at a fraction of its time; past that, on the dense tables where
# only the LP's bound is tight, the integer search (20-30 ms without its
# presolve) finds the arrangement sooner than the search; the LP's relaxation
# alone costs a few milliseconds. A
# relax_after at or past lp_after never asks the LP's relaxation alone. Most
# positions settle in fewer than relax_from states on the hand's potential,
# where building the relaxation first would cost more than the search (with
# four jokers, several times more).
# The Python search spends about thirty times longer per state, so it is that
# much slower on the positions that use the budgets, never different.
# The points tie-break (the card count proven by then) gets 50,000 states: on
# 360 positions of seeds 2015, 77 and 5 every answer (cards and points) was
# the same as with 300,000, and the tie-breaks that 50,000 states leave
# unproven were left unproven by 300,000 too but for one, whose answer did
# not change; those 250,000 more states were the slowest solves' time (the
# slowest position, 0.37 s of CPU, now 0.24 s).
SEARCH_DEFAULTS = (5_000, 20_000, 50_000, 50_000)


DEFAULT_OPTIONS = SolverOptions()


@dataclass
class Solution:
    """A new whole table and the hand cards it lays."""

    melds: list[list[Card]]
    laid: list[Card]
    max_cards_laid: int
    optimal: bool = True
    points_laid: int = 0
    feasible: bool = True  # False when the table cards could not all be arranged
    cards_optimal: bool = True  # the card count is proven (even where optimal is False: the points were cut)


@dataclass
class LayOffPlan:
    """Lay offs onto melds that keep their places, plus new melds from the hand."""

    lay_offs: list[tuple[int, list[Card], list[tuple[Card, tuple[int, int]]]]] = field(default_factory=list)
    """(meld index, natural cards, [(joker, face it stands for)])"""
    readings: dict[int, Reading] = field(default_factory=dict)
    """the new reading of every meld that receives cards"""
    new_melds: list[list[Card]] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)
    optimal: bool = True
    """False when a state limit cut the search: the plan is the best found"""

    @property
    def cards_laid(self) -> int:
        return len(self.laid)


# --------------------------------------------------------------------------- weights


def _points_function(points) -> Callable[[Card], int]:
    """A card value function from a callable, a Profile, or a Scoring-like object."""
    if points is None:
        return lambda c: card_points(c, joker=25)
    if callable(points):
        return points
    scoring = getattr(points, "scoring", points)
    jokers = getattr(points, "jokers", None)
    ace = getattr(scoring, "ace_points", 11)
    court = getattr(scoring, "court_points", 10)
    joker = getattr(jokers, "penalty", getattr(points, "joker_penalty", 25))
    return lambda c: card_points(c, ace=ace, court=court, joker=joker)
