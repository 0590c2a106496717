"""The bot that plays plans out (`PlanningBot`, the base of greedy and
expert): it plans its turn once it has drawn and replans whenever the view is
not the one the plan expected.
"""

from __future__ import annotations

import random

from rami_core.cards import Card
from rami_core.cards.melds import joins_meld
from rami_core.game import actions as A
from rami_core.game.state import DRAW, GameState
from rami_core.game.views import SeatView
from rami_core.game.views import view as seat_view
from rami_core.players.bots.base import may, state_from_view, try_action
from rami_core.players.bots.hand import (
    meldable,
    usefulness,
)
from rami_core.players.bots.planner import Planner
from rami_core.profile.rules import Rules
from rami_core.referee.gates import DISCARD, STOCK
from rami_core.referee.legal import legal_moves_in

DRAWS = ("draw_stock", "draw_discard")  # the kinds a turn's draw is chosen among

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
        """The pile to draw from, among those the engine offers now (its
        legal moves: a house rule may close the discard pile for a turn)."""
        seat = view.seat
        top = view.discard_top
        offered = legal_moves_in(rules, s, seat, DRAWS)
        take = A.Draw(seat, DISCARD)
        from_discard = offered.may("draw_discard")
        if top is not None and from_discard and self.wants_discard(view, rules, s, top):
            s2 = try_action(rules, s, take)
            if s2 is not None and self.discard_draw_ok(rules, s2, seat):
                return take
        if offered.may("draw_stock"):
            return A.Draw(seat, STOCK)
        if from_discard:
            s2 = try_action(rules, s, take)
            if s2 is not None and self.discard_draw_ok(rules, s2, seat):
                return take
        return A.Timeout(seat)

    @staticmethod
    def may_lay_off_after(rules: Rules, s: GameState, seat: int, source: str = DISCARD) -> bool:
        """Whether the seat may lay off once it has drawn from `source`, as the
        engine judges it on the state after the draw (the opening, the profile's
        switches, an all-at-once lay); False where that draw is refused."""
        after = try_action(rules, s, A.Draw(seat, source))
        return after is not None and may(rules, after, seat, "layoff")

    def discard_draw_ok(self, rules: Rules, s2: GameState, seat: int) -> bool:
        """After taking the discard: the turn can still end, as the engine judges
        it (the taken card laid where it must be, a discard a house rule allows).
        The plan is made on the state the lay phase will rebuild from its view
        (`state_from_view` of the view after the draw: the taken card and its
        twins marked as there), so that it is the plan the lay phase would
        make, and is played instead of planned again (the plan keys differed
        in the taken card's deck mark: every Rami 51 turn that took the
        discard planned twice)."""
        s2 = state_from_view(seat_view(s2, seat, teams=rules.teams))
        plan = self.planner(rules).plan(s2, seat)
        self._drawn_plan = (self.plan_key(s2, seat), list(plan))
        return bool(plan)  # a plan is played out on the state it is made from, action by action

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        hand = list(view.hand)
        if top.is_joker:
            return True
        if view.table and self.may_lay_off_after(rules, s, view.seat):
            for m in view.table:
                if joins_meld(tuple(m.cards), top, rules.melds):
                    return True
        if top.face_card not in meldable(hand + [top], rules.melds):
            return False
        return top.face_card not in meldable(hand, rules.melds) or usefulness(top, hand) >= 8
