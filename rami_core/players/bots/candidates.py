"""The candidate moves the bots weigh: openings, lay offs, joker swaps,
hand melds and the ends of a turn, each checked by the engine.

Every judgement of a rule is the engine's, asked through its legal-moves
API (:mod:`rami_core.referee.legal`): what a seat needs to open and the cards it keeps
(``base.bounds``, the partner rule included), whether it may discard, end
the turn or swap now (``base.may``), and, for each candidate, whether the
engine accepts it on the state rebuilt from the seat's view
(``base.try_action``). What is left here is strategy: which moves are worth
asking, in which order. The planner (:mod:`.planner`) chains these into a
whole turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from rami_core.cards import JOKER, JOKER_SUIT, Card
from rami_core.cards.melds import AMBIGUOUS, SET, MeldRules, joins_meld
from rami_core.game import actions as A
from rami_core.game.state import GameState
from rami_core.players.bots.base import bounds, may, try_action
from rami_core.players.bots.hand import (
    NoLayFacts,
    meldable,
    rebuild_may_lay,
    without,
)
from rami_core.profile.rules import OpeningNeed, Rules
from rami_core.solver import best_lay_offs, best_opening, solve

# Search states the solver may spend on a whole-table rearrangement: a count,
# not seconds, so that a seeded game plays the same on any machine under any
# load. Below the solver's LP_BUDGET: greedy never pays for the LP path, and a
# rebuild too hard for this falls back on hand melds and lay offs.
REARRANGE_STATES = 2000
MAX_PLAN_STEPS = 8  # lay actions one turn may chain (each lays at least one hand card)


def run_actions(rules: Rules, s: GameState, actions: Sequence[A.Action]) -> GameState | None:
    """The state after every action in turn, or None if the engine refuses one."""
    for a in actions:
        after = try_action(rules, s, a)
        if after is None:
            return None
        s = after
    return s


def end_actions(rules: Rules, s: GameState, seat: int, order: Sequence[Card]) -> list[A.Action]:
    """The ways to end the turn, in the order to prefer them."""
    return list(_end_actions(rules, s, seat, order))


def _end_actions(rules: Rules, s: GameState, seat: int, order: Sequence[Card]) -> Iterator[A.Action]:
    """The ends the engine lets the turn have now: ending it as it stands, or
    the discards of `order`, each face once (the discards are judged one by
    one when played: a house rule may refuse some)."""
    if not may(rules, s, seat, "discard"):
        if may(rules, s, seat, "end_turn"):
            yield A.EndTurn(seat)
        return
    seen = set()
    for c in order:
        f = c.face_card
        if f in seen:
            continue
        seen.add(f)
        yield A.Discard(seat, f)


def cards_laid(actions: Sequence[A.Action]) -> int:
    n = 0
    for a in actions:
        if isinstance(a, A.Meld):
            n += sum(len(m) for m in a.melds)
        elif isinstance(a, A.LayOff):
            n += len(a.items)
        elif isinstance(a, A.Rearrange):
            n += 1
    return n


def first_legal_end(rules: Rules, s: GameState, seat: int, order: Sequence[Card]) -> A.Action | None:
    for a in _end_actions(rules, s, seat, order):  # lazily: the first is nearly always legal
        if try_action(rules, s, a) is not None:
            return a
    return None


# --------------------------------------------------------------------------- lay planning


def opening_may_exist(rules: Rules, spec, hand: Sequence[Card]) -> tuple[bool, bool]:
    """Necessary conditions, cheap, for ``best_opening(hand, ..., spec)``:
    (an opening meeting the spec's points may exist, a going out below the
    points laying the whole hand may exist). False means surely none: the
    cards that take part in some meld allowed by the spec (its jokers rule)
    must hold a run and a set where both are needed, a joker-free run where
    one is, and be worth the points at their most; going out needs every
    card of the hand in such a meld."""
    meld_rules = rules.melds
    jokers_ok = bool(spec.jokers)
    can = meldable(hand, meld_rules, jokers_ok=jokers_ok)
    if not can:
        return False, False
    if spec.pure_run and not meldable(hand, meld_rules, sets=False, jokers_ok=False):
        return False, False
    if spec.run_and_set and not (
        meldable(hand, meld_rules, sets=False, jokers_ok=jokers_ok)
        and meldable(hand, meld_rules, runs=False, jokers_ok=jokers_ok)
    ):
        return False, False
    need = spec.points
    reach = not need or sum(rules.top_points(c) for c in hand if c.face_card in can) >= need
    go_out = all(c.face_card in can for c in hand)
    return reach, go_out


def opening_actions(
    rules: Rules, s: GameState, seat: int, hand: Sequence[Card], facts: NoLayFacts | None = None
) -> list[list[A.Action]]:
    """Candidate openings (each a list of actions) from `hand`, largest first.
    `facts`: hands known to hold no opening of these settings (`NoLayFacts`
    under the topic of the settings): an opening of a hand that kept part of
    such a hand and gained cards holds one of the new cards in a meld."""
    limits = bounds(rules, s, seat)
    spec = limits.opening or OpeningNeed()  # a seat that lays freely: any melds
    meld_rules = rules.melds
    out: list[list[A.Action]] = []
    can = set(meldable(hand, meld_rules))
    if not can:
        return out
    if not spec.jokers:
        can.discard(JOKER)
        if not meldable(hand, meld_rules, jokers_ok=False):
            return out
    if spec.pure_run and not meldable(hand, meld_rules, sets=False, jokers_ok=False):
        return out
    if spec.run_and_set and not (
        meldable(hand, meld_rules, sets=False) and meldable(hand, meld_rules, runs=False)
    ):
        return out
    go_out = spec.go_out_below_points or spec.all_at_once
    need = spec.points
    if need and not go_out:
        top = sum(rules.top_points(c) for c in hand if c.face_card in can)  # the profile's values
        if top < need:
            return out
    if spec.all_at_once and len([c for c in hand if c.face_card in can]) < len(hand) - 1:
        return out

    def meld(melds) -> list[A.Action]:
        return [A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))]

    if spec.all_at_once:
        need = len(hand) - limits.kept
        melds = best_opening(hand, meld_rules, spec, score=rules.score_args)
        laid = sum(len(m) for m in melds) if melds else 0
        if laid == need:
            out.append(meld(melds))
        elif laid > need:
            for c in dict.fromkeys(c.face_card for c in hand):
                melds = best_opening(without(hand, [c]), meld_rules, spec, score=rules.score_args)
                if melds and sum(len(m) for m in melds) == need:
                    out.append(meld(melds))
                    break
        return out
    reach, go_out_ok = opening_may_exist(rules, spec, hand)
    # what best_opening reads of the settings
    topic = ("opening", spec.points, spec.pure_run, spec.run_and_set, spec.jokers)
    if reach and facts is not None and facts.nothing((), hand, meld_rules, topic):
        reach = False
    melds = best_opening(hand, meld_rules, spec, score=rules.score_args) if reach else None
    if reach and not melds and facts is not None:
        facts.add((), hand, topic)
    if melds:
        out.append(meld(melds))
    if spec.go_out_below_points and bool(spec.points) and go_out_ok:
        low = replace(spec, points=0)
        melds = best_opening(hand, meld_rules, low, score=rules.score_args)
        if melds and sum(len(m) for m in melds) == len(hand):
            out.append([A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))])
    return out


def layoff_actions(
    rules: Rules, s: GameState, seat: int, hand: Sequence[Card], new_melds: bool = True
) -> list[A.Action]:
    """The most cards laid from `hand` where table melds keep their places:
    one lay off action (every meld at once) and one meld action (none where
    `new_melds` is false: the engine lays no new meld now)."""
    readings = [m.reading for m in s.table]
    if new_melds and meldable(hand, rules.melds):
        plan = best_lay_offs(readings, list(hand), rules.melds)
    else:
        plan = best_lay_offs(readings, list(hand), rules.melds, new_melds=False)
    acts: list[A.Action] = []
    items = []
    for idx, nats, joks in plan.lay_offs:
        for c in nats:
            items.append(A.LayOffItem(c.face_card, idx))
        for _j, f in joks:
            as_ = (
                Card(f[0], f[1], 0)
                if f is not None and f[1] not in (AMBIGUOUS, JOKER_SUIT) and f[1] >= 0
                else None
            )
            items.append(A.LayOffItem(JOKER, idx, as_))
    if items:
        acts.append(A.LayOff(seat, tuple(items)))
    if plan.new_melds:
        acts.append(A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in plan.new_melds)))
    return acts


def simple_layoffs(rules: Rules, s: GameState, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    """Single-card lay offs judged as a multiset (a table that may be rearranged),
    as many as fit, one meld after another."""
    meld_rules = rules.melds
    items = []
    left = list(hand)
    order = sorted(left, key=_high_first)  # sorted again only when a card goes
    for i, tm in enumerate(s.table):
        m = tm.cards
        laid = False
        # the suit and the rank all the meld's naturals share (_ANY: no
        # natural, _MIXED: none shared): a natural of another suit and another
        # rank joins no meld (``melds.might_join``), answered here before the
        # memo of ``joins_meld`` hashes the meld (most of this loop's cost)
        suit = rank = _ANY
        suits = ranks = 0  # the naturals' suits and ranks, as bits
        for o in m:
            if not o.is_joker:
                suit = o.suit if suit in (_ANY, o.suit) else _MIXED
                rank = o.rank if rank in (_ANY, o.rank) else _MIXED
                suits |= 1 << o.suit
                ranks |= 1 << o.rank
        for c in order:
            if c.suit != JOKER_SUIT and suit != _ANY:
                if suit != c.suit and rank != _ANY and rank != c.rank:
                    continue
                if (suit == _MIXED or rank == _MIXED) and _apart(suit, suits, ranks, len(m), c, meld_rules):
                    continue
            if joins_meld(m, c, meld_rules):
                m = (*m, c)
                items.append(A.LayOffItem(c.face_card, i))
                left = without(left, [c])
                laid = True
                if c.suit != JOKER_SUIT:
                    suit = c.suit if suit in (_ANY, c.suit) else _MIXED
                    rank = c.rank if rank in (_ANY, c.rank) else _MIXED
                    suits |= 1 << c.suit
                    ranks |= 1 << c.rank
        if laid:
            order = sorted(left, key=_high_first)
    return [A.LayOff(seat, tuple(items))] if items else []


_ANY, _MIXED = -1, -2  # simple_layoffs: no natural in the meld; naturals of several suits (ranks)


def _apart(suit: int, suits: int, ranks: int, n: int, c: Card, meld_rules: MeldRules) -> bool:
    """True when the natural ``c`` surely joins no meld with the ``n`` cards
    of a table meld whose naturals are of several ranks (a run of ``suit``,
    ``c`` of that suit) or of several suits (a set, ``c`` of its rank);
    ``suits`` and ``ranks`` are its naturals' as bits. A cheap test before
    the memo of ``joins_meld``, whose key hashes the meld: a run holds each
    rank once (at most 13 cards) and, no ace among its naturals and ``c``
    not one, a run that does not wrap spans its naturals' places (their
    ranks) in its ``n + 1`` cards; a set holds ``set_max`` cards at most,
    of different suits where the rules say so."""
    if suit == _MIXED:  # a set
        return n >= meld_rules.set_max or (meld_rules.set_distinct_suits and bool(suits >> c.suit & 1))
    r = c.rank
    if ranks >> r & 1:
        return True
    if meld_rules.wrap or r == 1 or ranks & 2:
        return False
    lo = min((ranks & -ranks).bit_length() - 1, r)
    hi = max(ranks.bit_length() - 1, r)
    return hi - lo + 1 > n + 1


def _high_first(c: Card) -> tuple[bool, int]:
    """Naturals before jokers, high ranks first: the order single lay offs are tried in."""
    return (c.is_joker, -c.rank)


def hand_meld_actions(rules: Rules, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    if not rebuild_may_lay((), hand, rules.melds):
        return []
    sol = solve([], list(hand), rules.melds)
    if not sol.melds:
        return []
    return [A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in sol.melds))]


def swap_candidates(rules: Rules, s: GameState, seat: int) -> list[A.Swap]:
    """Joker swaps the seat's hand can make (cards it holds for a table joker),
    where the engine lets it swap now."""
    if not may(rules, s, seat, "swap"):
        return []
    held: Counter | None = None  # counted at the first table meld holding a joker
    out: list[A.Swap] = []
    for i, m in enumerate(s.table):
        r = m.reading
        if not r.jokers:
            continue
        if held is None:
            held = Counter(c.face_card for c in s.hands[seat])
        for c, st in zip(r.cards, r.stands):
            if c.is_joker and st[1] not in (AMBIGUOUS,) and 0 <= st[1] < 4 and held[Card(st[0], st[1], 0)]:
                out.append(A.Swap(seat, (Card(st[0], st[1], 0),), i))
        if r.kind == SET and len(r.cards) == 3 and r.jokers == 1:
            suits = {c.suit for c in r.cards if not c.is_joker}
            missing = [Card(r.rank, su, 0) for su in range(4) if su not in suits]
            if all(held[f] for f in missing):
                out.append(A.Swap(seat, tuple(missing), i))
            elif r.kind == SET:
                out.extend(A.Swap(seat, (f,), i) for f in missing if held[f])
    return list(dict.fromkeys(out))
