"""A smaller action space for learners: one discard per card, melds from a ranked list.

The full layout (rami_core.rl.layout) names every sub-step a turn can hold:
every card added to a group one at a time, every lay off onto every table
slot, so Rami 51's space has 3966 indices, most of which a policy must learn
never to use. This layout keeps what a policy needs to play well and leaves
the choice of slot to the environment:

| indices | sub-step |
|---|---|
| 0, 1 | draw from the stock, take the discard top |
| 2 | end the turn (profiles without a discard) |
| 3 | commit the groups chosen as one lay (`meld`) |
| 4 | commit the cards chosen as a rebuild of the table (`rearrange`) |
| 5 + f | discard face f |
| 58 + f | lay off face f on the first table slot that takes it |
| 111 + f | give natural face f for the joker of the first slot that takes it |
| 163 + i | add the i-th group of the ranked list to the lay (see below) |
| 163 + G + f | add face f to a rebuild of the table (profiles that rearrange only) |

The ranked list holds the groups of the hand (every meld the meld reader
reads, rami_core.rl.packing.candidates) that a lay the engine accepts can
still hold together with the groups chosen so far, most points first, then
fewest jokers, then most cards; entry i is the i-th of that list now (its
meaning moves with the hand, as a card player's "my best meld" does). The
list is cut at `groups` entries (G, 24 by default). Every mask bit is the
same exact verdict as in the full layout: the engine's for an engine action,
the oracle's witness search for a group or a card added.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rami_core.rl.draft import Draft, Group
from rami_core.rl.faces import FACES, JOKER_INDEX, NATURALS
from rami_core.rl.layout import (
    COMMIT_MELD as FULL_COMMIT_MELD,
)
from rami_core.rl.layout import (
    COMMIT_REARRANGE as FULL_COMMIT_REARRANGE,
)
from rami_core.rl.layout import (
    DRAW_DISCARD as FULL_DRAW_DISCARD,
)
from rami_core.rl.layout import (
    DRAW_STOCK as FULL_DRAW_STOCK,
)
from rami_core.rl.layout import (
    END_TURN as FULL_END_TURN,
)
from rami_core.rl.layout import ActionLayout
from rami_core.rl.mask import TurnOracle

DRAW_STOCK, DRAW_DISCARD, END_TURN, COMMIT_MELD, COMMIT_REARRANGE = range(5)
SINGLES = 5
SINGLE_NAMES = ("draw_stock", "draw_discard", "end_turn", "commit_meld", "commit_rearrange")
DEFAULT_GROUPS = 24


@dataclass(frozen=True)
class Plan:
    """What a compact index does now: play a full-layout index, or grow the draft."""

    full: int = -1  # a full-layout sub-step to play
    group: Group | None = None  # a group to add to the lay
    face: int = -1  # a card to add to the rebuild


class CompactLayout:
    """The compact action space of one profile (see the module's table)."""

    def __init__(self, full: ActionLayout, rebuilds: bool, groups: int = DEFAULT_GROUPS):
        self.full = full
        self.groups = groups
        self.rebuilds = rebuilds
        self.discard = SINGLES
        self.lay_off = self.discard + FACES
        self.swap = self.lay_off + FACES
        self.group = self.swap + NATURALS
        self.add = self.group + groups
        self.size = self.add + (FACES if rebuilds else 0)
        self._cache_key: tuple | None = None
        self._cache: tuple[np.ndarray, dict[int, Plan]] | None = None

    def describe(self, index: int, plans: dict[int, Plan] | None = None) -> str:
        from rami_core.cards import format_card
        from rami_core.rl.faces import face_card

        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the space (0 to {self.size - 1})")
        if index < SINGLES:
            return SINGLE_NAMES[index]
        for start, name in ((self.add, "add"), (self.group, "meld_group"), (self.swap, "swap")):
            if index >= start:
                if name == "meld_group":
                    return f"meld_group #{index - start}"
                return f"{name} {format_card(face_card(index - start))}"
        if index >= self.lay_off:
            return f"lay_off {format_card(face_card(index - self.lay_off))}"
        return f"discard {format_card(face_card(index - self.discard))}"

    def plans(self, oracle: TurnOracle, draft: Draft) -> tuple[np.ndarray, dict[int, Plan]]:
        """The mask now and what each legal index plays (cached per state and draft)."""
        oracle._refresh()
        key = (oracle._key, tuple(draft.closed), draft.current)
        if key == self._cache_key and self._cache is not None:
            return self._cache
        out = self._plans(oracle, draft)
        self._cache_key, self._cache = key, out
        return out

    def _plans(self, oracle: TurnOracle, draft: Draft) -> tuple[np.ndarray, dict[int, Plan]]:
        L = self.full
        m = np.zeros(self.size, dtype=np.int8)
        plans: dict[int, Plan] = {}

        def offer(i: int, plan: Plan) -> None:
            m[i] = 1
            plans[i] = plan

        base = oracle.engine_mask()
        for mine, full in (
            (DRAW_STOCK, FULL_DRAW_STOCK),
            (DRAW_DISCARD, FULL_DRAW_DISCARD),
            (END_TURN, FULL_END_TURN),
        ):
            if base[full]:
                offer(mine, Plan(full=full))
        if not oracle.in_lay_phase():
            return m, plans
        hand = oracle.hand()
        K = L.slots
        lay = base[L.lay_off : L.lay_off + FACES * K].reshape(FACES, K)
        low = base[L.lay_off_joker_low : L.lay_off_joker_low + K]
        swap = base[L.swap : L.swap + NATURALS * K].reshape(NATURALS, K)
        for f in sorted(hand):
            if base[L.discard + f]:
                offer(self.discard + f, Plan(full=L.discard + f))
            if lay[f].any():
                offer(self.lay_off + f, Plan(full=L.lay_off + f * K + int(lay[f].argmax())))
            elif f == JOKER_INDEX and low.any():
                offer(self.lay_off + f, Plan(full=L.lay_off_joker_low + int(low.argmax())))
            if f != JOKER_INDEX and swap[f].any():
                offer(self.swap + f, Plan(full=L.swap + f * K + int(swap[f].argmax())))
        if not draft.current.size:
            if draft.closed and oracle.meld_accepted(draft.closed):
                offer(COMMIT_MELD, Plan(full=FULL_COMMIT_MELD))
            avail = hand - draft.faces()
            n = 0
            for g in oracle.ranked_groups():
                if n >= self.groups:
                    break
                if all(avail[f] >= k for f, k in g.faces().items()) and oracle.meld_reachable(
                    [*draft.closed, g]
                ):
                    offer(self.group + n, Plan(group=g))
                    n += 1
        if self.rebuilds and not draft.closed and oracle.rebuild_possible():
            avail = hand - draft.faces()
            for f in sorted(avail):
                if oracle.rebuild_reachable(Draft([], draft.current.add(f))):
                    offer(self.add + f, Plan(face=f))
            if draft.current.size and oracle.rebuild_accepted(draft.current.faces()):
                offer(COMMIT_REARRANGE, Plan(full=FULL_COMMIT_REARRANGE))
        return m, plans


__all__ = ["DEFAULT_GROUPS", "CompactLayout", "Plan"]
