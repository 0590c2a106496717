"""A seat's observation: its view (rami_core.views) and its draft as fixed-size arrays.

Built from `Game.view(seat)` only, so it holds what the seat may know and
nothing more: its own hand, the table, the discard pile, the counts of the
other hands and the stock, who has opened, the scores. Seats are listed
from the observer's own place ("me" first, then the next seat to play).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..melds import AMBIGUOUS, RUN, SET
from ..state import DRAW, LAY, OVER
from ..views import SeatView
from .draft import Draft
from .faces import FACES, JOKER_INDEX, face_index

BIG = 1_000_000  # bound for scores and counters

PHASE_WAITING, PHASE_DRAW, PHASE_LAY, PHASE_OVER = 0, 1, 2, 3


def observation_space(players: int, slots: int, actions: int, copies: int) -> spaces.Dict:
    """`copies`: the most cards of one face (decks, or jokers for the joker column)."""

    def box(shape: tuple[int, ...], low: int, high: int) -> spaces.Box:
        return spaces.Box(low=low, high=high, shape=shape, dtype=np.int32)

    faces = (FACES,)
    one = (1,)
    return spaces.Dict(
        {
            "hand": box(faces, 0, copies),
            "pending": box(faces, 0, copies),
            "pending_current": box(faces, 0, copies),
            "pending_low_jokers": box(one, 0, copies),
            "pending_groups": box(one, 0, BIG),
            "table": box((slots, FACES), 0, copies),
            "table_jokers_as": box((slots, FACES), 0, copies),
            "table_kind": box((slots,), 0, 2),
            "table_owner": box((slots,), 0, players),
            "discard": box(faces, 0, copies),
            "discard_top": box(one, 0, FACES),
            "discard_size": box(one, 0, BIG),
            "stock_size": box(one, 0, BIG),
            "hand_sizes": box((players,), 0, BIG),
            "opened": box((players,), 0, 1),
            "scores": box((players,), -BIG, BIG),
            "phase": box(one, 0, 3),
            "taken_discard": box(one, 0, FACES),
            "jokers_to_replay": box(one, 0, copies),
            "laid_this_turn": box(one, 0, 1),
            "opened_this_turn": box(one, 0, 1),
            "round_no": box(one, 0, BIG),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
        }
    )


def _counts(cards) -> np.ndarray:
    out = np.zeros(FACES, dtype=np.int32)
    for c in cards:
        out[face_index(c)] += 1
    return out


def encode(
    view: SeatView, draft: Draft, mask: np.ndarray, slots: int, side_of: list[int]
) -> dict[str, np.ndarray]:
    """The observation of `view.seat`. `draft`: the seat's pending cards (empty
    when it is not its turn); `side_of[seat]`: the index of its score."""
    n = view.players
    order = [(view.seat + i) % n for i in range(n)]
    table = np.zeros((slots, FACES), dtype=np.int32)
    jokers_as = np.zeros((slots, FACES), dtype=np.int32)
    kind = np.zeros(slots, dtype=np.int32)
    owner = np.zeros(slots, dtype=np.int32)
    for k, m in enumerate(view.table[:slots]):
        r = m.reading
        kind[k] = 1 if r.kind == RUN else 2 if r.kind == SET else 0
        owner[k] = 0 if m.owner is None else 1 + order.index(m.owner)
        for c, (rank, suit) in zip(r.cards, r.stands, strict=False):
            table[k, face_index(c)] += 1
            if c.suit == 4:
                jokers_as[k, JOKER_INDEX if suit == AMBIGUOUS else suit * 13 + rank - 1] += 1
    pending = np.zeros(FACES, dtype=np.int32)
    for f, k in draft.faces().items():
        pending[f] = k
    current = np.zeros(FACES, dtype=np.int32)
    for f, k in draft.current.faces().items():
        current[f] = k
    if view.phase == OVER:
        phase = PHASE_OVER
    elif view.turn != view.seat:
        phase = PHASE_WAITING
    else:
        phase = PHASE_DRAW if view.phase == DRAW else PHASE_LAY if view.phase == LAY else PHASE_OVER

    def one(x: int) -> np.ndarray:
        return np.array([x], dtype=np.int32)

    return {
        "hand": _counts(view.hand),
        "pending": pending,
        "pending_current": current,
        "pending_low_jokers": one(draft.current.low),
        "pending_groups": one(len(draft.closed)),
        "table": table,
        "table_jokers_as": jokers_as,
        "table_kind": kind,
        "table_owner": owner,
        "discard": _counts(view.discard),
        "discard_top": one(face_index(view.discard[-1]) if view.discard else FACES),
        "discard_size": one(len(view.discard)),
        "stock_size": one(view.stock_size),
        "hand_sizes": np.array([view.hand_sizes[s] for s in order], dtype=np.int32),
        "opened": np.array([int(view.opened[s]) for s in order], dtype=np.int32),
        "scores": np.array([view.scores[side_of[s]] for s in order], dtype=np.int32),
        "phase": one(phase),
        "taken_discard": one(face_index(view.taken_discard) if view.taken_discard is not None else FACES),
        "jokers_to_replay": one(len(view.jokers_to_replay)),
        "laid_this_turn": one(int(view.laid_this_turn)),
        "opened_this_turn": one(int(view.opened_this_turn)),
        "round_no": one(view.round_no),
        "action_mask": mask.astype(np.int8),
    }
