"""No joker on the discard pile: a house rule shipped as its own package.

Some tables never let a joker be thrown away: it would be a gift to the next
player. With `last_card_exempt` a joker may still be the very last card,
the discard that goes out. Refused discards get the code
`no_joker_discard.joker`.

rami finds this plugin through the entry point declared in pyproject.toml
(group `rami`, name `no_joker_discard`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl

if TYPE_CHECKING:
    from rami_core.cards import Card
    from rami_core.game.state import GameState
    from rami_core.profile.rules import Rules

__all__ = ["Plugin", "Settings"]


class Settings(PluginSettings):
    """The settings a profile may give under `plugins: {no_joker_discard: {...}}`
    (PluginSettings refuses unknown keys: a misspelt setting is an error)."""

    last_card_exempt: bool = Field(
        False, description="A joker may be discarded when it is the last card (going out)."
    )


class Plugin(HousePlugin[Settings]):
    """A joker may never be discarded."""

    name = "no_joker_discard"
    Settings = Settings

    @hookimpl
    def rami_discard_allowed(self, rules: Rules, state: GameState, seat: int, card: Card) -> Refusal | None:
        if not card.is_joker:
            return None  # no opinion: the profile and other plugins decide
        going_out = not state.hands[seat]  # the card is already out of the hand
        if going_out and self.settings.last_card_exempt:
            return None
        return Refusal("joker", "a joker is never thrown on the discard pile")
