"""The random bot: any legal action, chosen uniformly among the candidates it generates.

Each call it lists candidates of every kind the engine's legal moves allow
now (the piles offered to draw from; openings and new melds found by the solver, and single melds;
lay offs of one card onto each table meld; joker swaps; rearrangements: one random hand card
laid by the solver's rebuild of the table, and single cards added to a meld; every discard or the end of the
turn), keeps those the engine accepts on the state rebuilt from the view and
after which the turn can still be ended, and picks one uniformly. It is a
baseline and a legality probe, not a player: it lays rarely, because most of
its candidates are discards.
"""

from __future__ import annotations

import random

from rami_core.cards.melds import RUN, read_meld
from rami_core.game import actions as A
from rami_core.game.state import DRAW, OVER, GameState
from rami_core.game.views import SeatView
from rami_core.players.bots.base import bounds, may, register_bot, state_from_view, try_action
from rami_core.players.bots.candidates import (
    REARRANGE_STATES,
    end_actions,
    first_legal_end,
    opening_actions,
    swap_candidates,
)
from rami_core.players.bots.planner import Planner
from rami_core.profile.rules import Rules
from rami_core.referee.legal import legal_moves_in
from rami_core.solver import solve

MAX_LAYOFF_CANDIDATES = 40


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._planner: Planner | None = None

    def planner(self, rules: Rules) -> Planner:
        if self._planner is None or self._planner.rules is not rules:
            self._planner = Planner(rules)
        return self._planner

    # ---- candidates

    def lay_candidates(self, rules: Rules, s: GameState, seat: int) -> list[A.Action]:
        hand = s.hands[seat]
        meld_rules = rules.melds
        out: list[A.Action] = []
        if bounds(rules, s, seat).opening is not None:
            if not may(rules, s, seat, "meld"):
                return out
            for acts in opening_actions(rules, s, seat, hand):
                out.append(acts[0])
            return out
        # New melds: the solver's whole lay from the hand, and each of its melds alone.
        sol = solve([], list(hand), meld_rules) if may(rules, s, seat, "meld") else None
        if sol is not None and sol.melds:
            melds = [tuple(c.face_card for c in m) for m in sol.melds]
            out.append(A.Meld(seat, tuple(melds)))
            if len(melds) > 1:
                out.extend(A.Meld(seat, (m,)) for m in melds)
        # Lay offs of one card (plausible fits first, a few at random).
        pairs = []
        for i, m in enumerate(s.table):
            r = m.reading
            for c in dict.fromkeys(c.face_card for c in hand):
                if c.is_joker or (r.kind == RUN and c.suit == r.suit) or (r.kind != RUN and c.rank == r.rank):
                    pairs.append((c, i))
        self.rng.shuffle(pairs)
        if may(rules, s, seat, "layoff"):
            out.extend(A.LayOff(seat, (A.LayOffItem(c, i),)) for c, i in pairs[:MAX_LAYOFF_CANDIDATES])
        out.extend(swap_candidates(rules, s, seat))
        if s.table and may(rules, s, seat, "rearrange"):
            # One hand card, picked at random, laid by rebuilding the table if
            # the solver finds a way: a real rearrangement, but not the best
            # lay of the whole hand (that is the expert's skill).
            one = self.rng.choice(hand)
            sol = solve([list(m.cards) for m in s.table], [one], meld_rules, max_states=REARRANGE_STATES)
            if sol.feasible and sol.laid:
                out.append(A.Rearrange(seat, tuple(tuple(c.face_card for c in m) for m in sol.melds)))
            table = [tuple(c.face_card for c in m.cards) for m in s.table]
            for c, i in pairs[:10]:
                new = table[i] + (c,)
                if read_meld(list(new), meld_rules) is not None:
                    out.append(A.Rearrange(seat, tuple(table[:i]) + (new,) + tuple(table[i + 1 :])))
        return out

    def finishable(self, rules: Rules, s: GameState, seat: int) -> bool:
        """The turn can still end from `s` (the round is over, or some end is legal,
        or the greedy plan finds lays that make one legal)."""
        if s.phase == OVER or s.turn != seat:
            return True
        order = sorted(s.hands[seat], key=lambda c: c.is_joker)
        if first_legal_end(rules, s, seat, order) is not None:
            return True
        return bool(self.planner(rules).plan(s, seat))

    # ---- the choice

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        s = state_from_view(view)
        seat = view.seat
        legal: list[A.Action] = []
        a: A.Action
        if s.phase == DRAW:
            offered = legal_moves_in(rules, s, seat, ("draw_stock", "draw_discard"))
            for a in (*offered.moves("draw_stock"), *offered.moves("draw_discard")):
                s2 = try_action(rules, s, a)
                if s2 is not None and self.finishable(rules, s2, seat):
                    legal.append(a)
        else:
            for a in self.lay_candidates(rules, s, seat):
                s2 = try_action(rules, s, a)
                if s2 is not None and self.finishable(rules, s2, seat):
                    legal.append(a)
            for a in end_actions(rules, s, seat, s.hands[seat]):
                if try_action(rules, s, a) is not None:
                    legal.append(a)
        if not legal:
            if s.phase != DRAW:
                plan = self.planner(rules).plan(s, seat)
                if plan:
                    return plan[0]
            return A.Timeout(seat)
        legal = list(dict.fromkeys(legal))
        return self.rng.choice(legal)


register_bot("random", RandomBot)
