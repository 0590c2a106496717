"""What a seat may do now: the legal moves, judged by the engine's own rules.

OpenSpiel's ``State.legal_actions`` is the model: a client (the table
server's page, the terminal, the bots, the hint, the learning environments,
an app embedding rami) asks :func:`legal_moves` instead of guessing from the
profile. For each action kind (:data:`KINDS`) the answer says whether it is
allowed now and, where the moves are few, every concrete move the engine
accepts (the piles to draw from, the cards that may be discarded, the lay
offs, the joker swaps and by which cards); where they are too many to list
(new melds, rearrangements of the table) it gives one accepted move as
proof and what bounds the rest (:class:`Bounds`: the opening need, the
jokers owed to the table, the cards that must stay in hand).

A kind is judged in two steps, both the engine's: the rules that hold for
the whole kind (``gates.KIND_GATES``, the very gates each handler calls at
its place in the order of the error codes), then candidate moves played on a
copy of the state by :func:`handlers.play_on`, plugins' judging hooks
included. A kind is offered exactly when one of its concrete moves is
accepted; a kind withheld carries the engine's refusal (code, reason and
parameters, put into words by :mod:`rami_core.words.refusals`).

The candidates for new melds and rearrangements come from the solver (the
best opening meeting the need, the most cards a rebuild of the table can
take), counted in search states so that a seed gives the same answer on any
machine. A lay that a house plugin refuses for the whole table may leave a
kind withheld although a smaller lay would pass: the plugins' refusals are
applied to the candidates the solver proposes, not to every packing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rami_core.cards import Card
from rami_core.cards.bits import FACE_OF, faces_in_order
from rami_core.cards.melds import RUN, joinable_faces, rank_at
from rami_core.game import actions as A
from rami_core.game.state import GameState
from rami_core.profile.rules import OpeningNeed, Rules
from rami_core.referee.gates import DISCARD, KIND_GATES, KIND_SWITCHES, STOCK
from rami_core.referee.handlers import discard_card_refusal, discard_refusal, discards_unchecked, play_on
from rami_core.solver import StateBudget, best_opening, solve
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason, refusal_json

if TYPE_CHECKING:
    from rami_core.referee.engine import Game

# The action kinds, in the order a client lists them.
KINDS: tuple[str, ...] = (
    "draw_stock",
    "draw_discard",
    "meld",
    "layoff",
    "swap",
    "rearrange",
    "discard",
    "end_turn",
    "next_round",
)
# Kinds whose every accepted move is listed (the others give one as proof).
COMPLETE_KINDS = frozenset(
    {"draw_stock", "draw_discard", "layoff", "swap", "discard", "end_turn", "next_round"}
)

# Search states the solver may spend on a candidate: counts, not seconds, so
# that the answer is the same on every machine and under any load.
REARRANGE_STATES = 4000
OPENING_STATES = 200_000
# What a server view may spend on its searches, all together (the opening
# searches of the meld offer, the rebuilds of the rearrange offer, each
# rebuild counted at REARRANGE_STATES): sized so that a view of the largest
# profile a visitor may paste costs about a tenth of a second. Where it runs
# out the offer is marked inexact (see `Offer.exact`).
VIEW_STATES = 30_000


@dataclass(frozen=True)
class Bounds:
    """What bounds the lays of a seat now, where they are too many to list."""

    opening: OpeningNeed | None  # the need a lay must meet (None: the lay is not judged as an opening)
    kept: int  # cards that must stay in hand after a lay (Rules.kept_going_out)
    jokers_owed: tuple[Card, ...] = ()  # jokers freed this turn that must go back on the table
    taken_owed: Card | None = None  # the card taken from the discard pile that must be laid

    def to_json(self) -> dict[str, Any]:
        from rami_core.cards import format_card

        need = None
        if self.opening is not None:
            o = self.opening
            need = {
                "points": o.points,
                "pure_run": o.pure_run,
                "run_and_set": o.run_and_set,
                "jokers": o.jokers,
                "partner": o.partner,
                "all_at_once": o.all_at_once,
                "go_out_below_points": o.go_out_below_points,
            }
        return {
            "opening": need,
            "kept": self.kept,
            "jokers_owed": [format_card(c) for c in self.jokers_owed],
            "taken_owed": format_card(self.taken_owed) if self.taken_owed is not None else None,
        }


@dataclass(frozen=True)
class Offer:
    """One action kind for one seat now."""

    kind: str
    allowed: bool
    moves: tuple[A.Action, ...] = ()  # accepted moves: all of them (complete) or one as proof
    complete: bool = True  # `moves` lists every accepted move of this kind
    refusal: RuleError | None = None  # why the kind is withheld (None when allowed)
    bounds: Bounds | None = None
    # False where a search decides the kind and ran out of states before it
    # proved either way: the kind is then offered by the rules' permission,
    # with `moves` empty (no example found), and the engine judges each try.
    exact: bool = True

    def to_json(self, card_text: Callable[[str], str] = str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "allowed": self.allowed,
            "moves": [_move_json(m) for m in self.moves],
            "complete": self.complete,
            "refusal": refusal_json(self.refusal, card_text) if self.refusal is not None else None,
            "exact": self.exact,
        }
        if self.bounds is not None:
            out["bounds"] = self.bounds.to_json()
        return out


def _move_json(m: A.Action) -> dict[str, Any]:
    d = A.action_to_dict(m)
    d.pop("player", None)
    return d


@dataclass(frozen=True)
class LegalMoves:
    """Every action kind for one seat now (see the module's docstring)."""

    seat: int | None
    offers: dict[str, Offer] = field(default_factory=dict)

    def allowed(self) -> list[str]:
        """The kinds the seat may play now, in :data:`KINDS` order."""
        return [k for k in KINDS if self.offers[k].allowed]

    def may(self, kind: str) -> bool:
        return self.offers[kind].allowed

    def __getitem__(self, kind: str) -> Offer:
        return self.offers[kind]

    def moves(self, kind: str) -> tuple[A.Action, ...]:
        return self.offers[kind].moves

    def to_json(self, card_text: Callable[[str], str] = str) -> dict[str, Any]:
        """Plain data for a client: the allowed kinds, and per kind its moves,
        its refusal (code, reason, parameters and words in every language) and
        its bounds."""
        return {
            "allowed": self.allowed(),
            "kinds": {k: self.offers[k].to_json(card_text) for k in KINDS},
        }


def legal_moves(
    game: Game, seat: int | None, kinds: tuple[str, ...] = KINDS, *, states: int | None = None
) -> LegalMoves:
    """What `seat` may do now in `game` (None, a spectator: nothing)."""
    return legal_moves_in(game.rules, game.state, seat, kinds, states=states)


def legal_moves_in(
    rules: Rules,
    s: GameState,
    seat: int | None,
    kinds: tuple[str, ...] = KINDS,
    *,
    states: int | None = None,
) -> LegalMoves:
    """What `seat` may do in state `s` under `rules` (the same answer as
    :func:`legal_moves`; bots ask it of the state rebuilt from their view).
    `kinds`: only these are judged (the others are withheld unjudged).
    `states`: the search states the meld and rearrange offers may spend
    together (the server's views: :data:`VIEW_STATES`); where they run out,
    the offer is made by the rules' permission, ``exact`` false. None: each
    search has its own budget (OPENING_STATES, REARRANGE_STATES)."""
    budget = StateBudget(states) if states is not None else None
    offers: dict[str, Offer] = {}
    for kind in KINDS:
        if seat is None:
            offers[kind] = Offer(kind, False, refusal=RuleError("not_your_turn", Reason("spectator")))
        elif kind not in kinds:
            offers[kind] = _UNJUDGED[kind]
        elif kind in _SEARCHED:
            offers[kind] = _SEARCHED[kind](rules, s, seat, budget)
        else:
            offers[kind] = _JUDGES[kind](rules, s, seat)
    return LegalMoves(seat, offers)


# ------------------------------------------------------------------ judging one kind


def kind_refusal(rules: Rules, s: GameState, seat: int, kind: str) -> RuleError | None:
    """The refusal the rules that hold for a whole kind give it now (the
    turn, the phase, the profile's switches, the opening), before any card is
    looked at; None when they let it through (its moves are judged next).
    The gates are the engine's own (``gates.KIND_GATES``), the very
    functions its handlers call, in their order."""
    gates = KIND_GATES.get(kind)
    if gates is None:
        raise ValueError(f"no action kind {kind!r} (one of {', '.join(KINDS)})")
    try:
        for gate in gates:
            gate(rules, s, seat)
    except RuleError as e:
        return e
    return None


def switched_on(rules: Rules, kinds: Iterable[str]) -> tuple[str, ...]:
    """Those of `kinds` the profile's switches let through (``gates.KIND_SWITCHES``):
    a kind switched off is refused in every state, so a client that asks the
    legal moves state after state (the learning environments) asks only the others."""
    out = []
    for kind in kinds:
        switch = KIND_SWITCHES.get(kind)
        try:
            if switch is not None:
                switch(rules)
        except RuleError:
            continue
        out.append(kind)
    return tuple(out)


def lay_bounds(rules: Rules, s: GameState, seat: int) -> Bounds:
    """What bounds the seat's lays now (see :class:`Bounds`)."""
    return _bounds(rules, s, seat)


def _judge(
    kind: str,
    rules: Rules,
    s: GameState,
    refused: RuleError | None,
    candidates: Iterable[A.Action],
    *,
    complete: bool,
    none_left: Callable[[], RuleError],
    bounds: Bounds | None = None,
    judge: Callable[[Rules, GameState, Any], RuleError | None] | None = None,
) -> Offer:
    """The offer of a kind: withheld by a whole-kind rule, else the
    candidates the engine accepts (all of them, or the first when not
    `complete`); withheld with the first candidate's refusal (or
    `none_left()` when there is no candidate) when none is accepted.
    `judge`: the verdict on one candidate once the kind's gates have let it
    through (default :func:`verdict`, which judges the whole move)."""
    if refused is not None:
        return Offer(kind, False, complete=complete, refusal=refused, bounds=bounds)
    accepted: list[A.Action] = []
    first: RuleError | None = None
    seen: set[A.Action] = set()
    judge = judge or verdict
    for a in candidates:
        if a in seen:
            continue
        seen.add(a)
        why = judge(rules, s, a)
        if why is not None:
            first = first or why
            continue
        accepted.append(a)
        if not complete:
            break
    if accepted:
        return Offer(kind, True, tuple(accepted), complete, bounds=bounds)
    return Offer(kind, False, complete=complete, refusal=first or none_left(), bounds=bounds)


def verdict(rules: Rules, s: GameState, a: A.Action) -> RuleError | None:
    """The engine's refusal of `a` now (None: accepted), `s` unchanged: a
    discard judged in place by the engine's own checks, any other move played
    on a copy."""
    if isinstance(a, A.Discard):
        return discard_refusal(rules, s, a)
    try:
        play_on(rules, s, a)
    except RuleError as e:
        return e
    return None


def _bounds(rules: Rules, s: GameState, seat: int) -> Bounds:
    return Bounds(
        opening=rules.opening_need(s, seat) if rules.must_open(s, seat) else None,
        kept=rules.kept_going_out,
        jokers_owed=tuple(s.jokers_to_replay),
        taken_owed=s.taken_discard
        if rules.taken_discard_must_be_laid and s.taken_discard in s.hands[seat]
        else None,
    )


def _faces(cards: list[Card]) -> list[Card]:
    """The hand's faces (copy 0), each once, in the order held."""
    return faces_in_order(cards)


def _draw_stock(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "draw_stock")
    return _judge(
        "draw_stock",
        rules,
        s,
        refused,
        [A.Draw(seat, STOCK)],
        complete=True,
        none_left=lambda: RuleError("draw_forbidden", Reason("stock_empty")),
    )


def _draw_discard(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "draw_discard")
    return _judge(
        "draw_discard",
        rules,
        s,
        refused,
        [A.Draw(seat, DISCARD)],
        complete=True,
        none_left=lambda: RuleError("draw_forbidden", Reason("discard_empty")),
    )


def _discard(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "discard")
    cands = [] if refused else [A.Discard(seat, c) for c in _faces(s.hands[seat])]
    if cands and discards_unchecked(rules, s):
        return Offer("discard", True, tuple(cands), True)  # every check on a card is vacuous
    return _judge(
        "discard",
        rules,
        s,
        refused,
        cands,
        complete=True,
        none_left=lambda: RuleError("discard_forbidden", Reason("nothing_to_discard")),
        judge=discard_card_refusal,  # the kind's gate passed above: the checks on each card
    )


def _end_turn(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "end_turn")
    return _judge(
        "end_turn",
        rules,
        s,
        refused,
        [A.EndTurn(seat)],
        complete=True,
        none_left=lambda: RuleError("wrong_phase", Reason("ends_with_discard")),
    )


def _next_round(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "next_round")
    return Offer("next_round", refused is None, refusal=refused)


def _layoff(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "layoff")
    bounds = None if refused else _bounds(rules, s, seat)
    return _judge(
        "layoff",
        rules,
        s,
        refused,
        [] if refused else list(lay_off_candidates(rules, s, seat)),
        complete=True,
        none_left=lambda: RuleError("invalid_meld", Reason("nothing_to_lay_off")),
        bounds=bounds,
    )


def lay_off_candidates(rules: Rules, s: GameState, seat: int) -> Iterator[A.LayOff]:
    """One-card lay offs worth asking the engine: each face of the hand on
    each table meld it could join (``Rules.could_join``: a card that cannot
    join is refused whatever else holds); a joker also at the low end of a run.
    Each meld's faces that might join are one bit mask (`joinable_faces`), so the
    meld readers are asked only of the faces in it."""
    table = [(k, tm.reading, joinable_faces(tm.reading)) for k, tm in enumerate(s.table)]
    for card in _faces(s.hands[seat]):
        bit = 1 << FACE_OF[card]
        for k, r, joins in table:
            if joins & bit and rules.could_join(r, card):
                yield A.LayOff(seat, (A.LayOffItem(card, k),))
            if card.is_joker and r.kind == RUN:
                below = Card(rank_at(r.start - 1), r.suit, 0)
                yield A.LayOff(seat, (A.LayOffItem(card, k, below),))


def _swap(rules: Rules, s: GameState, seat: int) -> Offer:
    refused = kind_refusal(rules, s, seat, "swap")
    return _judge(
        "swap",
        rules,
        s,
        refused,
        [] if refused else list(swap_candidates(s, seat)),
        complete=True,
        none_left=lambda: RuleError("joker_swap_forbidden", Reason("no_joker_to_swap")),
        bounds=None if refused else _bounds(rules, s, seat),
    )


def swap_candidates(s: GameState, seat: int) -> Iterator[A.Swap]:
    """Swaps worth asking the engine: each natural face of the hand for each
    table meld holding a joker, and two naturals of one rank (a three-card
    set's joker is freed by both missing cards)."""
    hand = s.hands[seat]
    naturals = [c for c in _faces(hand) if not c.is_joker]
    held = Counter(map(FACE_OF.__getitem__, hand))
    givens: list[tuple[Card, ...]] = [(c,) for c in naturals]
    for i, a in enumerate(naturals):
        for b in naturals[i:]:
            if a.rank == b.rank and (a != b or held[FACE_OF[a]] > 1):
                givens.append((a, b))
    for k, tm in enumerate(s.table):
        if tm.reading.jokers:
            for given in givens:
                yield A.Swap(seat, given, k)


def _meld(rules: Rules, s: GameState, seat: int, budget: StateBudget | None = None) -> Offer:
    """Offered with an accepted lay as proof; withheld when the gates refuse
    or the opening search proves that no lay meets the need. Where the
    search ran out of states (`budget`) before finding a lay the engine
    accepts, a lay may still exist: offered by permission, ``exact`` false
    and no example (as rearrange)."""
    refused = kind_refusal(rules, s, seat, "meld")
    bounds = None if refused else _bounds(rules, s, seat)
    offer = _judge(
        "meld",
        rules,
        s,
        refused,
        [] if refused else meld_candidates(rules, s, seat, budget),
        complete=False,
        none_left=lambda: RuleError("invalid_meld", Reason("nothing_to_lay")),
        bounds=bounds,
    )
    if offer.allowed or refused is not None or budget is None or not budget.cut:
        return offer
    return Offer("meld", True, (), complete=False, bounds=bounds, exact=False)


def meld_candidates(
    rules: Rules, s: GameState, seat: int, budget: StateBudget | None = None
) -> Iterator[A.Meld]:
    """New lays worth asking the engine, the likeliest first: the solver's
    opening of the most cards that meets the seat's need (the need of an
    opened seat is none), the same with one face held back (a card kept to
    discard, an all-at-once lay of all but the kept cards), going out below
    the points where the profile allows it, then each meld of those alone.
    `budget`: the states every opening search here shares (spent: no more
    searches; its `cut` tells whether one stopped short)."""
    hand = list(s.hands[seat])
    need = rules.opening_need(s, seat) if rules.must_open(s, seat) else OpeningNeed()
    kept = rules.kept_going_out
    found: list[list[list[Card]]] = []

    def best(cards: list[Card], spec: OpeningNeed) -> list[list[Card]] | None:
        if budget is not None and budget.left <= 0:
            budget.cut = True
            return None
        return best_opening(
            cards, rules.melds, spec, score=rules.score_args, max_states=OPENING_STATES, budget=budget
        )

    def lay(melds: list[list[Card]]) -> A.Meld:
        return A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))

    specs = [need]
    if need.points and need.go_out_below_points:
        specs.append(replace(need, points=0))  # going out below the points: every card but the kept
    for spec in specs:
        melds = best(hand, spec)
        if not melds:
            continue
        found.append(melds)
        yield lay(melds)
        if sum(len(m) for m in melds) > len(hand) - kept:
            # Too many cards for the one kept to discard: the same with one face held back.
            for c in _faces(hand):
                rest = list(hand)
                rest.remove(next(x for x in reversed(rest) if x.face == c.face))
                smaller = best(rest, spec)
                if smaller:
                    yield lay(smaller)
    if not need.all_at_once:
        for melds in found:
            for m in melds:
                yield lay([m])


def _rearrange(rules: Rules, s: GameState, seat: int, budget: StateBudget | None = None) -> Offer:
    """Offered when the rules permit a rebuild now (the kind's gates) and one
    exists; withheld when the gates refuse, or when the solver proves that no
    rebuild of the table takes a hand card (no valid table at all: the
    engine, which refuses more, accepts none either). Where the solver's
    rebuilds are all refused by rules it does not know (a house plugin, the
    set-joker rule) or its budget ran out, a legal rebuild may still exist:
    the kind is offered by permission, ``exact`` false and no example, and
    the engine judges what the player tries. The search gives examples and
    the hint, never the permission."""
    refused = kind_refusal(rules, s, seat, "rearrange")
    bounds = None if refused else _bounds(rules, s, seat)
    search = _RebuildSearch()
    offer = _judge(
        "rearrange",
        rules,
        s,
        refused,
        [] if refused else rearrange_candidates(rules, s, seat, search, budget),
        complete=False,
        none_left=lambda: RuleError("no_card_from_hand", Reason("nothing_to_rearrange")),
        bounds=bounds,
    )
    if offer.allowed or refused is not None or search.none_exists:
        return offer
    return Offer("rearrange", True, (), complete=False, bounds=bounds, exact=False)


@dataclass
class _RebuildSearch:
    """What the rebuild search proved: no table of valid melds takes a hand card."""

    none_exists: bool = False


def rearrange_candidates(
    rules: Rules,
    s: GameState,
    seat: int,
    search: _RebuildSearch | None = None,
    budget: StateBudget | None = None,
) -> Iterator[A.Rearrange]:
    """Rebuilds of the table worth asking the engine: the solver's taking the
    most hand cards, then one taking each face of the hand alone, then each
    face with the rest of the hand optional (a house rule that refuses the
    widest rebuild, no_joker_split's, may accept another that lays the same
    face). Where the first search proves that no rebuild takes a hand card,
    there is nothing more to try. `budget`: each rebuild spends
    REARRANGE_STATES of it; once it is spent, no more rebuilds are tried."""
    if not s.table:
        if search is not None:
            search.none_exists = True
        return
    table = [list(m.cards) for m in s.table]
    hand = list(s.hands[seat])

    def rebuild(required: list[Card], optional: list[Card]) -> tuple[A.Rearrange | None, bool]:
        if budget is not None:
            if budget.left < REARRANGE_STATES:
                budget.cut = True
                raise _Spent
            budget.left -= REARRANGE_STATES
        sol = solve([*table, required], optional, rules.melds, max_states=REARRANGE_STATES)
        if sol.feasible and (sol.laid or required):
            return A.Rearrange(seat, tuple(tuple(c.face_card for c in m) for m in sol.melds)), sol.optimal
        return None, sol.optimal

    try:
        widest, proven = rebuild([], hand)
        if widest is not None:
            yield widest
        elif proven:
            if search is not None:
                search.none_exists = True
            return
        faces = _faces(hand)
        for c in faces:
            alone, _ = rebuild([c], [])
            if alone is not None:
                yield alone
        for c in faces:
            rest = list(hand)
            rest.remove(next(x for x in rest if x.face == c.face))
            with_rest, _ = rebuild([c], rest)
            if with_rest is not None:
                yield with_rest
    except _Spent:
        return


class _Spent(Exception):
    """The view's state budget is spent: no more rebuilds are tried."""


# The offer of a kind left unjudged (`legal_moves_in`'s `kinds`): one per
# kind, shared, as an Offer is immutable.
_UNJUDGED: dict[str, Offer] = {kind: Offer(kind, False, complete=False) for kind in KINDS}

# The kinds a search decides: judged with the view's state budget.
_SEARCHED: dict[str, Callable[[Rules, GameState, int, StateBudget | None], Offer]] = {
    "meld": _meld,
    "rearrange": _rearrange,
}

_JUDGES: dict[str, Callable[[Rules, GameState, int], Offer]] = {
    "draw_stock": _draw_stock,
    "draw_discard": _draw_discard,
    "meld": _meld,
    "layoff": _layoff,
    "swap": _swap,
    "rearrange": _rearrange,
    "discard": _discard,
    "end_turn": _end_turn,
    "next_round": _next_round,
}

__all__ = [
    "KINDS",
    "VIEW_STATES",
    "Bounds",
    "LegalMoves",
    "Offer",
    "lay_off_candidates",
    "legal_moves",
    "legal_moves_in",
    "meld_candidates",
    "rearrange_candidates",
    "swap_candidates",
    "switched_on",
    "verdict",
]
