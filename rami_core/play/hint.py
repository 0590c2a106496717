"""`hint`: the solver's best move for the seat to play, from its view only.

The plan comes from rami_core.solver (the best opening from the hand, the
best rearrangement of the whole table where the profile allows one, or the
best lay offs and new melds where laid cards keep their places). Every step
of the plan is checked by the engine, on a state rebuilt from the view, before
it is suggested; a step the engine would refuse is not offered.
"""

from __future__ import annotations

from dataclasses import replace

from .. import actions as A
from ..bots.base import play, state_from_view
from ..cards import JOKER_SUIT, Card
from ..engine import may_lay_freely
from ..melds import AMBIGUOUS
from ..rules import Rules
from ..state import DRAW, LAY, GameState
from ..views import SeatView


def lay_plan(view: SeatView, rules: Rules, time_limit: float = 3.0) -> tuple[list[A.Action], GameState]:
    """Engine-checked actions that lay the most cards this turn, and the state after them."""
    from .. import solver

    p = rules.profile
    seat = view.seat
    st = state_from_view(view)
    hand = list(view.hand)
    proposals: list[A.Action] = []
    if not may_lay_freely(rules, st, seat):
        s = p.scoring
        opening = solver.best_opening(
            hand,
            rules.melds,
            p.opening,
            score={"ace": s.ace_points, "ace_low": s.ace_low_points, "court": s.court_points},
        )
        if opening:
            proposals.append(A.Meld(seat, tuple(tuple(m) for m in opening)))
    elif p.table.rearrange:
        sol = solver.solve(
            [list(m.cards) for m in view.table], hand, rules.melds, points=p, time_limit=time_limit
        )
        if sol.laid:
            melds = tuple(tuple(m) for m in sol.melds)
            proposals.append(A.Rearrange(seat, melds) if view.table else A.Meld(seat, melds))
    else:
        plan = solver.best_lay_offs([m.reading for m in view.table], hand, rules.melds)
        for i, nats, joks in plan.lay_offs:
            items = [A.LayOffItem(c, i) for c in nats]
            for j, f in joks:
                as_ = (
                    Card(f[0], f[1], 0)
                    if f is not None and f[1] not in (AMBIGUOUS, JOKER_SUIT) and f[1] >= 0
                    else None
                )  # None: the joker's place is free
                items.append(A.LayOffItem(j, i, as_))
            proposals.append(A.LayOff(seat, tuple(items)))
        if plan.new_melds:
            proposals.append(A.Meld(seat, tuple(tuple(m) for m in plan.new_melds)))
    done: list[A.Action] = []
    for a in proposals:
        new = play(rules, st, a)
        if new is None and isinstance(a, A.Meld) and len(a.melds) > 1:
            # Laying everything may break a rule (a card kept for the discard): try fewer melds.
            for k in range(len(a.melds) - 1, 0, -1):
                shorter = A.Meld(seat, a.melds[:k])
                new = play(rules, st, shorter)
                if new is not None:
                    a = shorter
                    break
        if new is None:
            continue
        done.append(a)
        st = new
    return done, st


def _keep_value(card: Card, hand: list[Card]) -> int:
    """How much a card is worth keeping: jokers always, cards with neighbours."""
    if card.is_joker:
        return 1000
    links = 0
    for c in hand:
        if c is card or c.is_joker:
            continue
        if c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2):
            links += 1
    return links * 12


def best_discard(rules: Rules, st: GameState, seat: int) -> Card | None:
    hand = list(st.hands[seat])
    order = sorted(hand, key=lambda c: (_keep_value(c, hand) - rules.hand_value([c]), -c.rank))
    for c in order:
        face = Card(c.rank, c.suit, 0)
        if play(rules, st, A.Discard(seat, face)) is not None:
            return face
    return None


def suggest(view: SeatView, rules: Rules) -> dict:
    """What the seat should do now: {'draw': 'stock'|'discard'} in the draw
    phase; else {'actions': [...], 'discard': card|None, 'end': bool}."""
    p = rules.profile
    if view.phase == DRAW:
        top = view.discard_top
        if top is not None and p.draw.from_discard:
            st = state_from_view(view)
            if play(rules, st, A.Draw(view.seat, "discard")) is not None:
                taken = replace(
                    view,
                    hand=view.hand + (top,),
                    discard=view.discard[:-1],
                    phase=LAY,
                    drew_from="discard",
                    taken_discard=top,
                )
                _, st_before = lay_plan(replace(view, phase=LAY, drew_from="stock"), rules)
                _, st_after = lay_plan(taken, rules)
                laid_before = len(view.hand) - len(st_before.hands[view.seat])
                laid_after = len(taken.hand) - len(st_after.hands[view.seat])
                if laid_after > laid_before and top.face not in [c.face for c in st_after.hands[view.seat]]:
                    return {"draw": "discard", "card": top}
        return {"draw": "stock"}
    actions, st = lay_plan(view, rules)
    out: dict = {"actions": actions, "discard": None, "end": False}
    if st.phase == LAY:
        if p.discard.enabled:
            out["discard"] = best_discard(rules, st, view.seat)
        else:
            out["end"] = True
    return out
