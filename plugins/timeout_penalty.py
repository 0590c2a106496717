"""A turn that times out costs penalty cards from the stock (a table rule).

Online tables (Ramio's clock of 120 seconds per turn) punish a
player who lets the clock run out. When the `timeout` action ends a turn, the
engine first plays the default turn (draw if needed, then discard the card
drawn or end the turn), then calls `rami_timeout` on the working state: this
plugin moves `cards` cards from the top of the stock (the end of
`state.stock`) into the timed-out seat's hand, as many as the stock holds.

If the penalty empties the stock of a profile whose round ends on an empty
stock (voleur's `draw.empty_stock: end_all_pay` and the like), the round ends
now, as it would at the end of the turn that drew the last card. Nothing is
taken once the round is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from rami_core.profile.hookspecs import HousePlugin, PluginSettings, hookimpl

if TYPE_CHECKING:
    from rami_core.game.state import GameState
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    cards: int = Field(3, ge=0, le=20, description="Penalty cards the timed-out seat takes from the stock.")


class Plugin(HousePlugin[Settings]):
    name = "timeout_penalty"
    Settings = Settings

    @hookimpl
    def rami_timeout(self, rules: Rules, state: GameState, seat: int) -> None:
        from rami_core.game.state import OVER
        from rami_core.referee.scoring import finish_round, round_over_on_empty_stock

        if state.phase == OVER or not state.stock:
            return
        n = min(self.settings.cards, len(state.stock))
        for _ in range(n):
            state.hands[seat].append(state.stock.pop())
        if n and not state.stock and rules.empty_stock_ends_round:
            finish_round(rules, state, None, round_over_on_empty_stock(rules))
