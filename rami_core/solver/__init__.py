"""Exact arrangement solver: the best lay for a table and a hand.

Modules: :mod:`.solve` (the entry point and its checks), :mod:`.sweep` (the
dynamic program; ``_sweepc.c`` is its search in C), :mod:`.sets` (the sets of one rank), :mod:`.lp` (the
certified linear program), :mod:`.wrap` (the search for wrapping runs),
:mod:`.opening`, :mod:`.lay_offs`, :mod:`.check` (input checks).

Three questions, all answered exactly (a proven optimum, never a heuristic):

* :func:`solve` - rearrange the whole table (every table card stays down) and
  lay as many hand cards as possible (or as many penalty points as possible),
  as rami voleur allows;
* :func:`best_opening` - the best opening from the hand alone under the
  profile's opening settings (points, pure run, run and set, jokers);
* :func:`best_lay_offs` - where laid cards keep their places (every preset but
  voleur): the most hand cards that can be laid off onto the table melds at
  their ends or missing suits, plus new melds from the hand.

How :func:`solve` works
-----------------------
A dynamic program sweeps the run places from the lowest to the highest
(1..13 with the ace low, 2..14 with the ace high, 1..14 with both), in the
manner of van Rijn, Takes and Vis, "The Complexity of Rummikub Problems"
(2015). At each place and for each suit it decides what becomes of the cards
of that face: extend a run in progress, start a run, or go into a set at this
rank; and what becomes of every run in progress: extend it (by a natural card
or a joker) or close it, which only a complete run may do. A run in progress
is summarised by its length and its natural count (capped at what the rules
ask), its jokers (only when the profile limits them) and a flag for a run
that began with a joker; a suit's runs are a sorted tuple of those summaries.
The sets of a rank are checked once the four suits of that place are decided,
from the multiset of per-suit counts sent to sets and the jokers given to
them. Jokers are a counter in the state. Table cards must all be used; hand
cards add their weight. The state is memoised, so the work is polynomial for
a fixed number of suits, copies and jokers: O(places x suits x S x T) where S
is the number of reachable run states (bounded by a constant for fixed
copies, jokers and run_min) and T the transitions per state.

The search is a memoised depth-first branch and bound over that dynamic
program. Its bound is state dependent: a per-suit relaxation (each suit's own
run dynamic program from the current place on, its runs in progress as they
are, with sets limited only by what the other suits and the jokers could
offer at each rank; jokers shared among the suits by a small knapsack). It
also proves a state dead when a suit's table cards cannot all be placed, or
when the suits still to decide at a place cannot complete its sets. The root
asks for the bound first and, on a fail-low, for the next lower card count
(points objective: the next lower point total); after two fail-lows of the
card count it asks from below (the count of an arrangement known, or none).
An ask that succeeds returns the exact optimum whatever its floor, so the
first success is the proven optimum; fail-lows stay in the memo as upper
bounds. The relaxation costs more than the whole search on most positions
(with four jokers, several times more), so under a large state limit the
search first runs on the hand's potential alone and builds the relaxation
only after ``SolverOptions.relax_from`` states (the points search that
follows the card count, a sixteenth of that); the memo stays valid across
the switch. The per-suit options (a pure function of the run summaries and
the counts) and the set tables are cached across solves.

The per-suit relaxation treats the sets as if partners were always there;
the sets are what couples the suits. Once the LP's relaxation has been asked
(below), its duals price that coupling (Lagrange): every suit's program pays
a price for each card it sends to a set, and the sets of each place, chosen
alone among the valid ones, earn the prices of the cards they take. The
bound is admissible for any prices; with the LP's it sees what the LP sees,
state by state (``_Sweep.price_sets``), and the smaller of it and the plain
relaxation is used. On the tables where only the LP's bound was tight, the
search then proves in a few hundred states what took it 30,000 and HiGHS's
integer search.

Hard positions take exact shortcuts (``solve._run``), both from the
certified linear program of :mod:`rami_core.solver.lp` (HiGHS through highspy),
whose upper bound is computed in exact integers from its duals. Past
``SolverOptions.relax_after`` search states, the relaxation alone (a few
milliseconds) gives that bound, which caps the search: it no longer has to
prove, round after round, that more cards cannot be laid. Past
``SolverOptions.lp_after`` states, HiGHS's integer search (the costly part)
proposes an arrangement; a bound met by the arrangement ends the solve;
otherwise the search resumes (its memo kept) with the bound as a cap and the
arrangement as the value to beat. Floating point only proposes; integers
decide. (Solving first with the table jokers optional, then attaching the
unused ones, was tried too: exact, but no faster, the relaxed search being as
large.)

Symmetry cuts keep it small without losing optima: runs with equal summaries
are interchangeable; a run never starts with a joker unless it ends at the
highest place (otherwise the joker can move to its top end); runs are never
started where they could not reach run_min before the last place.

With the ace at both ends, a physical ace is used once: at place 1 the solver
decides per suit how many aces stay for place 14 (they travel in the state).
A run begun at place 1 carries a mark that forbids place 14: A..K..A would
be fourteen cards, which no rule allows.

Wrapping runs (K-A-2) break the linear sweep; under ``rules.wrap`` the solver
uses an exact memoised search over melds instead (:mod:`.wrap`),
correct but exponential: fine for hands and small tables (the only variants
with wrap never rearrange a table).

The search runs in C where the extension :mod:`._sweepc` was built (see
:func:`.sweep.compiled_sweep`), else in Python: the same recursion, state for
state, so both count the same states and return the same answer under the
same :class:`SolverOptions`. Python keeps the root loop, the turning of
per-place set counts into sets and every table that depends on the rules (the
sets of a rank, the set caps, the potentials), which it hands to C as arrays;
C walks its memo along an optimal path and keeps the book of runs (the
Python bookkeeping stays as its twin). The budgets are counts of states, the
same for both searches (``relax_from``, ``relax_after``, ``lp_after``,
``points_states``: :data:`.results.SEARCH_DEFAULTS`), so a seeded game is the
same game on a machine without the C search, only slower.

Every solve is bounded by a count of search states (``max_states``, default
:data:`DEFAULT_MAX_STATES`): past it the answer is marked not proven
(``Solution.optimal`` False) and is the best arrangement found.
"""

from __future__ import annotations

from rami_core.solver.best_opening import OPENING_MAX_STATES, StateBudget, best_opening
from rami_core.solver.deck_check import check_position
from rami_core.solver.lay_offs import best_lay_offs
from rami_core.solver.results import (
    DEFAULT_MAX_STATES,
    DEFAULT_OPTIONS,
    LayOffPlan,
    Solution,
    SolverInputError,
    SolverOptions,
    SolverTimeout,
)
from rami_core.solver.whole_table import check_solution, solve

__all__ = [
    "DEFAULT_MAX_STATES",
    "DEFAULT_OPTIONS",
    "OPENING_MAX_STATES",
    "LayOffPlan",
    "Solution",
    "SolverInputError",
    "SolverOptions",
    "SolverTimeout",
    "StateBudget",
    "best_lay_offs",
    "best_opening",
    "check_position",
    "check_solution",
    "solve",
]
