"""No discarding a card that could be laid off on the table (Rami 51 tables).

Many Rami 51 tables forbid throwing away a card that fits a meld already
down: it would hand the next player a free lay off. The card that ends the
round is exempt, and a player who has not opened may discard anything, since
they could not lay it off anyway. The refusal uses rami's own
code `discard_forbidden`, which covers this rule.

Switched on by the rami51 preset (`plugins: {no_playable_discard: {}}`);
scenarios: tests/scenarios/rami51/discard_restriction.yaml and
tests/scenarios/plugins/no_playable_discard.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from rami_core.cards import format_card
from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from rami_core.cards import Card
    from rami_core.game.state import GameState
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    last_card_exempt: bool = Field(True, description="The discard that ends the round is always allowed.")


class Plugin(HousePlugin[Settings]):
    name = "no_playable_discard"
    Settings = Settings

    @hookimpl
    def rami_discard_allowed(self, rules: Rules, state: GameState, seat: int, card: Card) -> Refusal | None:
        if self.settings.last_card_exempt and not state.hands[seat]:
            return None
        if not rules.may_lay_freely(state, seat):
            return None
        for i, meld in enumerate(state.table):
            if rules.could_join(meld.reading, card):
                return Refusal(
                    "discard_forbidden", Reason("playable_discard", card=format_card(card), meld=i)
                )
        return None
