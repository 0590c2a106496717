"""The fixed rules of one table: a profile resolved for a player count.

Built once per game and never changed, so the turn machine can read plain
attributes instead of walking the profile on every action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import Card, card_points
from .melds import MeldRules, Reading, meld_points
from .profile import Profile

if TYPE_CHECKING:
    from .hooks import PluginHost


@dataclass(frozen=True)
class Rules:
    profile: Profile
    players: int
    melds: MeldRules
    teams: bool
    hooks: PluginHost = field(compare=False, repr=False)  # this game's plugins (none: an empty host)

    @classmethod
    def build(cls, profile: Profile, players: int, plugins: Iterable[Any] = ()) -> Rules:
        """`plugins`: plugin objects passed in by the caller (the CLI's --plugin or
        the API), on top of those the profile names."""
        from .hooks import PluginHost

        host = PluginHost(profile.active_plugins, plugins)
        return cls(profile, players, MeldRules.from_profile(profile), profile.teams_at(players), host)

    # ------------------------------------------------------------ seats and sides

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def partners(self, seat: int) -> list[int]:
        if not self.teams:
            return []
        return [s for s in range(self.players) if s != seat and s % 2 == seat % 2]

    # ------------------------------------------------------------ values

    @property
    def has_opening(self) -> bool:
        return self.profile.opening.required

    def hand_value(self, cards: list[Card]) -> int:
        if self.hooks.has("rami_hand_cost"):
            d = self.hooks.decide("rami_hand_cost", rules=self, cards=list(cards))
            if d is not None:
                return int(d.value)
        s = self.profile.scoring
        j = self.profile.jokers.penalty
        return sum(card_points(c, ace=s.ace_points, court=s.court_points, joker=j) for c in cards)

    def meld_value(self, reading: Reading) -> int:
        s = self.profile.scoring
        return meld_points(reading, ace=s.ace_points, ace_low=s.ace_low_points, court=s.court_points)

    def throw_back_forbidden(self, state: Any, card: Card) -> bool:
        """Whether discarding `card` now would throw back the card taken from
        the discard pile this turn, where discard.throw_back is false. Asked by
        the engine; bots and the hint see the refusal through it."""
        taken = getattr(state, "taken_discard", None)
        return not self.profile.discard.throw_back and taken is not None and card.face == taken.face

    @property
    def target(self) -> int:
        return self.profile.target_for(self.players)
