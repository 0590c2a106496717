"""House rules a club would write from docs/plugins.md alone, for the tests
that check every reader of the rules (bots, the rebuilt state, simulate)
judges them as the engine does. They read the public record of the round:
the turn counters and what was taken from the discard pile this turn.

Each is a plugin class as the docs describe (a `name`, a `Settings` model),
so a profile can switch it on once it is installed (`installed()`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rami_core.game import actions as A
from rami_core.profile.hookspecs import Refusal, hookimpl


class LateSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn: int = Field(8, description="The round's first turn (every seat counted) that may lay off.")


class LateLayOff:
    """No laying off before the round's 8th turn (turns counted over every seat)."""

    name = "late_lay_off"
    Settings = LateSettings

    def __init__(self, settings: LateSettings | None = None) -> None:
        self.settings = settings or LateSettings()

    @hookimpl
    def rami_table_acceptable(self, rules, state, seat, old_table, new_table, given, action):
        if isinstance(action, A.LayOff) and state.turns_played + 1 < self.settings.turn:
            return Refusal("too_early", f"no laying off before the round's turn {self.settings.turn}")
        return None


class NoSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KeepTheTakenSuit:
    """Whoever took the discard this turn may not discard a card of its suit
    (the card that ends the round excepted)."""

    name = "keep_the_taken_suit"
    Settings = NoSettings

    def __init__(self, settings: NoSettings | None = None) -> None:
        self.settings = settings

    @hookimpl
    def rami_discard_allowed(self, rules, state, seat, card):
        taken = state.taken_discard
        if taken is not None and taken.suit != 4 and card.suit == taken.suit and state.hands[seat]:
            return Refusal("same_suit", "you may not discard the suit you took from the discard pile")
        return None


class FirstLapStockOnly:
    """In the round's first lap (one turn per seat) every draw is from the stock."""

    name = "first_lap_stock_only"
    Settings = NoSettings

    def __init__(self, settings: NoSettings | None = None) -> None:
        self.settings = settings

    @hookimpl
    def rami_draw_allowed(self, rules, state, seat, source):
        if source == "discard" and state.turns_played < state.players:
            return Refusal("first_lap", "the first lap draws from the stock")
        return None


CLASSES = (LateLayOff, KeepTheTakenSuit, FirstLapStockOnly)


def turn_plugins() -> list[object]:
    """Every test plugin above, fresh, with default settings."""
    return [cls() for cls in CLASSES]


def installed() -> dict[str, type]:
    """The test plugins by name, as `rami_core.profile.hooks.installed_plugins` lists
    plugins installed by a package (monkeypatch it with this)."""
    return {cls.name: cls for cls in CLASSES}
