"""Where bots-only play gives up: a round that would never end, a game that
would never end. Shared by `rami simulate` and bots-only `rami play`, so both
stop at the same points and count the same way.

Turns are the engine's own count (`GameState.turns_played`: turns ended this
round, every seat counted), never changes of seat: a turn that does not end
(a bot whose actions are refused, a timeout that is undone) is cut by the
step cap and ended by the clock, and still counts as one turn.
"""

from __future__ import annotations

from rami_core.game.state import OVER, GameState
from rami_core.referee.scoring import EMPTY_ALL_PAY

TURN_CAP = 600  # turns in one round
ROUND_CAP = 100  # rounds in one game
STEP_CAP = 60  # actions one turn may take before the clock ends it


def turns_in_round(s: GameState) -> int:
    """Turns played this round: those ended, and the one in progress or the
    one that ended the round (going out, or the stock running dry mid-turn)."""
    if s.phase == OVER and (s.stock_exhausted or s.round_end == EMPTY_ALL_PAY):
        return s.turns_played  # the round ended as a turn ended, which the count holds
    return s.turns_played + 1


def round_capped(s: GameState, turn_cap: int = TURN_CAP) -> bool:
    """The round has reached its turn cap without ending."""
    return s.phase != OVER and s.turns_played >= turn_cap
