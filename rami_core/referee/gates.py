"""The rules that hold for a whole action kind, before any card is looked at:
whose turn it is, the phase, whether the profile plays the kind at all,
whether the seat has opened as the kind needs, what the turn still owes the
table.

They live apart from the handlers because two callers judge by them: each
handler (rami_core.referee.handlers) calls its kind's gates at their places
in the order of `rami_core.words.errors.ERROR_CODES`, and
`rami_core.referee.legal.kind_refusal` calls the same gates
(:data:`KIND_GATES`) to say whether a kind is open, so what is offered and
what is accepted cannot drift apart. Nothing here moves a card or changes the
state: a check reads it and raises one RuleError, or returns.
"""

from __future__ import annotations

from collections.abc import Callable

from rami_core.cards import format_card
from rami_core.game.state import DRAW, LAY, OVER, GameState
from rami_core.profile.model import JokerSwap
from rami_core.profile.rules import Rules
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason

# The two piles a draw names (the actions' codec and the scenarios spell them so).
STOCK = "stock"
DISCARD = "discard"


# ------------------------------------------------------------------ turn, phase and opening


def check_turn(s: GameState, player: int) -> None:
    """The round is on and it is `player`'s turn."""
    if s.phase == OVER:
        raise RuleError("wrong_phase", Reason("round_is_over"))
    if player != s.turn:
        raise RuleError("not_your_turn", Reason("other_turn", turn=s.turn, seat=player))


def check_drawn(s: GameState, what: str) -> None:
    """The seat has drawn this turn (laying, discarding and ending come after the draw)."""
    if s.phase != LAY:
        raise RuleError("wrong_phase", Reason("draw_first", what=what))


def check_not_drawn(s: GameState) -> None:
    """One draw a turn."""
    if s.phase != DRAW:
        raise RuleError("wrong_phase", Reason("drawn_already"))


def check_opened(rules: Rules, s: GameState, seat: int, what: str) -> None:
    """The seat (or its team) has opened, and not this very turn where the profile waits a turn."""
    if not rules.may_lay_freely(s, seat):
        raise RuleError("not_opened", Reason("open_first", what=what))
    if s.opened_this_turn and not rules.lay_in_opening_turn:
        raise RuleError("not_opened", Reason("next_turn", what=what))


# ------------------------------------------------------------------ each kind's own rules


def check_discard_draw(rules: Rules, s: GameState, seat: int) -> None:
    """The discard pile's top may be taken now: the profile draws from it, the
    moment allows it (``draw.discard_before_opening``), there is one, and no
    house rule says no."""
    if not rules.draw_from_discard:
        raise RuleError("draw_forbidden", Reason("stock_only"))
    if not rules.discard_draw_before_opening and not rules.may_lay_freely(s, seat):
        raise RuleError("draw_forbidden", Reason("discard_after_opening"))
    if not s.discard:
        raise RuleError("draw_forbidden", Reason("discard_empty"))
    rules.hooks.refuse_if("rami_draw_allowed", rules=rules, state=s, seat=seat, source=DISCARD)


def check_new_melds(rules: Rules, s: GameState, seat: int) -> None:
    """New melds may go down now: where the profile lays none after the
    opening turn, only in the turn the seat opens."""
    if (
        rules.may_lay_freely(s, seat)
        and s.opened[seat]
        and not rules.new_melds_after_opening
        and not rules.lays_all_at_once
        and not s.opened_this_turn
    ):
        raise RuleError("action_forbidden", Reason("no_new_meld"))


def check_lay_off_allowed(rules: Rules) -> None:
    """The profile adds cards to table melds at all (an all-at-once profile is
    refused later, as not opened: its seats open by going out)."""
    if not rules.lay_offs_ever and not rules.lays_all_at_once:
        raise RuleError("action_forbidden", Reason("no_lay_off"))


def check_lay_off_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may lay off now, as far as opening goes."""
    check_opened(rules, s, seat, "lay off")
    if not rules.lay_offs_ever:
        # Only all-at-once profiles get here (Simple): nothing is ever laid off,
        # even by a seat marked opened or covered by a partner.
        raise RuleError("not_opened", Reason("all_at_once_only"))


def check_swap_allowed(rules: Rules) -> None:
    """A joker on the table may be won back into the hand in this profile."""
    if not rules.swaps_to_hand:
        how = Reason("swap_on_table" if rules.joker_swap == JokerSwap.on_table else "joker_stays")
        raise RuleError("joker_swap_forbidden", Reason("no_swap", how=how))


def check_swap_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may swap now, as far as opening goes (``jokers.who``)."""
    if rules.swap_needs_opening:
        check_opened(rules, s, seat, "swap a joker")


def check_rearrange_allowed(rules: Rules) -> None:
    """The profile lets the table be rearranged."""
    if not rules.may_rearrange:
        raise RuleError("action_forbidden", Reason("no_rearrange"))


def check_rearrange_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may rearrange now, as far as opening goes."""
    check_opened(rules, s, seat, "rearrange the table")


def check_discard_allowed(rules: Rules) -> None:
    """The profile ends a turn with a discard."""
    if not rules.ends_with_discard:
        raise RuleError("discard_forbidden", Reason("no_discard"))


def check_end_turn_allowed(rules: Rules) -> None:
    """The profile ends a turn without a discard."""
    if rules.ends_with_discard:
        raise RuleError("wrong_phase", Reason("ends_with_discard"))


def check_round_over(s: GameState) -> None:
    """The round is over and the game is not: the next round may be dealt."""
    if s.phase != OVER or s.game_over:
        raise RuleError("wrong_phase", Reason("round_not_over"))


# ------------------------------------------------------------------ what the turn owes the table


def _owes_taken_discard(rules: Rules, s: GameState) -> bool:
    """The card taken from the discard pile is still in hand where the profile says it must be laid."""
    return (
        rules.taken_discard_must_be_laid
        and s.taken_discard is not None
        and s.taken_discard in s.hands[s.turn]
    )


def check_turn_may_end(rules: Rules, s: GameState) -> None:
    """Nothing owed to the table: no freed joker, no card taken from the discard pile that must be laid."""
    if s.jokers_to_replay:
        raise RuleError("joker_not_reused", Reason("joker_back"))
    if _owes_taken_discard(rules, s):
        assert s.taken_discard is not None  # owed only when one was taken
        raise RuleError(
            "discard_not_laid",
            Reason("lay_taken_card", card=format_card(s.taken_discard)),
        )


# ------------------------------------------------------------------ the gates of each kind

# Each kind's gates, called by its handler and by the legal moves (the
# module's docstring says why). A kind with two gates has checks on its cards
# between them (a lay off names a card held and a meld that exists before its
# opening is judged).


def gate_draw(rules: Rules, s: GameState, seat: int) -> None:
    """A draw (from either pile): the seat's turn, not drawn yet."""
    check_turn(s, seat)
    check_not_drawn(s)


def gate_meld(rules: Rules, s: GameState, seat: int) -> None:
    """New melds: the seat's turn, drawn, and new melds may go down now."""
    check_turn(s, seat)
    check_drawn(s, "laying")
    check_new_melds(rules, s, seat)


def gate_lay_off(rules: Rules, s: GameState, seat: int) -> None:
    """A lay off: the seat's turn, drawn, the profile lays off at all
    (then, once its cards are checked, :func:`check_lay_off_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "laying off")
    check_lay_off_allowed(rules)


def gate_swap(rules: Rules, s: GameState, seat: int) -> None:
    """A joker swap: the seat's turn, drawn, the profile swaps jokers into
    the hand (then, once its cards are checked, :func:`check_swap_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "swapping a joker")
    check_swap_allowed(rules)


def gate_rearrange(rules: Rules, s: GameState, seat: int) -> None:
    """A rearrangement: the seat's turn, drawn, the profile rearranges
    (then, once its cards are checked, :func:`check_rearrange_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "rearranging the table")
    check_rearrange_allowed(rules)


def gate_discard(rules: Rules, s: GameState, seat: int) -> None:
    """A discard: the seat's turn, drawn, the profile ends turns with one."""
    check_turn(s, seat)
    check_drawn(s, "discarding")
    check_discard_allowed(rules)


def gate_end_turn(rules: Rules, s: GameState, seat: int) -> None:
    """Ending the turn without a discard: the seat's turn, drawn, the profile ends turns so."""
    check_turn(s, seat)
    check_drawn(s, "ending your turn")
    check_end_turn_allowed(rules)


def gate_next_round(rules: Rules, s: GameState, seat: int) -> None:
    """The next round: this one is over and the game is not."""
    check_round_over(s)


Gate = Callable[[Rules, GameState, int], None]

# Every gate of each kind, in the order its handler calls them.
KIND_GATES: dict[str, tuple[Gate, ...]] = {
    "draw_stock": (gate_draw,),
    "draw_discard": (gate_draw,),
    "meld": (gate_meld,),
    "layoff": (gate_lay_off, check_lay_off_opened),
    "swap": (gate_swap, check_swap_opened),
    "rearrange": (gate_rearrange, check_rearrange_opened),
    "discard": (gate_discard,),
    "end_turn": (gate_end_turn,),
    "next_round": (gate_next_round,),
}

# The profile's switch of each kind that has one: a check of the rules
# alone, called by that kind's gate (above), so a kind switched off is
# refused in every state and a client need not ask for it state by state.
KIND_SWITCHES: dict[str, Callable[[Rules], None]] = {
    "layoff": check_lay_off_allowed,
    "swap": check_swap_allowed,
    "rearrange": check_rearrange_allowed,
    "discard": check_discard_allowed,
    "end_turn": check_end_turn_allowed,
}


__all__ = [
    "DISCARD",
    "KIND_GATES",
    "KIND_SWITCHES",
    "STOCK",
    "Gate",
    "check_discard_allowed",
    "check_discard_draw",
    "check_drawn",
    "check_end_turn_allowed",
    "check_lay_off_allowed",
    "check_lay_off_opened",
    "check_new_melds",
    "check_not_drawn",
    "check_opened",
    "check_rearrange_allowed",
    "check_rearrange_opened",
    "check_round_over",
    "check_swap_allowed",
    "check_swap_opened",
    "check_turn",
    "check_turn_may_end",
    "gate_discard",
    "gate_draw",
    "gate_end_turn",
    "gate_lay_off",
    "gate_meld",
    "gate_next_round",
    "gate_rearrange",
    "gate_swap",
]
