"""No joker on the discard pile: a house rule shipped as its own package.

Some tables never let a joker be thrown away: it would be a gift to the next
player. With `last_card_exempt` a joker may still be the very last card,
the discard that goes out. Refused discards get the code
`no_joker_discard.joker`.

rami finds this plugin through the entry point declared in pyproject.toml
(group `rami`, name `no_joker_discard`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rami_core.hookspecs import Refusal, hookimpl

__all__ = ["Plugin", "Settings"]


class Settings(BaseModel):
    """The settings a profile may give under `plugins: {no_joker_discard: {...}}`."""

    model_config = ConfigDict(extra="forbid")
    last_card_exempt: bool = Field(
        False, description="A joker may be discarded when it is the last card (going out)."
    )


class Plugin:
    """A joker may never be discarded."""

    name = "no_joker_discard"
    Settings = Settings

    def __init__(self, settings: Settings):
        self.settings = settings

    @hookimpl
    def rami_discard_allowed(self, rules, state, seat, card):
        if not card.is_joker:
            return None  # no opinion: the profile and other plugins decide
        going_out = not state.hands[seat]  # the card is already out of the hand
        if going_out and self.settings.last_card_exempt:
            return None
        return Refusal("joker", "a joker is never thrown on the discard pile")
