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

from pydantic import Field

from rami_core.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.melds import lay_off_positional, read_meld


class Settings(PluginSettings):
    last_card_exempt: bool = Field(True, description="The discard that ends the round is always allowed.")


class Plugin(HousePlugin[Settings]):
    name = "no_playable_discard"
    Settings = Settings

    @hookimpl
    def rami_discard_allowed(self, rules, state, seat, card):
        from rami_core.engine import may_lay_freely

        if self.settings.last_card_exempt and not state.hands[seat]:
            return None
        if not may_lay_freely(rules, state, seat):
            return None
        for i, meld in enumerate(state.table):
            if not _could_take(meld.cards, card):
                continue  # a natural whose suit and rank both differ from a natural there fits no run or set
            if rules.profile.positional_jokers:
                fits = not isinstance(lay_off_positional(meld.reading, *_split(card), rules.melds), str)
            else:
                fits = read_meld(list(meld.cards) + [card], rules.melds) is not None
            if fits:
                return Refusal(
                    "discard_forbidden", f"{card} could be laid off on meld {i}: it may not be discarded"
                )
        return None


def _split(card):
    if card.suit == 4:
        return [], [(card, None)]
    return [card], []


def _could_take(cards, card) -> bool:
    if card.suit == 4:
        return True
    same_suit = same_rank = True
    for o in cards:
        if o.suit == 4:
            continue
        if o.suit != card.suit:
            same_suit = False
        if o.rank != card.rank:
            same_rank = False
        if not (same_suit or same_rank):
            return False
    return True
