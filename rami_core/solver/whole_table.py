"""`solve`: the whole-table arrangement that lays the most hand cards."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from rami_core.cards import JOKER_SUIT, Card
from rami_core.cards.melds import MeldRules, read_meld, run_windows

# HiGHS (highspy and scipy.sparse, about half a second of CPU) is loaded with the solver, not by
# the first solve that asks the LP: a player's first hint on a hard table paid
# it (0.5-0.8 s). Voleur greedy games with it loaded at the start, four pairs
# of 25 rounds alternated in one session: 5.58 rounds per CPU second against
# 5.69 without, within the machine's noise (an earlier session measured a
# third slower, not reproduced). The commands that never solve (`rami
# --help`) do not import the solver.
from rami_core.solver import lp as _lp
from rami_core.solver.pool import CardPool
from rami_core.solver.results import (
    DEFAULT_MAX_STATES,
    DEFAULT_OPTIONS,
    NEG,
    SEARCH_DEFAULTS,
    Solution,
    SolverOptions,
    SolverTimeout,
    _points_function,
)
from rami_core.solver.sweep import _Budget, _Model, _Sweep, compiled_sweep
from rami_core.solver.wrap import _search_solve
from rami_core.words.errors import InternalError


def solve(
    table: Sequence[Card] | Sequence[Sequence[Card]],
    hand: Sequence[Card],
    rules: MeldRules,
    *,
    objective: str = "cards",
    points=None,
    time_limit: float | None = None,
    max_states: int | None = None,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> Solution:
    """The arrangement of the whole table that lays the most hand cards.

    ``table`` is the table's cards (a flat list, or a list of melds); every one
    of them stays on the table. ``objective="cards"`` maximises the number of
    hand cards laid (ties: the most points), ``"points"`` the points laid (ties:
    the most cards); ``points`` is a card value function, a Profile (scoring
    values and joker penalty) or None (2-10 face, courts 10, ace 11, joker 25).

    The result is a proven optimum unless a limit cut the search: then
    ``optimal`` is False and the answer is the best arrangement found (the
    certified LP's, when it was asked), else the table as it was with nothing
    laid (a flat table is arranged alone for that, under the same limit).
    ``max_states`` (search states, default :data:`DEFAULT_MAX_STATES`;
    HiGHS is held to a node count) gives the same answer on any machine under
    any load, which seeded simulations need; ``time_limit`` (seconds) may cut
    it shorter for a person waiting. ``feasible`` is False when the table
    cards cannot all go into valid melds."""
    if objective not in ("cards", "points"):
        raise ValueError(f"objective must be 'cards' or 'points', not {objective!r}")
    if max_states is None:
        max_states = DEFAULT_MAX_STATES
    options = _settled(options, max_states)
    given_melds: list[list[Card]] | None = None
    if table and not isinstance(table[0], Card) and isinstance(table[0], (list, tuple)):
        given_melds = [list(mm) for mm in cast("Sequence[Sequence[Card]]", table)]
        flat = [c for mm in given_melds for c in mm]
    else:
        flat = list(cast("Sequence[Card]", table))
    hand = list(hand)
    value = _points_function(points)
    # every weight asked is a hand card's: each card's value is read once
    values = {c: value(c) for c in hand}
    big = 1 + sum(max(0, values[c]) for c in hand)
    if objective == "cards":
        weight = lambda c: big + (values[c] if c in values else value(c))  # noqa: E731
    else:
        weight = lambda c: (values[c] if c in values else value(c)) * (len(hand) + 1) + 1  # noqa: E731
    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def fallback(optimal: bool, feasible: bool) -> Solution:
        melds = given_melds if given_melds is not None else ([flat] if flat else [])
        return Solution(
            melds=[list(mm) for mm in melds],
            laid=[],
            max_cards_laid=0,
            optimal=optimal,
            feasible=feasible,
            cards_optimal=optimal,
        )

    live = _live_hand(flat, hand, rules)
    proven: bool | None = True
    try:
        if rules.wrap:
            found = _search_solve(flat, live, rules, weight, deadline, max_states)
        else:
            found, proven = _sweep_solve(
                flat,
                live,
                rules,
                weight,
                deadline,
                big if objective == "cards" else len(hand) + 1,
                max_states,
                options,
                cards_first=objective == "cards",
            )
    except SolverTimeout:
        if given_melds is not None or not flat or not hand:
            return fallback(False, True)
        # a flat table has no arrangement yet: the table alone, laying nothing,
        # is the best found (under a budget of its own, as large)
        alone = solve(flat, [], rules, max_states=max_states, options=options)
        if not alone.feasible or alone.melds == [flat]:
            return fallback(False, alone.feasible)
        alone.optimal = alone.cards_optimal = False
        return alone
    if found is None:
        return fallback(True, False)
    melds = found
    laid = _laid_cards(melds, flat)
    sol = Solution(
        melds=melds,
        laid=laid,
        max_cards_laid=len(laid),
        optimal=bool(proven),
        points_laid=sum(values[c] if c in values else value(c) for c in laid),
        cards_optimal=proven is not False,
    )
    problem = check_solution(flat, hand, sol, rules)
    if problem:  # pragma: no cover - a bug, never a rules question
        raise InternalError(f"solver produced an invalid table: {problem}")
    return sol


# (options, whether the state limit is small) -> the options settled for the
# search that runs: SolverOptions.settled and dataclasses.replace cost more
# than a bot's quick rebuild spends elsewhere in its Python; bounded
_SETTLED: dict[tuple[SolverOptions, int], SolverOptions] = {}


def _settled(options: SolverOptions, max_states: int) -> SolverOptions:
    """``options`` with its defaults filled in (:meth:`SolverOptions.settled`)
    and, under a small state limit, the relaxation built at once."""
    share = RELAX_FROM_SHARE * (options.relax_from if options.relax_from is not None else SEARCH_DEFAULTS[0])
    key = (options, max_states < share)
    hit = _SETTLED.get(key)
    if hit is not None:
        return hit
    out = options.settled(options.compiled and compiled_sweep() is not None)
    if max_states < RELAX_FROM_SHARE * cast(int, out.relax_from):
        # a small limit (the bots' quick rebuilds) needs the relaxation's
        # pruning from the first state to prove anything within it
        out = replace(out, relax_from=0)
    if len(_SETTLED) >= 64:
        _SETTLED.clear()
    _SETTLED[key] = out
    return out


def _live_hand(table: Sequence[Card], hand: Sequence[Card], rules: MeldRules) -> list[Card]:
    """The hand without the cards that fit no meld at all, even with every card
    of the table and the hand free: such a card is never laid, and dropping it
    sharpens the search bound. Repeated until nothing more drops."""
    hand = list(hand)
    if rules.wrap:
        return hand
    # This filter runs before every bot rebuild, where the Python around the
    # search cost more than the search: the faces present are a bit mask per
    # suit (bit q for place q, the ace at 1 and 14) and the naturals of each
    # rank a list, counted in one pass over the cards (a card's first two
    # fields are its face), the hand's faces the only ones that may drop.
    # Which faces fit is answered for every face at once, as a bit mask of
    # ranks per suit (:func:`_fitting`), each suit's runs remembered.
    tmask = [0, 0, 0, 0]
    trank = [0] * 14
    jokers = 0
    for c in table:
        s = c[1]
        if s == JOKER_SUIT:
            jokers += 1
        else:
            tmask[s] |= 1 << c[0]
            trank[c[0]] += 1
    hfaces: dict[tuple[int, int], int] = {}
    for c in hand:
        if c[1] == JOKER_SUIT:
            jokers += 1
        else:
            f = c[:2]
            hfaces[f] = hfaces.get(f, 0) + 1
    jmax = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    known = _FITTING.get(rules)
    if known is None:
        if len(_FITTING) >= 16:
            _FITTING.clear()
        known = _FITTING[rules] = {}
    elif len(known) >= 1 << 14:
        known.clear()
    while True:
        pres = list(tmask)
        count = list(trank)
        for (r, s), k in hfaces.items():
            pres[s] |= 1 << r
            count[r] += k
        fit = _fitting(pres, count, jmax, rules, known)
        dead = [f for f in hfaces if not fit[f[1]] >> f[0] & 1]
        if not dead:
            return hand
        dead_set = set(dead)
        hand = [c for c in hand if c[:2] not in dead_set]
        for f in dead:
            del hfaces[f]


# rules -> (a suit's faces present, the jokers) -> the ranks of that suit a
# run holds (:func:`_fitting`); bounded
_FITTING: dict[MeldRules, dict[tuple[int, int], int]] = {}


def _fitting(
    pres: list[int], count: list[int], jmax: int, rules: MeldRules, runs: dict[tuple[int, int], int]
) -> list[int]:
    """Per suit, the ranks (bit r) whose face, if present, fits some meld made
    of the faces present (``pres``: a bit mask of ranks per suit), the
    naturals of each rank (``count``) and ``jmax`` jokers: a set at its rank,
    or a run window of run_min places holding it (an ace at either of its
    places) filled by the naturals present and the jokers. ``runs``
    remembers each suit's runs by its faces and the jokers."""
    set_min, min_nat = rules.set_min, rules.min_naturals
    # the sets: the same for every suit of a rank (the face counted present)
    sets = 0
    if rules.set_distinct_suits:
        # the ranks present in at least k suits, for k = 1..4, bit by bit
        p0, p1, p2, p3 = pres
        ge = (
            0,
            p0 | p1 | p2 | p3,
            (p0 & p1) | (p0 & p2) | (p0 & p3) | (p1 & p2) | (p1 & p3) | (p2 & p3),
            (p0 & p1 & (p2 | p3)) | (p2 & p3 & (p0 | p1)),
            p0 & p1 & p2 & p3,
            0,
        )
        jset = min(jmax, 4)
        for k in range(1, 5):
            # k counts the face itself: its others are k - 1
            if (k >= 2 and k + jset >= set_min and min_nat <= k) or (k + jmax >= set_min and k >= min_nat):
                sets |= ge[k] & ~ge[k + 1]
    else:
        for r in range(1, 14):
            n = count[r]
            if n + jmax >= set_min and n >= min_nat:
                sets |= 1 << r
    out = []
    for row in pres:
        key = (row, jmax)
        fit = runs.get(key)
        if fit is None:
            fit = runs[key] = _run_fitting(row, jmax, rules)
        out.append(sets | fit)
    return out


def _run_fitting(row: int, jmax: int, rules: MeldRules) -> int:
    """The ranks (bit r) of one suit whose face lies in a run window of
    run_min places (an ace at either of its places) that the suit's faces
    present (``row``) and ``jmax`` jokers fill. Straight windows
    (`melds.run_windows`): a wrapping profile keeps its hand whole before
    asking (:func:`_live_hand`)."""
    L = rules.run_min
    if L <= 0:
        return 0
    min_nat = rules.min_naturals
    if row & 2:
        row |= 1 << 14
    # the places covered by a window the naturals and jokers fill
    covered = 0
    for w in run_windows(rules, L, straight=True):
        nat = (row & w).bit_count()
        if L - nat <= jmax and nat >= min_nat:
            covered |= w
    fit = covered & 0x3FFC
    if covered & ((2 if rules.ace_low else 0) | (1 << 14 if rules.ace_high else 0)):
        fit |= 2
    return fit


def _laid_cards(melds: list[list[Card]], table: Sequence[Card]) -> list[Card]:
    tab = Counter(table)
    out = []
    for c in (c for mm in melds for c in mm):
        if tab[c]:
            tab[c] -= 1
        else:
            out.append(c)
    return out


def check_solution(
    table: Sequence[Card], hand: Sequence[Card], sol: Solution, rules: MeldRules
) -> str | None:
    """None if the solution is sound: every meld valid by read_meld, every table
    card kept, the laid cards from the hand; else a reason."""
    for mm in sol.melds:
        if read_meld(mm, rules) is None:
            return f"invalid meld {[str(c) for c in mm]}"
    down = Counter(c for mm in sol.melds for c in mm)
    tab = Counter(table)
    if tab - down:
        return "table cards lost: " + " ".join(str(c) for c in (tab - down).elements())
    extra = down - tab
    if extra - Counter(hand):
        return "cards laid that are not in the hand"
    if Counter(sol.laid) != extra:
        return "laid list does not match the table"
    if sol.max_cards_laid != len(sol.laid):
        return "max_cards_laid does not match laid"
    return None


# The search runs on the hand's potential alone for relax_from states only
# where its state limit is at least this many times larger.
RELAX_FROM_SHARE = 20
# The points search (after the card count) waits this many times less.
POINTS_RELAX_SHARE = 16


# Jokers past which the LP is not asked: its columns (every run with every
# choice of places for its jokers) grow combinatorially with them.
LP_MAX_JOKERS = 6


def _lp_path(
    model: _Model,
    deadline: float | None,
    options: SolverOptions,
    total: int | None = None,
    integer: bool = True,
):
    """HiGHS's arrangement with its exact certificate (rami_core.solver.lp), or None."""
    if not options.use_lp or not model.t or model.J > LP_MAX_JOKERS:
        return None
    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        raise SolverTimeout
    return _lp.lp_solve(
        model.t, model.a, model.JT, model.J, model.w, model.wj, model.rules, left, total, integer
    )


def _relaxation_first(sweep: _Sweep, model: _Model, deadline, options: SolverOptions, total=None, joint=None):
    """Search up to ``options.relax_after`` states; past them, ask the LP's
    relaxation alone (no integer search, a few milliseconds): its bound
    becomes the search's cap, which spares the search its rounds of proving
    that more cannot be laid. Returns (the search's value if it finished
    first, else None; the LP's result if it is a proven optimum, else None).
    Either way the sweep's budget is left at ``options.lp_after``."""
    lp_after = cast(int, options.lp_after)
    relax_after = options.relax_after
    sweep.budget = lp_after if options.use_lp else None
    if relax_after is None or relax_after >= lp_after or not options.use_lp:
        return None, None
    sweep.budget = relax_after
    try:
        value = sweep.solve()
    except _Budget:
        value = None
    sweep.budget = lp_after
    if value is not None:
        return value, None
    if joint is not None and options.priced:
        # the card search of a two-phase solve asks the program of the
        # combined weight (cards first, then points): its bound caps the card
        # count, its duals price both searches' sets, and an integral optimum
        # of it answers both phases at once (sweep.joint_lp keeps it)
        jmodel, gran, low = joint
        lp = _lp_path(jmodel, deadline, options, integer=False)
        if lp is None:
            return None, None
        sweep.joint_lp = lp
        if lp.proven:
            return None, lp
        cards = (lp.bound - low) // gran
        sweep.cap = cards if sweep.cap is None else min(sweep.cap, cards)
        # the card count's own program (the same columns: built once) prices
        # the card search better than the combined one's duals scaled down
        own = _lp_path(model, deadline, options, integer=False)
        if own is not None and own.proven:
            return None, own
        if own is not None:
            sweep.cap = min(sweep.cap, own.bound)
        duals = own.duals if own is not None else None
        if duals is None and lp.duals is not None:
            duals = {f: z / gran for f, z in lp.duals.items()}
        if duals is not None:
            sweep.price_sets(duals)
        return None, None
    lp = _lp_path(model, deadline, options, total=total, integer=False)
    if lp is None:
        return None, None
    if lp.proven:
        return None, lp
    sweep.cap = lp.bound if sweep.cap is None else min(sweep.cap, lp.bound)
    if options.priced:
        if total is not None:
            # the card-count row's dual prices every card down, which the
            # search's states cannot (they do not know how many are down):
            # the prices come from the same program without that row
            lp = _lp_path(model, deadline, options, integer=False)
        if lp is not None and lp.duals is not None:
            sweep.price_sets(lp.duals)
    return None, None


def _layouts_to_faces(layouts):
    runs, sets = [], []
    for lay in layouts:
        if lay[0] == "run":
            runs.append((lay[1], lay[2], list(lay[3])))
        else:
            sets.append((lay[1], list(lay[2]), lay[3]))
    return runs, sets


def _run(sweep: _Sweep, model: _Model, deadline: float | None, options: SolverOptions, joint=None):
    """Solve one sweep; past ``options.lp_after`` states, ask the certified LP.

    Returns ((faces runs, sets) or None if no arrangement exists, proven). When
    a limit cuts the search after the LP was asked, the LP's arrangement is
    the best found, not proven; without one, SolverTimeout goes up (a limit
    below ``lp_after``, as the bots' quick rebuilds set, never pays for the LP)."""
    lp = None
    sweep.budget = options.lp_after if (options.use_lp and model.t) else None
    try:
        try:
            v = None
            if model.t:
                v, lp = _relaxation_first(sweep, model, deadline, options, joint=joint)
                if lp is not None:
                    return _layouts_to_faces(lp.layouts), True
            if v is None:
                v = sweep.solve()
        except _Budget:
            lp = _lp_path(model, deadline, options)
            if lp is not None and lp.proven:
                return _layouts_to_faces(lp.layouts), True
            sweep.budget = None
            if lp is not None:
                sweep.cap = lp.bound
                if lp.value is not None:
                    sweep.incumbent = lp.value
            v = sweep.solve()
            if lp is not None and lp.value is not None and (v == NEG or v <= lp.value):
                return _layouts_to_faces(lp.layouts), True
    except SolverTimeout:
        if lp is not None and lp.layouts is not None:
            return _layouts_to_faces(lp.layouts), False
        raise
    if v == NEG:
        return None, True
    # the limits cut the search, not the reading of an optimum it has proven
    sweep.max_states, sweep.deadline = 1 << 62, None
    return sweep.rebuild(), True


def _sweep_solve(
    table,
    hand,
    rules,
    weight,
    deadline,
    gran: int = 1,
    max_states: int | None = None,
    options: SolverOptions = DEFAULT_OPTIONS,
    cards_first: bool = False,
) -> tuple[list[list[Card]] | None, bool | None]:
    """``cards_first``: the weight is the card count first (``gran`` a card),
    then the points: the two-phase search applies."""
    if cards_first and table and hand and options.two_phase:
        return _two_phase(table, hand, rules, weight, deadline, gran, max_states, options)
    model = _Model(table, hand, rules, weight)
    sweep = _Sweep(model, deadline, max_states, options.compiled)
    sweep.gran = gran
    # the relaxation and the asks from the top pay off when a table must be
    # rearranged; a hand alone is small and searched from below
    sweep.use_h = options.relaxation and bool(table)
    sweep.relax_from = cast(int, options.relax_from)
    found, proven = _run(sweep, model, deadline, options)
    if found is None:
        return None, proven
    runs, sets = found
    return _materialise(runs, sets, table, hand, model), proven


def _two_phase(
    table, hand, rules, weight, deadline, gran: int, max_states: int | None, options: SolverOptions
) -> tuple[list[list[Card]] | None, bool | None]:
    """The most cards, then the most points among them, in two exact searches.

    The card count alone is a much easier search (and its LP certificate
    nearly always closes). Knowing it, the search for points starts from a
    real arrangement (the first phase's) and a cap (no lay has more cards),
    so it only has to prove that no lay of as many cards has more points.
    The second search has a budget of its own (``options.points_states``, at
    most ``max_states``): if it is cut, the best arrangement found so far is
    the answer, its card count proven, its points not (``proven`` None).
    Between the two, the LP with the card count fixed (one more row) often
    certifies the points at once."""
    ones = _Model(table, hand, rules, lambda c: 1)
    model = _Model(table, hand, rules, weight, base=ones)
    first = _Sweep(ones, deadline, max_states, options.compiled)
    first.use_h = options.relaxation
    first.relax_from = cast(int, options.relax_from)
    # a lay of k cards weighs at least k * gran plus the negative card values
    low = sum(min(0, weight(c) - gran) for c in hand)
    found, proven = _run(first, ones, deadline, options, joint=(model, gran, low))
    if found is None:
        return None, proven
    runs, sets = found
    melds = _materialise(runs, sets, table, hand, ones)
    if not proven:  # cut after the LP was asked: its lay is the best found
        return melds, False
    joint = first.joint_lp
    if joint is not None and joint.proven:
        return melds, True  # the combined program's integral optimum: most cards, then most points
    laid = _laid_cards(melds, table)
    reached = sum(weight(c) for c in laid)
    if len(laid) == len(hand):
        return melds, True  # the whole (live) hand is down: no lay has more points
    own = cast(int, options.points_states)  # settled by solve()
    points_states = own if max_states is None else min(max_states, own)
    sweep = _Sweep(model, deadline, points_states, options.compiled)
    sweep.gran = gran
    sweep.use_h = options.relaxation
    # the points search's potential counts every hand card left though the
    # card count is fixed: it prunes little, and the relaxation pays sooner
    sweep.relax_from = cast(int, options.relax_from) // POINTS_RELAX_SHARE
    sweep.incumbent = reached
    sweep.cap = (len(laid) + 1) * gran - 1  # a lay of len(laid) cards weighs less than this
    if joint is not None and joint.duals is not None and options.priced:
        # the card search asked the combined program: its duals price this
        # search's sets from the start, its bound caps it
        sweep.price_sets(joint.duals)
        sweep.cap = min(sweep.cap, joint.bound)
    total = len(table) + len(laid)
    try:
        try:
            value, lp0 = _relaxation_first(sweep, model, deadline, options, total=total)
            if lp0 is not None and lp0.value is not None and lp0.value > reached:
                runs, sets = _layouts_to_faces(lp0.layouts)
                return _materialise(runs, sets, table, hand, model), True
            if lp0 is not None or (sweep.cap is not None and sweep.cap <= reached):
                return melds, True  # the relaxation proves nothing beats the first phase's lay
            if value is None:
                value = sweep.solve()
        except _Budget:
            # a hard tie-break: the LP with the card count fixed often certifies it
            sweep.budget = None
            lp_res = _lp_path(model, deadline, options, total=total)
            if lp_res is not None and lp_res.value is not None and lp_res.value > reached:
                runs, sets = _layouts_to_faces(lp_res.layouts)
                melds, reached = _materialise(runs, sets, table, hand, model), lp_res.value
                if lp_res.proven:
                    return melds, True
                sweep.incumbent = reached
            if lp_res is not None:
                sweep.cap = min(sweep.cap, lp_res.bound)
                if sweep.cap <= reached:
                    return melds, True
            value = sweep.solve()
    except SolverTimeout:
        return melds, None
    if value == NEG or value <= reached:
        return melds, True
    sweep.max_states, sweep.deadline = 1 << 62, None
    runs, sets = sweep.rebuild()
    return _materialise(runs, sets, table, hand, model), True


def _materialise(runs, sets, table, hand, model: _Model) -> list[list[Card]]:
    """The sweep's runs (place by place) and sets as physical cards."""
    pool = CardPool(table, hand)
    melds: list[list[Card]] = []
    for suit, start, items in runs:
        melds.append(
            [
                pool.take_joker() if kind == "J" else pool.take((model.rank(start + i), suit))
                for i, kind in enumerate(items)
            ]
        )
    for rank, suits, nj in sets:
        melds.append([pool.take((rank, s)) for s in suits] + [pool.take_joker() for _ in range(nj)])
    return melds
