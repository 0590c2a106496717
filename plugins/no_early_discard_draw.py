"""No discard draw in one's first turn of the round, nor holding a single card.

Two common table rules about taking the top of the discard pile, each under
its own setting:

- `first_turn`: a seat may not take the discard in its first turn of the
  round (one of the round's first N turns, N the number of players; a
  scenario setup starts the count at zero). Code `no_early_discard_draw.first_turn`.
- `single_card`: a seat holding a single card may not take the discard (it
  would go out on a card it was handed). Code `no_early_discard_draw.single_card`.

Plugin codes rather than `draw_forbidden`: rami's own codes do not cover these rules.
The stock is never affected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from rami_core.game.state import GameState
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    first_turn: bool = Field(True, description="No discard draw in a seat's first turn of the round.")
    single_card: bool = Field(True, description="No discard draw while holding a single card.")


class Plugin(HousePlugin[Settings]):
    name = "no_early_discard_draw"
    Settings = Settings

    @hookimpl
    def rami_draw_allowed(self, rules: Rules, state: GameState, seat: int, source: str) -> Refusal | None:
        if source != "discard":
            return None
        if self.settings.first_turn and state.turns_played < rules.players:
            return Refusal("first_turn", Reason("early_discard_draw"))
        if self.settings.single_card and len(state.hands[seat]) == 1:
            return Refusal("single_card", Reason("single_card_draw"))
        return None
