"""What a first lay must contain, by the profile's opening settings.

Kept apart from the turn machine because the same judgement serves the
engine (refusing an opening), the solver (finding the best one) and the bots
(timing theirs).
"""

from __future__ import annotations

from collections.abc import Sequence

from rami_core.cards import Card
from rami_core.cards.melds import RUN, SET, Reading
from rami_core.profile.rules import OpeningNeed, Rules
from rami_core.words.refusals import Reason


def opening_problem(
    rules: Rules,
    readings: Sequence[Reading],
    need: OpeningNeed,
    *,
    going_out: bool,
    taken_discard: Card | None = None,
) -> Reason | None:
    """Why these melds, laid in one action by a seat whose lay is judged as an
    opening, do not meet `need` (``Rules.opening_need``: the partner rule is
    read there, not here); None when they do. `going_out` says the action
    leaves only the cards kept (``Rules.kept_going_out``)."""
    op = need
    if op.partner and op.pure_run and not any(r.pure for r in readings):
        return Reason("partner_pure")
    if op.all_at_once and not going_out:
        return Reason("all_at_once")
    jokers = sum(r.jokers for r in readings)
    if not op.jokers and jokers:
        return Reason("opening_no_joker")
    if op.pure_run and not any(r.pure for r in readings):
        return Reason("opening_pure")
    if op.run_and_set and not (any(r.kind == RUN for r in readings) and any(r.kind == SET for r in readings)):
        return Reason("opening_run_set")
    if op.points:
        total = sum(rules.meld_value(r) for r in readings)
        if total < op.points:
            if not (op.go_out_below_points and going_out):
                return Reason("opening_points", points=op.points, total=total)
            if rules.opening_points_going_out_needs_run and taken_discard is not None:
                face = taken_discard.face
                copies = sum(1 for r in readings for c in r.cards if c.face == face)
                ok = any(
                    r.kind == RUN
                    and (op.jokers or r.jokers == 0)
                    and (copies > 1 or all(c.face != face for c in r.cards))
                    for r in readings
                )
                if not ok:
                    return Reason("go_out_run")
    return None
