"""Before opening, the discard is taken only to open with it at once (Kalooki).

A common Kalooki table rule: a player who has not
opened may take the top of the discard pile only to use it straight away in
their opening. Checked when the turn ends with its discard: if the seat drew
from the discard pile this turn without having opened before the turn, it
must have opened this turn with that card on the table; otherwise the
discard is refused (the player lays the opening, or rearranges nothing and
cannot end the turn: the timeout undoes the turn). A player who had opened
before the turn takes the discard freely.

Refusal: `discard_for_opening_only.not_opened_with_it`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from rami_core.cards import Card
    from rami_core.game.state import GameState
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    """No settings: the rule is on or off."""


class Plugin(HousePlugin[Settings]):
    name = "discard_for_opening_only"
    Settings = Settings

    @hookimpl
    def rami_discard_allowed(self, rules: Rules, state: GameState, seat: int, card: Card) -> Refusal | None:
        taken = state.taken_discard
        if state.drew_from != "discard" or taken is None:
            return None
        if state.opened[seat] and not state.opened_this_turn:
            return None  # opened before this turn: the discard was free to take
        used = state.opened_this_turn and card != taken and taken not in state.hands[seat]
        if used:
            return None
        return Refusal(
            "not_opened_with_it",
            Reason("discard_to_open"),
        )
