"""What a first lay must contain, by the profile's opening settings.

Kept apart from the turn machine because the same judgement serves the
engine (refusing an opening), the solver (finding the best one) and the bots
(timing theirs).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .melds import RUN, SET, Reading
from .profile import PartnerOpening
from .rules import Rules


def opening_problem(
    rules: Rules,
    readings: Sequence[Reading],
    *,
    going_out: bool,
    taken_discard: Card | None = None,
    partner_opened: bool = False,
) -> str | None:
    """Why these melds, laid in one action by a seat that has not opened, do
    not open; None when they do. `going_out` says the action leaves only the
    card to discard (or nothing where no discard ends the round)."""
    op = rules.opening  # the need of a seat not covered by a partner
    if partner_opened:
        if rules.partner_opening == PartnerOpening.pure_run and not any(r.pure for r in readings):
            return "your partner has opened; your first lay needs a run without a joker"
        if not op.all_at_once:
            return None
    if not rules.has_opening:
        return None
    if op.all_at_once and not going_out:
        return "nothing is laid before going out: lay your whole hand at once (but the card to discard)"
    jokers = sum(r.jokers for r in readings)
    if not op.jokers and jokers:
        return "an opening may not use a joker"
    if op.pure_run and not any(r.pure for r in readings):
        return "an opening needs a run without a joker"
    if op.run_and_set and not (any(r.kind == RUN for r in readings) and any(r.kind == SET for r in readings)):
        return "an opening needs at least one run and one set"
    if op.points:
        total = sum(rules.meld_value(r) for r in readings)
        if total < op.points:
            if not (op.go_out_below_points and going_out):
                return f"an opening needs {op.points} points; these melds make {total}"
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
                    return "going out below the points after taking the discard needs a run built without that card"
    return None
