"""Where a laid joker may go, judged on the table before and after an action.

A joker can leave a set by several paths: a swap (the joker to the hand), a
rearrangement that hands the set its missing cards and sends the joker to
another meld, one that breaks the set up. The rules say what frees a set's
joker (``jokers.set_swap``), not which action did it; so the verdict is
reached here, from the two tables alone, and every lay action (``swap``,
``rearrange``, ``lay_off``, ``meld``) is judged by this one function in the
handlers' shared end of a lay (handlers._finish_lay), before the house plugins'
``rami_table_acceptable`` sees the same two tables. Two actions that take a
table to the same next table therefore get the same verdict and the same code
(``joker_swap_forbidden``).

The set rule read here: with ``set_swap: fourth_card`` a joker leaves a set
only when the set it leaves is a full carré afterwards, four cards (both
missing cards brought to a three-card set; the card it stands for to a
carré, whose other joker may stay); with ``any`` a joker may leave whenever
the table stays valid (the rules of meld validity, the house plugins and the
swap's exact card judge the rest).

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

from rami_core.cards import Card, format_card
from rami_core.cards.melds import RUN, SET, Reading
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason

FULL_SET = 4


@dataclass(frozen=True)
class SetDeparture:
    """Jokers that left a set of the old table."""

    meld: int  # the set's index on the old table
    size: int  # its cards before (naturals and jokers)
    jokers: int  # how many of its jokers left it
    naturals_after: int  # natural cards of its rank in the meld that continues it (0: broken up)
    cards_after: int  # the cards of the set that continues it, jokers included (0: broken up)


def _faces(cards: Sequence[Card]) -> Counter[tuple[int, int]]:
    return Counter(c.face for c in cards if not c.is_joker)


def set_departures(before: Sequence[Reading], after: Sequence[Reading]) -> list[SetDeparture]:
    """Each set of `before` that holds fewer jokers in `after` (a joker gone to
    the hand, to another meld, or the set broken up)."""
    out: list[SetDeparture] = []
    if not any(old.kind == SET and old.jokers for old in before):
        return out  # most lays: no set holds a joker, nothing to follow
    # Only the sets of `after` are compared with the old sets: their faces are
    # counted once, the first time a set of their rank is looked for (most
    # melds of the new table are runs, or sets of another rank).
    after_faces: dict[int, Counter[tuple[int, int]]] = {}
    for i, old in enumerate(before):
        if old.kind != SET or old.jokers == 0:
            continue
        naturals = _faces(old.cards)
        best: tuple[int, int] | None = None
        cont: Reading | None = None
        for j, r in enumerate(after):
            if r.kind != SET or r.rank != old.rank:
                continue
            faces = after_faces.get(j)
            if faces is None:
                faces = after_faces[j] = _faces(r.cards)
            shared = sum((naturals & faces).values())
            if shared:
                jokers = r.jokers
                if best is None or (shared, jokers) > best:
                    best, cont = (shared, jokers), r
        if cont is None:  # broken up: no set of its rank holds its naturals
            left, naturals_after, cards_after = old.jokers, 0, 0
        else:
            left = max(0, old.jokers - cont.jokers)
            naturals_after = sum(1 for c in cont.cards if not c.is_joker)
            cards_after = len(cont.cards)
        if left:
            out.append(SetDeparture(i, len(old.cards), left, naturals_after, cards_after))
    return out


@dataclass(frozen=True)
class RunDeparture:
    """Jokers that left a run of the old table, and whether the cards they stood for took their places."""

    meld: int  # the run's index on the old table
    jokers: int  # how many of its jokers left it
    replaced: int  # how many of them the natural card they stood for replaced
    stood_for: tuple[tuple[int, int], ...]  # the faces its jokers stood for


def run_departures(before: Sequence[Reading], after: Sequence[Reading]) -> list[RunDeparture]:
    """Each run of `before` whose jokers are no longer with its natural cards.

    A run may be split by a rebuild: its jokers stay with it while some run of
    its suit holding one of its natural cards holds them. The jokers those
    runs hold fewer than the old run have left it; one is replaced where a
    card it stood for is now a natural card of those runs."""
    out: list[RunDeparture] = []
    for i, old in enumerate(before):
        if old.kind != RUN or old.jokers == 0:
            continue
        naturals = _faces(old.cards)
        heirs = [r for r in after if r.kind == RUN and r.suit == old.suit and naturals & _faces(r.cards)]
        kept = sum(r.jokers for r in heirs)
        left = max(0, old.jokers - kept)
        if not left:
            continue
        stood = tuple(face for card, face in zip(old.cards, old.stands) if card.is_joker)
        now: Counter[tuple[int, int]] = Counter()
        for r in heirs:
            now += _faces(r.cards)
        replaced = sum((Counter(stood) & now).values())
        out.append(RunDeparture(i, left, min(left, replaced), stood))
    return out


def joker_departure_refusal(
    set_swap_any: bool, before: Sequence[Reading], after: Sequence[Reading], run_exact: bool = False
) -> RuleError | None:
    """The refusal for a joker that left a set against ``jokers.set_swap``, or
    (`run_exact`: where a joker is won back only by the card it stands for,
    ``jokers.swap: to_hand``) a run without that card taking its place; None
    when every departure is allowed."""
    if not set_swap_any:
        for d in set_departures(before, after):
            if d.cards_after < FULL_SET:
                why = Reason("swap_both") if d.size == 3 else Reason("set_joker_stays")
                return RuleError("joker_swap_forbidden", Reason("meld_reason", meld=d.meld, reason=why))
    if run_exact:
        for r in run_departures(before, after):
            if r.replaced < r.jokers:
                card = format_card(Card(r.stood_for[0][0], r.stood_for[0][1], 0))
                return RuleError(
                    "joker_swap_forbidden",
                    Reason("meld_reason", meld=r.meld, reason=Reason("run_joker_stays", card=card)),
                )
    return None
