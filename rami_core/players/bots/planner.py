"""The whole turn a planning bot makes: lays, then the end of the turn.

A lay is only chosen as part of a whole turn that can end (the cards laid,
then a legal discard or end of turn), so a plan never paints itself into a
turn it cannot finish, whatever the plugins refuse. Which kinds of lay are
tried is the engine's answer, asked through its legal-moves API
(``base.may``, ``base.bounds``): the opening need, whether the table may be
rebuilt, laid off on or added new melds now. Subclasses (the expert's
planner) change how lays are chosen and which card goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rami_core.cards import JOKER, Card
from rami_core.game import actions as A
from rami_core.game.state import LAY, OVER, GameState
from rami_core.players.bots.base import bounds, may, try_action
from rami_core.players.bots.candidates import (
    MAX_PLAN_STEPS,
    REARRANGE_STATES,
    cards_laid,
    first_legal_end,
    hand_meld_actions,
    layoff_actions,
    opening_actions,
    run_actions,
    simple_layoffs,
    swap_candidates,
)
from rami_core.players.bots.hand import (
    CutRebuilds,
    NoLayFacts,
    fits_table,
    meldable,
    rebuild_may_lay,
    usefulness_of_hand,
    without,
)
from rami_core.profile.rules import Rules
from rami_core.solver import solve


@dataclass
class Planner:
    """Builds a whole turn: lays, then the end of the turn. Subclasses (expert)
    change how lays are chosen and which card goes."""

    rules: Rules
    _refused: bool = False
    _no_lay: NoLayFacts = field(default_factory=lambda: NoLayFacts())
    _order: tuple[tuple, list[Card]] | None = None  # the last discard order and what it was for
    _cut: CutRebuilds = field(default_factory=lambda: CutRebuilds())
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
        melds_now = may(rules, s, seat, "meld")
        if bounds(rules, s, seat).opening is not None:
            return opening_actions(rules, s, seat, hand, self._no_lay) if melds_now else []
        out: list[list[A.Action]] = []
        lay_off_now = may(rules, s, seat, "layoff")
        if may(rules, s, seat, "rearrange"):
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
            acts = hand_meld_actions(rules, seat, hand) if melds_now else []
            if acts:
                out.append(acts)
            acts = simple_layoffs(rules, s, seat, hand) if lay_off_now else []
            if acts:
                out.append(acts)
            return out
        if lay_off_now:
            acts = layoff_actions(rules, s, seat, hand, new_melds=melds_now)
        else:
            acts = hand_meld_actions(rules, seat, hand) if melds_now else []
        if acts:
            out.append(acts)
        return out

    def nothing_to_lay(self, s: GameState, seat: int, hand: Sequence[Card]) -> bool:
        """Cheap proof that no lay exists (most turns): no meld in the hand and,
        for a seat that may rebuild the table or lay off now, no card that a
        rebuild takes or that fits a table meld alone."""
        if meldable(hand, self.rules.melds):
            return False
        rules = self.rules
        if not s.table:
            return True
        if may(rules, s, seat, "rearrange"):
            return not rebuild_may_lay([c for m in s.table for c in m.cards], hand, rules.melds)
        if may(rules, s, seat, "layoff"):
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
        if self._cut.covers(s, table, hand):
            return None, False
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
            elif sol.feasible:
                self._cut.add(s, table, hand)
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
        return self.discard_order(s, seat) if may(self.rules, s, seat, "discard") else list(s.hands[seat])

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
        need = bounds(self.rules, s, seat).opening
        return need is not None and bool(need.points)

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
        keeps = bounds(rules, s, seat).kept > 0  # going out keeps a card to discard

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
                if left <= 1 or not (keeps and (self._refused or reserve is not None)):
                    break
            elif not keeps:
                continue
        if best is not None:
            return best
        # Nothing lays and ends: end as the hand stands if possible.
        end = first_legal_end(rules, s, seat, self.end_order(s, seat))
        return [end] if end is not None else []
