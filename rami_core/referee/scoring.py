"""Round and game end: who pays what, and when the game is over.

Separate from the turn machine so that plugins and the simulator can reason
about scores without replaying turns.
"""

from __future__ import annotations

from typing import Any

from rami_core.game.state import OVER, GameState
from rami_core.profile.model import GameEnd, RamiSec
from rami_core.profile.rules import Rules

OUT = "out"
EMPTY_ALL_PAY = "empty_stock"
EMPTY_NOBODY = "empty_stock_nobody_pays"
REPLAY = "replay"


def seat_payment(rules: Rules, s: GameState, seat: int) -> int:
    return rules.hand_payment(s.hands[seat])


def finish_round(rules: Rules, s: GameState, winner: int | None, how: str) -> None:
    """Close the round on `s`: penalties, cumulative scores, and game end."""
    n = rules.players
    s.phase = OVER
    s.winner = winner
    s.round_end = how
    penalties = [0] * n
    if how == OUT and winner is not None:
        sec = not s.laid_before[winner]
        s.rami_sec = sec
        mode = rules.rami_sec
        for seat in range(n):
            if seat == winner:
                continue
            if rules.teams and rules.opponents_pay_only and rules.side(seat) == rules.side(winner):
                continue
            pay = seat_payment(rules, s, seat)
            if sec and mode == RamiSec.double:
                pay *= 2
            elif sec and mode == RamiSec.bonus:
                pay += rules.rami_sec_bonus
            penalties[seat] = pay
    elif how == EMPTY_ALL_PAY:
        penalties = [seat_payment(rules, s, seat) for seat in range(n)]
    if rules.hooks.has("rami_round_scores"):
        d = rules.hooks.decide("rami_round_scores", rules=rules, state=s, penalties=list(penalties))
        if d is not None:
            penalties = [int(x) for x in d.value]
    s.penalties = penalties
    if how == REPLAY:
        return
    if rules.positive_scores:
        if how == OUT and winner is not None:
            s.scores[rules.side(winner)] += sum(penalties)
    else:
        for seat, p in enumerate(penalties):
            s.scores[rules.side(seat)] += p
    check_game_over(rules, s, empty_stock=how in (EMPTY_ALL_PAY, EMPTY_NOBODY))


def check_game_over(rules: Rules, s: GameState, *, empty_stock: bool = False) -> None:
    if rules.game_end == GameEnd.single_round:
        over = True
    elif rules.game_end == GameEnd.rounds:
        over = s.round_no >= rules.rounds
    else:
        over = any(score >= rules.target for score in s.scores)
    if rules.end_on_empty_stock and empty_stock:
        over = True
    if rules.hooks.has("rami_game_over"):
        d = rules.hooks.decide("rami_game_over", rules=rules, state=s)
        if d is not None:
            over = bool(d.value)
    if not over:
        return
    s.game_over = True
    s.game_winner = rules.game_winner(s.scores)


def round_over_on_empty_stock(rules: Rules) -> str:
    from rami_core.profile.model import EmptyStock

    mode = rules.empty_stock
    if mode == EmptyStock.end_all_pay:
        return EMPTY_ALL_PAY
    if mode == EmptyStock.replay:
        return REPLAY
    return EMPTY_NOBODY


def payments(rules: Rules, s: GameState) -> dict[str, Any]:
    """Why each seat paid what it paid at a round's end, for `round_over`:
    the profile's `rami_sec_rule` (double, bonus or none) and
    `rami_sec_bonus`; each seat's `hand_values` (what its hand costs before
    a rami sec doubles it or adds the bonus: the fixed penalty under
    `penalty: fixed`), its `jokers_left` in hand and what one costs
    (`joker_cost`, null under a fixed penalty); and the `sides` of a team
    game (the seats of each team, as `scores` counts them; null otherwise)."""
    return {
        "rami_sec_rule": rules.rami_sec.value,
        "rami_sec_bonus": rules.rami_sec_bonus,
        "hand_values": [rules.hand_payment(s.hands[seat]) for seat in range(s.players)],
        "jokers_left": [sum(1 for c in h if c.is_joker) for h in s.hands],
        "joker_cost": rules.joker_penalty if rules.fixed_penalty is None else None,
        "sides": [[x for x in range(s.players) if rules.side(x) == side] for side in range(rules.sides)]
        if rules.teams
        else None,
    }
