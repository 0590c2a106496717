"""The bots' shared planning: openings, lay offs, joker swaps, rebuilds of
the table, and the whole turn they make up (`Planner`), with the bot that
plays such plans (`PlanningBot`, the base of greedy and expert) and the hint.

Every judgement of a rule is the engine's or `Rules`': what a seat needs to
open (`rules.opening_need`, the partner rule included), whether it may lay
off, swap or rearrange, and, for each candidate, whether the engine accepts
it on the state rebuilt from the seat's view (``base.try_action``). A lay is only
chosen as part of a whole turn that can end (the cards laid, then a legal
discard or end of turn), so a plan never paints itself into a turn it cannot
finish, whatever the plugins refuse.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from .. import actions as A
from ..cards import JOKER, JOKER_SUIT, Card
from ..engine import DISCARD, STOCK
from ..melds import AMBIGUOUS, SET, joins_meld
from ..rules import Rules
from ..solver import best_lay_offs, best_opening, solve
from ..state import DRAW, LAY, OVER, GameState
from ..views import SeatView
from .base import state_from_view, try_action
from .hand import (
    NoLayFacts,
    fits_table,
    meldable,
    rebuild_may_lay,
    usefulness,
    usefulness_of_hand,
    without,
)

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
    return list(_end_actions(rules, seat, order))


def _end_actions(rules: Rules, seat: int, order: Sequence[Card]) -> Iterator[A.Action]:
    if not rules.ends_with_discard:
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
    for a in _end_actions(rules, seat, order):  # lazily: the first is nearly always legal
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
    spec = rules.opening_need(s, seat)
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
        top = sum(
            11 if c.is_joker else min(10, c.rank) if c.rank != 1 else 11 for c in hand if c.face_card in can
        )
        if top < need:
            return out
    if spec.all_at_once and len([c for c in hand if c.face_card in can]) < len(hand) - 1:
        return out

    def meld(melds) -> list[A.Action]:
        return [A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))]

    if spec.all_at_once:
        need = len(hand) - (1 if rules.keep_last else 0)
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


def layoff_actions(rules: Rules, s: GameState, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    """The most cards laid from `hand` where table melds keep their places:
    one lay off action (every meld at once) and one meld action."""
    readings = [m.reading for m in s.table]
    if meldable(hand, rules.melds):
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
        for c in order:
            if joins_meld(m, c, meld_rules):
                m = (*m, c)
                items.append(A.LayOffItem(c.face_card, i))
                left = without(left, [c])
                laid = True
        if laid:
            order = sorted(left, key=_high_first)
    return [A.LayOff(seat, tuple(items))] if items else []


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
    """Joker swaps the seat's hand can make (cards it holds for a table joker)."""
    if not rules.swaps_to_hand:
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


@dataclass
class Planner:
    """Builds a whole turn: lays, then the end of the turn. Subclasses (expert)
    change how lays are chosen and which card goes."""

    rules: Rules
    _refused: bool = False
    _no_lay: NoLayFacts = field(default_factory=lambda: NoLayFacts())
    _order: tuple[tuple, list[Card]] | None = None  # the last discard order and what it was for
    rearrange_states: ClassVar[int | None] = REARRANGE_STATES

    # ---- what to lay from a state, one step

    def lay_step(self, s: GameState, seat: int, hand: Sequence[Card]) -> list[list[A.Action]]:
        """Candidate next lays (each a short list of actions), best first, using
        only the cards of `hand` (the seat's hand minus a card held back)."""
        rules = self.rules
        if not hand:
            return []
        if self.nothing_to_lay(s, seat, hand):
            return []
        if rules.must_open(s, seat):
            return opening_actions(rules, s, seat, hand, self._no_lay)
        out: list[list[A.Action]] = []
        if rules.may_rearrange:
            # Where the whole table may be rebuilt, laying "as much as it may"
            # means the solver's rebuild (the most cards, then points): without
            # it even the random bot's one-card rebuilds outplay hand melds and
            # lay offs.
            if s.table:
                sol, proven = self.rearrangement(s, hand)
                if sol is not None:
                    out.append([sol(seat)])
                elif proven:
                    return out  # a hand meld or a lay off would be a rebuild laying cards
            acts = hand_meld_actions(rules, seat, hand)
            if acts:
                out.append(acts)
            acts = simple_layoffs(rules, s, seat, hand)
            if acts:
                out.append(acts)
            return out
        acts = (
            layoff_actions(rules, s, seat, hand)
            if rules.may_lay_off
            else hand_meld_actions(rules, seat, hand)
        )
        if acts:
            out.append(acts)
        return out

    def nothing_to_lay(self, s: GameState, seat: int, hand: Sequence[Card]) -> bool:
        """Cheap proof that no lay exists (most turns): no meld in the hand and,
        for a seat that may lay off, no card that fits a table meld alone."""
        if meldable(hand, self.rules.melds):
            return False
        rules = self.rules
        if s.table and rules.may_lay_freely(s, seat) and rules.lay_offs_ever:
            if rules.may_rearrange:
                return not rebuild_may_lay([c for m in s.table for c in m.cards], hand, rules.melds)
            return not any(fits_table(c, s, self.rules) for c in dict.fromkeys(c.face_card for c in hand))
        return True

    def rearrangement(
        self, s: GameState, hand: Sequence[Card]
    ) -> tuple[Callable[[int], A.Action] | None, bool]:
        """The solver's rebuild of the table laying the most of `hand` (an
        action for a seat), or None; and whether None is proven (no rebuild
        lays a card of `hand`). Proofs are remembered (`NoLayFacts`), so
        the solver is not asked where they settle the question."""
        table = [c for m in s.table for c in m.cards]
        if self._no_lay.nothing(table, hand, self.rules.melds):
            return None, True
        sol = solve(
            [list(m.cards) for m in s.table],
            list(hand),
            self.rules.melds,
            points=self.rules.card_value,
            max_states=self.rearrange_states,
        )
        proven = sol.optimal and sol.feasible
        if not sol.feasible or not sol.laid:
            if proven:
                self._no_lay.add(table, hand)
            return None, proven
        if proven:  # once the optimum is laid, nothing more can be
            self._no_lay.add(table + sol.laid, without(hand, sol.laid))
        melds = tuple(tuple(c.face_card for c in m) for m in sol.melds)
        return (lambda seat: A.Rearrange(seat, melds)), False

    def swaps(self, s: GameState, seat: int) -> list[list[A.Action]]:
        """Swaps worth making: the freed joker goes back down in the same plan."""
        out = []
        for sw in swap_candidates(self.rules, s, seat):
            s2 = try_action(self.rules, s, sw)
            if s2 is None:
                continue
            for lay in self.lay_step(s2, seat, s2.hands[seat]):
                s3 = run_actions(self.rules, s2, lay)
                if (
                    s3 is not None
                    and not s3.jokers_to_replay
                    and s3.hands[seat].count(JOKER) < s2.hands[seat].count(JOKER)
                ):
                    out.append([sw] + lay)
                    break
        return out

    # ---- the whole turn

    def lays(self, s: GameState, seat: int, reserve: Card | None) -> tuple[list[A.Action], GameState]:
        """Chain lay steps from `s` while they lay cards; `reserve`: a card never laid."""
        done: list[A.Action] = []
        for _ in range(MAX_PLAN_STEPS):
            if s.phase != LAY:
                break
            hand = s.hands[seat]
            usable = without(hand, [reserve]) if reserve is not None else list(hand)
            options = (
                self.swaps(s, seat) + self.lay_step(s, seat, usable)
                if s.table
                else self.lay_step(s, seat, usable)
            )
            progressed = False
            for acts in options:
                for k in range(len(acts), 0, -1):  # the whole option, else its longest legal prefix
                    s2 = run_actions(self.rules, s, acts[:k])
                    if s2 is None:
                        if cards_laid(acts[:k]) >= len(hand):
                            self._refused = True  # it would empty the hand: hold a card back
                        continue
                    if s2.phase == OVER or len(s2.hands[seat]) < len(hand):
                        done += acts[:k]
                        s = s2
                        progressed = True
                    break
                if progressed:
                    break
            if not progressed:
                break
        return done, s

    def end_order(self, s: GameState, seat: int) -> list[Card]:
        return self.discard_order(s, seat) if self.rules.ends_with_discard else list(s.hands[seat])

    def discard_order(self, s: GameState, seat: int) -> list[Card]:
        """Cards to discard, best first: least useful, then highest value; the
        card just taken from the discard pile last (it was taken to be kept:
        throwing it back would pass one card to and fro for ever)."""
        hand = s.hands[seat]
        taken = s.taken_discard.face if s.taken_discard is not None else None
        sign = 1 if self.needs_points(s, seat) else -1
        memo = (tuple(hand), taken, sign)  # a plan asks again for the hand it started from
        if self._order is not None and self._order[0] == memo:
            return list(self._order[1])
        keys: dict = {}
        useful = usefulness_of_hand(hand)

        def key(c: Card) -> tuple:
            f = c.face
            k = keys.get(f)
            if k is None:
                k = keys[f] = (
                    f == taken,
                    c.is_joker,
                    useful[f],
                    sign * self.rules.card_value(c),
                )
            return k

        order = sorted(hand, key=key)
        self._order = (memo, order)
        return list(order)

    def needs_points(self, s: GameState, seat: int) -> bool:
        """Whether this seat still has to open with a points minimum: then high
        cards are what it collects, and the low ones go first (after opening,
        the costly ones go first)."""
        return not s.opened[seat] and bool(getattr(self.rules.opening_need(s, seat), "points", 0))

    def reserve_order(self, s: GameState, seat: int) -> list[Card | None]:
        """Which card to hold back so the turn can end with a discard."""
        return [None] + list(dict.fromkeys(c.face_card for c in self.discard_order(s, seat)))[:6]

    def want_lays(self, s: GameState, seat: int, lays: list[A.Action], after: GameState) -> bool:
        """Whether to lay at all this turn (greedy: always)."""
        return True

    def plan(self, s: GameState, seat: int) -> list[A.Action]:
        """A whole legal turn from the lay phase: lays, then the end."""
        rules = self.rules
        best: list[A.Action] | None = None
        best_left = 10**6

        def reserves():  # the others are worked out only if holding nothing back fails
            yield None
            yield from self.reserve_order(s, seat)[1:]

        for reserve in reserves():
            self._refused = False
            lays, after = self.lays(s, seat, reserve)
            if lays and not self.want_lays(s, seat, lays, after):
                lays, after = [], s
            if after.phase == OVER:
                return lays
            end = first_legal_end(rules, after, seat, self.end_order(after, seat))
            if end is not None:
                left = len(after.hands[seat])
                if left < best_left:
                    best, best_left = lays + [end], left
                if left <= 1 or not (rules.keep_last and (self._refused or reserve is not None)):
                    break
            elif not rules.keep_last:
                continue
        if best is not None:
            return best
        # Nothing lays and ends: end as the hand stands if possible.
        end = first_legal_end(rules, s, seat, self.end_order(s, seat))
        return [end] if end is not None else []


# --------------------------------------------------------------------------- the bot


class PlanningBot:
    """A bot that plans its turn when it has drawn and plays the plan out,
    replanning whenever the view is not the one the plan expected."""

    name = "planning"
    planner_class: type[Planner] = Planner

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._plan: list[A.Action] = []
        self._expect: tuple | None = None
        self._planner: Planner | None = None
        # The plan made to judge taking the discard top, kept for the turn it
        # was made for: the lay phase that follows asks the same question.
        self._drawn_plan: tuple[tuple, list[A.Action]] | None = None

    def planner(self, rules: Rules) -> Planner:
        if self._planner is None or self._planner.rules is not rules:
            self._planner = self.planner_class(rules)
        return self._planner

    @staticmethod
    def fingerprint(s: GameState, seat: int) -> tuple:
        """The position a plan was made for (faces as (rank, suit): which deck a
        card came from does not matter), compared only with another fingerprint."""
        return (
            s.round_no,
            s.turn,
            s.phase,
            tuple(sorted(c[:2] for c in s.hands[seat])),
            tuple(tuple(c[:2] for c in m.cards) for m in s.table),
            len(s.discard),
            len(s.stock),
        )

    @classmethod
    def plan_key(cls, s: GameState, seat: int) -> tuple:
        """What a plan made from `s` depends on: the fingerprint and this turn's facts."""
        return (
            cls.fingerprint(s, seat),
            s.drew_from,
            s.taken_discard,
            s.laid_this_turn,
            s.opened_this_turn,
            tuple(s.opened),
        )

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        s = state_from_view(view)
        seat = view.seat
        if s.phase == DRAW:
            self._plan = []
            self._drawn_plan = None
            return self.draw(view, rules, s)
        drawn, self._drawn_plan = self._drawn_plan, None
        checked_here = False  # the planner played this action on `s` itself
        if self._plan and self._expect == self.fingerprint(s, seat):
            action = self._plan.pop(0)
        else:
            if drawn is not None and drawn[0] == self.plan_key(s, seat):
                self._plan = list(drawn[1])
            else:
                self._plan = self.planner(rules).plan(s, seat)
                checked_here = True
            if not self._plan:
                return A.Timeout(seat)
            action = self._plan.pop(0)
        if checked_here and not self._plan:
            self._expect = None  # a one-action turn: nothing to expect, nothing to re-check
            return action
        after = try_action(rules, s, action)
        if after is None:  # cannot happen for a checked plan; replan from scratch next time
            self._plan = []
            return A.Timeout(seat)
        self._expect = self.fingerprint(after, seat) if self._plan else None
        return action

    # ---- drawing

    def draw(self, view: SeatView, rules: Rules, s: GameState) -> A.Action:
        seat = view.seat
        top = view.discard_top
        if top is not None and rules.draw_from_discard and self.wants_discard(view, rules, s, top):
            take = A.Draw(seat, DISCARD)
            s2 = try_action(rules, s, take)
            if s2 is not None and self.discard_draw_ok(rules, s2, seat):
                return take
        stock = A.Draw(seat, STOCK)
        if try_action(rules, s, stock) is not None:
            return stock
        take = A.Draw(seat, DISCARD)
        s2 = try_action(rules, s, take)
        if s2 is not None and self.discard_draw_ok(rules, s2, seat):
            return take
        return A.Timeout(seat)

    def discard_draw_ok(self, rules: Rules, s2: GameState, seat: int) -> bool:
        """After taking the discard: the turn can still end, as the engine judges
        it (the taken card laid where it must be, a discard a house rule allows)."""
        plan = self.planner(rules).plan(s2, seat)
        self._drawn_plan = (self.plan_key(s2, seat), list(plan))
        return bool(plan)  # a plan is played out on the state it is made from, action by action

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        hand = list(view.hand)
        if top.is_joker:
            return True
        if rules.may_lay_freely(s, view.seat) and rules.may_lay_off and not rules.opening.all_at_once:
            for m in view.table:
                if joins_meld(tuple(m.cards), top, rules.melds):
                    return True
        if top.face_card not in meldable(hand + [top], rules.melds):
            return False
        return top.face_card not in meldable(hand, rules.melds) or usefulness(top, hand) >= 8
