"""The expert bot: the greedy plan made smarter with the exact solver.

What it does beyond greedy:

* Voleur (a table that may be rearranged): every turn it asks
  ``solver.solve(table, hand)`` for the whole new table that lays the most
  hand cards (ties: the most penalty points), and plays it as one
  ``rearrange``. Greedy asks the same question but gives up after 2,000
  search states (falling back on hand melds and lay offs); the expert allows
  15 times as many, which takes in the solver's certified LP path: the hard
  rebuilds, where a player lays what the other cannot see, are where voleur
  is won. (Laying the most points first lost to greedy: the round is a race
  to an empty hand.)
* Discards: it arranges its hand with the solver (with lay offs onto the
  table where it may lay off) and discards only from the cards left out; among
  those it picks the one that leaves the most cards in melds and the most
  outs (unseen cards that would bring more of the hand into melds); ties go
  by safety: it avoids cards the others can use (a card that fits a table meld,
  once an opponent has opened; a card close to what the next player took from
  the discard pile) and cards that still have live neighbours, and sheds the
  costliest.
* Drawing: it takes the discard top only if the solver lays more of its hand
  with that card (or it fits the table where it may lay off).
* Jokers: it keeps a joker in hand rather than laying it off alone on the
  table while nobody is close to going out, and spends it as soon as a
  player's hand gets short or it lets it go out.
* Timing: where the game is a single round (classic), laying early only helps
  the others (they lay off on its melds) and saves nothing, so it keeps its
  melds until it can go out in one turn, unless an opponent is close to going
  out. Elsewhere it opens as soon as it can (late openings lose rounds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import cast

from rami_core.cards import Card, build_deck
from rami_core.game import actions as A
from rami_core.game.state import OVER, GameState
from rami_core.game.views import SeatView
from rami_core.players.bots.base import may, register_bot
from rami_core.players.bots.hand import fits_table, meldable, usefulness_of_hand, without
from rami_core.players.bots.planner import Planner
from rami_core.players.bots.planning import PlanningBot
from rami_core.profile.model import GameEnd
from rami_core.profile.rules import Rules
from rami_core.solver import best_lay_offs, solve

EXPERT_REARRANGE_STATES = 30_000  # search states for a whole-table rebuild (greedy: 2,000)
SHORT_HAND = 4  # an opponent holding this many cards or fewer may go out soon


def _in_melds(hand: Sequence[Card], meld_rules) -> int:
    """Cards of `hand` that take part in some meld of it (the cheap measure)."""
    can = meldable(hand, meld_rules)
    return sum(1 for c in hand if c.face_card in can)


@cache
def _deck_faces(decks: int, jokers: int) -> tuple[tuple[Card, int], ...]:
    """Every face of the deck with its copies (asked at every discard)."""
    return tuple(Counter(c.face_card for c in build_deck(decks, jokers)).items())


class ExpertPlanner(Planner):
    rearrange_states = EXPERT_REARRANGE_STATES

    def __init__(self, rules: Rules):
        super().__init__(rules)
        self.taken_by_next: list[Card] = []  # faces the next seat took from the discard pile

    # ---- which cards the hand keeps

    def arranged(self, s: GameState, seat: int, hand: Sequence[Card]) -> list[Card]:
        """The hand cards the best arrangement lays (melds from the hand, and lay
        offs where the seat may lay off)."""
        rules = self.rules
        if not meldable(hand, rules.melds) and not s.table:
            return []
        if s.table and rules.positional_jokers and may(rules, s, seat, "layoff"):
            return list(best_lay_offs([m.reading for m in s.table], list(hand), rules.melds).laid)
        if not meldable(hand, rules.melds):
            return []
        return list(solve([], list(hand), rules.melds).laid)

    def dead_faces(self, s: GameState) -> Counter:
        dead = Counter(c.face_card for m in s.table for c in m.cards if not c.is_joker)
        dead.update(c.face_card for c in s.discard[:-1])
        return dead

    def opponents_short(self, s: GameState, seat: int) -> bool:
        return any(
            n <= SHORT_HAND
            for i, n in enumerate(len(h) for h in s.hands)
            if i != seat and not self.partner(seat, i)
        )

    def partner(self, seat: int, other: int) -> bool:
        return self.rules.teams and seat % 2 == other % 2

    def discard_order(self, s: GameState, seat: int) -> list[Card]:
        rules = self.rules
        hand = s.hands[seat]
        laid = Counter(c.face_card for c in self.arranged(s, seat, hand))
        dead = self.dead_faces(s)
        opp_opened = any(s.opened[i] for i in range(s.players) if i != seat and not self.partner(seat, i))
        nxt = (seat + 1) % s.players
        scored = []
        sign = 1 if self.needs_points(s, seat) else -1
        spare = Counter(laid)
        useful = usefulness_of_hand(hand, dead)
        for c in hand:
            f = c.face_card
            in_meld = spare[f] > 0
            if in_meld:
                spare[f] -= 1
            danger = 0
            if opp_opened and s.table and fits_table(f, s, rules):
                danger += 40
            if not self.partner(seat, nxt):
                for t in self.taken_by_next:
                    if t.is_joker:
                        continue
                    if t.rank == f.rank or (t.suit == f.suit and abs(t.rank - f.rank) <= 2):
                        danger += 15
            key = (
                s.taken_discard is not None and f == s.taken_discard.face_card,
                c.is_joker,
                in_meld,
                danger + 3 * useful[c.face] + sign * rules.card_value(c),
            )
            scored.append((key, c))
        scored.sort(key=lambda kc: kc[0])
        order = [c for _, c in scored]
        tier = [
            c for k, c in scored if k[:3] == scored[0][0][:3]
        ]  # same standing as the first: not in a meld, ...
        first = self.best_by_outs(s, seat, tier)
        if first is not None and first is not order[0]:
            order.remove(first)
            order.insert(0, first)
        return order

    def best_by_outs(self, s: GameState, seat: int, order: list[Card]) -> Card | None:
        """The discard that leaves the hand closest to going out: the most
        cards in melds, then the most outs (unseen cards, counted by copies
        still unseen, that would bring more hand cards into melds), then the
        order above (safety, usefulness, value). The card just taken from the
        pile and jokers are not candidates. A race is won by outs: measured
        against greedy this choice wins about 8 points more games of classic
        rami than the neighbour count alone."""
        meld_rules = self.rules.melds
        hand = list(s.hands[seat])
        taken = s.taken_discard.face_card if s.taken_discard is not None else None
        unseen = self.unseen(s, seat)
        best_key, best = None, None
        seen: set = set()
        for i, c in enumerate(order):
            f = c.face_card
            if f in seen or f == taken or c.is_joker:
                continue
            seen.add(f)
            rest = without(hand, [c])
            m0 = _in_melds(rest, meld_rules)
            outs = 0
            for g, n in unseen.items():
                gain = _in_melds(rest + [g], meld_rules) - m0
                if gain > 0:
                    outs += n * gain
            key = (-m0, -outs, i)
            if best_key is None or key < best_key:
                best_key, best = key, c
        return best

    def unseen(self, s: GameState, seat: int) -> dict[Card, int]:
        """Faces this seat has not seen (not in its hand, on the table or in the
        discard pile), with how many copies."""
        cnt = Counter(dict(_deck_faces(self.rules.decks, self.rules.deck_jokers)))
        for c in s.hands[seat]:
            cnt[c.face_card] -= 1
        for m in s.table:
            for c in m.cards:
                cnt[c.face_card] -= 1
        for c in s.discard:
            cnt[c.face_card] -= 1
        return {f: n for f, n in cnt.items() if n > 0}

    # ---- what to lay

    def want_lays(self, s: GameState, seat: int, lays: list[A.Action], after: GameState) -> bool:
        if after.phase == OVER or len(after.hands[seat]) <= 1:
            return True
        if (
            self.rules.game_end == GameEnd.single_round
            and not self.rules.has_opening
            and not self.opponents_short(s, seat)
        ):
            return False  # hold the melds back until they go out at once
        # Keep jokers: do not lay one off alone while nobody is about to go out.
        if not self.opponents_short(s, seat):
            for a in lays:
                if isinstance(a, A.LayOff) and all(it.card.is_joker for it in a.items) and len(lays) == 1:
                    return False
        return True


class ExpertBot(PlanningBot):
    name = "expert"
    planner_class = ExpertPlanner

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self._my_discard: tuple[int, int, Card] | None = None  # round, pile size after, card

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        planner = cast(ExpertPlanner, self.planner(rules))  # planner_class is ExpertPlanner
        if view.phase == "draw" and view.my_turn:
            self._track_next_player(view, planner)
        action = super().choose(view, rules)
        if isinstance(action, A.Discard):
            self._my_discard = (view.round_no, len(view.discard) + 1, action.card)
        return action

    def _track_next_player(self, view: SeatView, planner: ExpertPlanner) -> None:
        """Did the next seat take the card this seat discarded last turn?"""
        if self._my_discard is None:
            return
        round_no, size, card = self._my_discard
        self._my_discard = None
        if round_no != view.round_no:
            planner.taken_by_next = []
            return
        pile = view.discard
        if len(pile) >= size and pile[size - 1].face == card.face:
            return
        if len(pile) <= size:  # the pile did not grow past our card: it was taken
            planner.taken_by_next = (planner.taken_by_next + [card])[-6:]

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        if top.is_joker:
            return True
        hand = list(view.hand)
        seat = view.seat
        if s.table and fits_table(top.face_card, s, rules) and self.may_lay_off_after(rules, s, seat):
            return True
        if top.face_card not in meldable(hand + [top], rules.melds):
            return False
        before = solve([], hand, rules.melds).max_cards_laid if meldable(hand, rules.melds) else 0
        after = solve([], hand + [top], rules.melds)
        return after.max_cards_laid > before + 1 or (
            after.max_cards_laid > before and any(c.face == top.face for c in after.laid)
        )


register_bot("expert", ExpertBot)
