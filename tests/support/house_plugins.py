"""House rules a club would write from docs/plugins.md alone, for the tests
that check every reader of the rules (bots, the rebuilt state, simulate)
judges them as the engine does. They read the public record of the round:
the turn counters and what was taken from the discard pile this turn."""

from __future__ import annotations

from rami_core import actions as A
from rami_core.hookspecs import Refusal, hookimpl


class LateLayOff:
    """No laying off before the round's 8th turn (turns counted over every seat)."""

    name = "late_lay_off"

    def __init__(self, turn: int = 8) -> None:
        self.turn = turn

    @hookimpl
    def rami_table_acceptable(self, rules, state, seat, old_table, new_table, given, action):
        if isinstance(action, A.LayOff) and state.turns_played + 1 < self.turn:
            return Refusal("too_early", f"no laying off before the round's turn {self.turn}")
        return None


class KeepTheTakenSuit:
    """Whoever took the discard this turn may not discard a card of its suit."""

    name = "keep_the_taken_suit"

    @hookimpl
    def rami_discard_allowed(self, rules, state, seat, card):
        taken = state.taken_discard
        if taken is not None and taken.suit != 4 and card.suit == taken.suit and state.hands[seat]:
            return Refusal("same_suit", "you may not discard the suit you took from the discard pile")
        return None


class FirstLapStockOnly:
    """In the round's first lap (one turn per seat) every draw is from the stock."""

    name = "first_lap_stock_only"

    @hookimpl
    def rami_draw_allowed(self, rules, state, seat, source):
        if source == "discard" and state.turns_played < state.players:
            return Refusal("first_lap", "the first lap draws from the stock")
        return None


def turn_plugins() -> list[object]:
    """Every test plugin above, fresh."""
    return [LateLayOff(), KeepTheTakenSuit(), FirstLapStockOnly()]
