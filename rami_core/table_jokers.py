"""Where a laid joker may go, judged on the table before and after an action.

A joker can leave a set by several paths: a swap (the joker to the hand), a
rearrangement that hands the set its missing cards and sends the joker to
another meld, one that breaks the set up. The rules say what frees a set's
joker (``jokers.set_swap``), not which action did it; so the verdict is
reached here, from the two tables alone, and every lay action (``swap``,
``rearrange``, ``lay_off``, ``meld``) is judged by this one function in the
engine's shared end of a lay (engine._finish_lay), before the house plugins'
``rami_table_acceptable`` sees the same two tables. Two actions that take a
table to the same next table therefore get the same verdict and the same code
(``joker_swap_forbidden``).

The set rule read here: with ``set_swap: fourth_card`` a joker leaves a set
only when the set it leaves becomes four natural cards (both missing cards
brought to a three-card set, the fourth to a carré); with ``any`` a joker may
leave whenever the table stays valid (the rules of meld validity, the house
plugins and the swap's exact card judge the rest).

A set is followed across the action by its natural cards: the set of the
same rank on the new table that holds most of them (ties: the most jokers)
continues it, and the jokers it holds fewer than the old set are the jokers
that left; a set whose naturals no set of its rank holds any more was broken
up, and all its jokers left it. Cards are compared by face, as the engine reads a
rearrangement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .errors import RuleError
from .melds import SET, Reading
from .refusals import Reason

FULL_SET = 4


@dataclass(frozen=True)
class SetDeparture:
    """Jokers that left a set of the old table."""

    meld: int  # the set's index on the old table
    size: int  # its cards before (naturals and jokers)
    jokers: int  # how many of its jokers left it
    naturals_after: int  # natural cards of its rank in the meld that continues it (0: broken up)


def _faces(cards: Sequence[Card]) -> Counter[tuple[int, int]]:
    return Counter(c.face for c in cards if not c.is_joker)


def set_departures(before: Sequence[Reading], after: Sequence[Reading]) -> list[SetDeparture]:
    """Each set of `before` that holds fewer jokers in `after` (a joker gone to
    the hand, to another meld, or the set broken up)."""
    out: list[SetDeparture] = []
    after_faces = [_faces(r.cards) for r in after]
    after_jokers = [r.jokers for r in after]
    for i, old in enumerate(before):
        if old.kind != SET or old.jokers == 0:
            continue
        naturals = _faces(old.cards)
        best: tuple[int, int] | None = None
        cont: Reading | None = None
        for j, faces in enumerate(after_faces):
            if after[j].kind != SET or after[j].rank != old.rank:
                continue
            shared = sum((naturals & faces).values())
            if shared and (best is None or (shared, after_jokers[j]) > best):
                best, cont = (shared, after_jokers[j]), after[j]
        if cont is None:  # broken up: no set of its rank holds its naturals
            left, naturals_after = old.jokers, 0
        else:
            left = max(0, old.jokers - cont.jokers)
            naturals_after = sum(1 for c in cont.cards if not c.is_joker)
        if left:
            out.append(SetDeparture(i, len(old.cards), left, naturals_after))
    return out


def joker_departure_refusal(
    set_swap_any: bool, before: Sequence[Reading], after: Sequence[Reading]
) -> RuleError | None:
    """The refusal for a joker that left a set against ``jokers.set_swap``, or None."""
    if set_swap_any:
        return None
    for d in set_departures(before, after):
        if d.naturals_after < FULL_SET:
            why = Reason("swap_both") if d.size == 3 else Reason("set_joker_stays")
            return RuleError("joker_swap_forbidden", Reason("meld_reason", meld=d.meld, reason=why))
    return None
