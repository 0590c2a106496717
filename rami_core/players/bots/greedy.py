"""The greedy bot: lays as soon and as much as it may.

It opens with the largest opening the solver finds, then every turn lays the
most cards it can (new melds, lay offs at the melds' ends or missing suits, a
joker swap when the freed joker can go straight back down), keeps a card to
discard where the round must end with one, and discards its worst card: the
one least useful to its hand, the highest in value among those. It takes the
discard top only when that card makes a meld with its hand or fits a table
meld it may lay off on. The planning is shared with the expert and the hint
(`bots.planner`); legality is the engine's, asked on the rebuilt state.
"""

from __future__ import annotations

import random

from rami_core.cards import Card
from rami_core.game import actions as A
from rami_core.game.state import GameState
from rami_core.game.views import SeatView
from rami_core.players.bots.base import bounds, register_bot
from rami_core.players.bots.planning import PlanningBot
from rami_core.profile.rules import Rules


class GreedyBot(PlanningBot):
    """Before it has opened, greedy never takes back from the discard pile a
    face it has discarded itself this round: two seats that have not opened
    would otherwise pass the same few cards to and fro for ever, each taking
    the other's discard and neither drawing a new card from the stock."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self._thrown: set[Card] = set()
        self._round: int | None = None

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        if view.round_no != self._round:
            self._round = view.round_no
            self._thrown = set()
        action = super().choose(view, rules)
        if isinstance(action, A.Discard):
            self._thrown.add(action.card.face_card)
        return action

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        if top.face_card in self._thrown and bounds(rules, s, view.seat).opening is not None:
            return False
        return super().wants_discard(view, rules, s, top)


register_bot("greedy", GreedyBot)
