"""A swapped joker goes back on the table in a NEW meld, never by a lay off (Rami 51 and voleur pages).

A Rami 51 rules page: the joker won back "must be reused in the same turn, in a NEW
combination"; a voleur rules page: the freed joker is played "to place a new
combination". The profile's `jokers.replay: same_turn` already makes the
joker go back on the table before the turn ends (rami accepts a
meld or a lay off); this plugin takes the lay off away.

While a swapped joker is pending (`state.jokers_to_replay`: the engine clears
it only after this hook), a lay off that gives it is refused, and so is a
rearrangement that puts it into a meld extending a meld already on the table
(a new-table meld that holds all the cards of an old meld and more jokers
than it). A rearrangement may still build a new meld with it, from hand cards
and table cards (as the voleur page allows).

Refusal: `joker_replay_new_meld.lay_off`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rami_core.cards import JOKER_SUIT
from rami_core.game.actions import LayOff, Rearrange
from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rami_core.cards import Card
    from rami_core.game.actions import Action
    from rami_core.game.state import GameState, TableMeld
    from rami_core.profile.rules import Rules

JOKER = (0, JOKER_SUIT)


class Settings(PluginSettings):
    """No settings: the rule is on or off."""


def _faces(cards) -> Counter:
    return Counter(c.face for c in cards)


class Plugin(HousePlugin[Settings]):
    name = "joker_replay_new_meld"
    Settings = Settings

    @hookimpl
    def rami_table_acceptable(
        self,
        rules: Rules,
        state: GameState,
        seat: int,
        old_table: Sequence[TableMeld],
        new_table: list[TableMeld],
        given: list[Card],
        action: Action,
    ) -> Refusal | None:
        pending = list(state.jokers_to_replay)
        replayed = [c for c in given if c in pending]
        if not replayed:
            return None
        message = Reason("joker_new_meld")
        if isinstance(action, LayOff):
            return Refusal("lay_off", message)
        if isinstance(action, Rearrange):
            other_jokers = sum(1 for c in given if c.is_joker and c not in pending)
            old = [_faces(m.cards) for m in old_table]
            extended = 0
            for m in new_table:
                faces = _faces(m.cards)
                grown = [o for o in old if not o - faces]
                if grown:
                    base = max(grown, key=lambda o: (o[JOKER], sum(o.values())))
                    extended += max(0, faces[JOKER] - base[JOKER])
            if extended > other_jokers:
                return Refusal("lay_off", message)
        return None
