"""The fixed discrete action space of one profile: which index is which sub-step.

Every index is one sub-step of a turn. The space depends only on how many
table slots the profile can ever need (all its cards laid in the smallest
melds), so one trained policy keeps its meaning for the whole game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rami_core.profile.rules import Rules
from rami_core.rl.faces import FACES, NATURALS

# Single sub-steps, in this order at the start of the space.
DRAW_STOCK = 0
DRAW_DISCARD = 1
END_TURN = 2
TIMEOUT = 3
CLOSE_GROUP = 4
COMMIT_MELD = 5
COMMIT_REARRANGE = 6
ADD_JOKER_LOW = 7
SINGLES = 8

SINGLE_NAMES = (
    "draw_stock",
    "draw_discard",
    "end_turn",
    "timeout",
    "close_group",
    "commit_meld",
    "commit_rearrange",
    "add_joker_low",
)


@dataclass(frozen=True)
class SubStep:
    """A decoded action index: its kind, and the face and table slot it names (or -1)."""

    kind: str
    face: int = -1
    slot: int = -1


def table_slots(rules: Rules) -> int:
    """The most melds the table can hold: every card of the deck laid in melds of the smallest size."""
    cards = 52 * rules.decks + rules.deck_jokers
    smallest = max(1, min(rules.melds.run_min, rules.melds.set_min))
    return math.ceil(cards / smallest)


@dataclass(frozen=True)
class _Blocks:
    """Where each block starts (worked out once: the mask's loops read them)."""

    add: int
    discard: int
    lay_off: int
    lay_off_joker_low: int
    swap: int
    swap_pending: int
    size: int


@dataclass(frozen=True)
class ActionLayout:
    """Blocks after the single sub-steps, each indexed by face (53) or slot (K):

    add[f], discard[f], lay_off[f * K + k], joker_low[k], swap[f * K + k] (52
    natural faces), swap_pending[k]."""

    slots: int

    def __post_init__(self) -> None:
        K = self.slots
        add = SINGLES
        discard = add + FACES
        lay_off = discard + FACES
        low = lay_off + FACES * K
        swap = low + K
        pending = swap + NATURALS * K
        object.__setattr__(self, "_b", _Blocks(add, discard, lay_off, low, swap, pending, pending + K))

    @property
    def add(self) -> int:
        return self._b.add  # type: ignore[attr-defined]

    @property
    def discard(self) -> int:
        return self._b.discard  # type: ignore[attr-defined]

    @property
    def lay_off(self) -> int:
        return self._b.lay_off  # type: ignore[attr-defined]

    @property
    def lay_off_joker_low(self) -> int:
        return self._b.lay_off_joker_low  # type: ignore[attr-defined]

    @property
    def swap(self) -> int:
        return self._b.swap  # type: ignore[attr-defined]

    @property
    def swap_pending(self) -> int:
        return self._b.swap_pending  # type: ignore[attr-defined]

    @property
    def size(self) -> int:
        return self._b.size  # type: ignore[attr-defined]

    # ---- encoding

    def add_index(self, face: int) -> int:
        return self.add + face

    def discard_index(self, face: int) -> int:
        return self.discard + face

    def lay_off_index(self, face: int, slot: int) -> int:
        return self.lay_off + face * self.slots + slot

    def joker_low_index(self, slot: int) -> int:
        return self.lay_off_joker_low + slot

    def swap_index(self, face: int, slot: int) -> int:
        return self.swap + face * self.slots + slot

    def swap_pending_index(self, slot: int) -> int:
        return self.swap_pending + slot

    # ---- decoding

    def decode(self, index: int) -> SubStep:
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the space (0 to {self.size - 1})")
        if index < SINGLES:
            return SubStep(SINGLE_NAMES[index])
        if index < self.discard:
            return SubStep("add", face=index - self.add)
        if index < self.lay_off:
            return SubStep("discard", face=index - self.discard)
        if index < self.lay_off_joker_low:
            f, k = divmod(index - self.lay_off, self.slots)
            return SubStep("lay_off", face=f, slot=k)
        if index < self.swap:
            return SubStep("lay_off_joker_low", slot=index - self.lay_off_joker_low)
        if index < self.swap_pending:
            f, k = divmod(index - self.swap, self.slots)
            return SubStep("swap", face=f, slot=k)
        return SubStep("swap_pending", slot=index - self.swap_pending)

    def describe(self, index: int) -> str:
        """A short readable name, e.g. `lay_off 7H -> 3`."""
        from rami_core.cards import format_card
        from rami_core.rl.faces import face_card

        s = self.decode(index)
        text = s.kind
        if s.face >= 0:
            text += " " + format_card(face_card(s.face))
        if s.slot >= 0:
            text += f" -> {s.slot}"
        return text
