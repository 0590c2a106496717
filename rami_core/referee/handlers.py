"""One handler per action (draw, meld, lay off, swap, rearrange, discard, end
the turn), judged as the profile says, and `play_on`, which plays a move on a
copy of the state.

Every action runs on a copy of the state and replaces the state only if it
completes: a refused action raises one RuleError and leaves the game exactly
as it was, whatever it had checked or moved before failing. Checks run in the
order of `rami_core.words.errors.ERROR_CODES` so that, where several apply, the
first one listed there is the one reported. No variant is named here: every difference
between tables comes from the profile.

A handler needs a state and the rules, never a `Game`: the bots, the legal
moves, the learning environments and `rami diff` judge moves with `play_on`
alone, and `Game` (rami_core.referee.engine) adds what needs the game's
history. Each handler starts with its kind's gates (rami_core.referee.gates,
shared with the legal moves); what is here looks at the cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rami_core.cards import Card, format_card, shuffled
from rami_core.cards.melds import Reading, lay_off_positional, read_meld, swap_positional, why_invalid
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, GameState, TableMeld
from rami_core.profile.model import EmptyStock
from rami_core.profile.rules import Rules
from rami_core.referee.gates import (
    DISCARD,
    STOCK,
    check_discard_draw,
    check_lay_off_opened,
    check_rearrange_opened,
    check_swap_opened,
    check_turn_may_end,
    gate_discard,
    gate_draw,
    gate_end_turn,
    gate_lay_off,
    gate_meld,
    gate_rearrange,
    gate_swap,
)
from rami_core.referee.opening import opening_problem
from rami_core.referee.scoring import EMPTY_NOBODY, OUT, finish_round, round_over_on_empty_stock
from rami_core.referee.seeds import rng_for
from rami_core.referee.table_jokers import joker_departure_refusal
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason

# ------------------------------------------------------------------ the cards a move takes and lays


def _owed_first(s: GameState) -> list[Card]:
    """The hand's cards a face names before its other copies, in order: the
    card taken from the discard pile if it is also a joker owed to the table,
    the jokers owed to the table (freed by a swap this turn, the last freed
    first), then the card taken from the discard pile. Identical cards differ
    only in these public facts, so a seat that rebuilds the state from its
    view picks the same cards and gets the same rulings."""
    t = s.taken_discard
    if t is None and not s.jokers_to_replay:
        return []  # the common case, asked per card by the legal moves' discards
    owed = [c for c in reversed(s.jokers_to_replay) if c != t]
    if t is None:
        return owed
    if t in s.jokers_to_replay:
        return [t, *owed]
    return [*owed, t]


def _take_from_hand(hand: list[Card], faces: Sequence[Card], first: Sequence[Card] = ()) -> list[Card]:
    """Remove the physical cards for these faces from `hand` (a working copy):
    the cards of ``first`` still in hand before any other copy of their face,
    else the copy the hand received last."""
    taken: list[Card] = []
    for face in faces:
        target = face.face
        for c in first:
            if c.face == target and c in hand:
                hand.remove(c)
                taken.append(c)
                break
        else:
            for i in range(len(hand) - 1, -1, -1):
                if hand[i].face == target:
                    taken.append(hand.pop(i))
                    break
            else:
                need = sum(1 for f in faces if f.face == target)
                raise RuleError(
                    "card_not_in_hand",
                    Reason("not_in_hand_n", card=format_card(face), n=need)
                    if need > 1
                    else Reason("not_in_hand", card=format_card(face)),
                )
    return taken


def _take_one(hand: list[Card], face: Card, first: Sequence[Card] = ()) -> Card:
    """`_take_from_hand(hand, [face], first)[0]` for one face (a discard),
    the same card taken and the same refusal."""
    rank, suit = face.rank, face.suit
    for c in first:
        if c.rank == rank and c.suit == suit and c in hand:
            hand.remove(c)
            return c
    for i in range(len(hand) - 1, -1, -1):
        c = hand[i]
        if c.rank == rank and c.suit == suit:
            return hand.pop(i)
    raise RuleError("card_not_in_hand", Reason("not_in_hand", card=format_card(face)))


def _check_keep_discard(rules: Rules, hand_after: list[Card]) -> None:
    """A lay leaves the cards the profile keeps for going out (a card to discard)."""
    if len(hand_after) < rules.kept_going_out:
        raise RuleError("must_keep_discard", Reason("keep_one"))


def _table_acceptable(
    rules: Rules, s: GameState, a: A.Action, old_table: list[TableMeld], given: Sequence[Card]
) -> None:
    """House rules about the table a lay leaves behind (rami_table_acceptable)."""
    rules.hooks.refuse_if(
        "rami_table_acceptable",
        rules=rules,
        state=s,
        seat=a.seat,
        old_table=old_table,
        new_table=list(s.table),
        given=list(given),
        action=a,
    )


def check_joker_departures(
    rules: Rules, old_table: Sequence[TableMeld], new_table: Sequence[TableMeld]
) -> None:
    """A joker leaves a set only as ``jokers.set_swap`` allows, and, where
    jokers are won back by the card they stand for (``jokers.swap: to_hand``),
    a run only when that card takes its place; whatever action took it
    (rami_core/referee/table_jokers.py judges the two tables)."""
    refusal = joker_departure_refusal(
        rules.set_swap_any,
        [m.reading for m in old_table],
        [m.reading for m in new_table],
        run_exact=rules.swaps_to_hand,
    )
    if refusal is not None:
        raise refusal


def _finish_lay(
    rules: Rules, s: GameState, a: A.Action, old_table: list[TableMeld], placed: Sequence[Card]
) -> None:
    """The end every lay shares: a card kept to discard, the house rules on
    the new table, then the bookkeeping (and going out)."""
    # joker_swap_forbidden comes before must_keep_discard in the codes' order
    check_joker_departures(rules, old_table, s.table)
    _check_keep_discard(rules, s.hands[a.seat])
    _table_acceptable(rules, s, a, old_table, placed)
    _after_lay(rules, s, a.seat, placed)


def _after_lay(rules: Rules, s: GameState, seat: int, placed: Sequence[Card]) -> None:
    """Bookkeeping shared by every action that puts hand cards on the table."""
    s.laid_this_turn = True
    for c in placed:
        if c in s.jokers_to_replay:
            s.jokers_to_replay.remove(c)
    if not s.hands[seat]:
        finish_round(rules, s, seat, OUT)


# ------------------------------------------------------------------ draw


def draw(rules: Rules, s: GameState, a: A.Draw) -> None:
    gate_draw(rules, s, a.seat)
    hand = s.hands[a.seat]
    if a.source == DISCARD:
        check_discard_draw(rules, s, a.seat)
        card = s.discard.pop()
        hand.append(card)
        s.taken_discard = card
        s.drew_from = DISCARD
        s.phase = LAY
        return
    if a.source != STOCK:
        raise RuleError("draw_forbidden", Reason("no_pile", pile=a.source))
    rules.hooks.refuse_if("rami_draw_allowed", rules=rules, state=s, seat=a.seat, source=STOCK)
    if not s.stock:
        mode = rules.empty_stock
        if mode == EmptyStock.reshuffle:
            if len(s.discard) <= 1:
                s.drew_from = STOCK
                finish_round(rules, s, None, EMPTY_NOBODY)
                return
            top = s.discard.pop()
            s.reshuffles += 1
            s.stock = shuffled(s.discard, rng_for(s.seed, "reshuffle", s.round_no, s.reshuffles))
            if rules.hooks.has("rami_reshuffle"):
                d = rules.hooks.decide("rami_reshuffle", rules=rules, state=s, cards=list(s.discard))
                if d is not None:
                    s.stock = list(d.value)
            s.discard = [top]
        elif mode == EmptyStock.turn_over:
            if not s.discard:
                s.drew_from = STOCK
                finish_round(rules, s, None, EMPTY_NOBODY)
                return
            s.stock = list(reversed(s.discard))
            s.discard = []
        else:
            raise RuleError("draw_forbidden", Reason("stock_empty"))
    hand.append(s.stock.pop())
    s.drew_from = STOCK
    s.phase = LAY
    if not s.stock and rules.empty_stock_ends_round:
        s.stock_exhausted = True


# ------------------------------------------------------------------ melds


def check_meld_group(rules: Rules, cards: Sequence[Card]) -> Reading:
    """One group of a new lay reads as a meld under the profile, and no house rule refuses it."""
    r = read_meld(cards, rules.melds)
    if r is None:
        raise RuleError("invalid_meld", why_invalid(cards, rules.melds))
    rules.hooks.refuse_if("rami_meld_valid", rules=rules, cards=list(cards), reading=r)
    return r


def check_opening(
    rules: Rules, s: GameState, seat: int, readings: Sequence[Reading], going_out: bool
) -> None:
    """A lay judged as an opening (a seat that has not opened, or every lay
    where melds go down all at once) meets what the seat needs now."""
    if s.opened[seat] and not rules.lays_all_at_once:
        return
    problem = opening_problem(
        rules, readings, rules.opening_need(s, seat), going_out=going_out, taken_discard=s.taken_discard
    )
    if problem:
        raise RuleError("opening_requirement", problem)
    if not s.opened[seat]:
        rules.hooks.refuse_if(
            "rami_opening_met",
            rules=rules,
            state=s,
            seat=seat,
            readings=list(readings),
            going_out=going_out,
        )


def _meld(rules: Rules, s: GameState, a: A.Meld) -> None:
    seat = a.seat
    gate_meld(rules, s, seat)
    hand = s.hands[seat]
    flat = [c for m in a.melds for c in m]
    if not a.melds or any(not m for m in a.melds):
        raise RuleError("invalid_meld", Reason("lay_one_meld"))
    placed = _take_from_hand(hand, flat, _owed_first(s))
    # Physical cards, meld by meld, in the order written.
    groups: list[list[Card]] = []
    i = 0
    for m in a.melds:
        groups.append(placed[i : i + len(m)])
        i += len(m)
    readings = [check_meld_group(rules, g) for g in groups]
    going_out = len(hand) == rules.kept_going_out
    check_opening(rules, s, seat, readings, going_out)
    if not s.opened[seat]:
        s.opened[seat] = True
        s.opened_this_turn = True
    old_table = list(s.table)
    s.table.extend(TableMeld(r, seat) for r in readings)
    _finish_lay(rules, s, a, old_table, placed)


def _lay_off(rules: Rules, s: GameState, a: A.LayOff) -> None:
    seat = a.seat
    gate_lay_off(rules, s, seat)
    if not a.items:
        raise RuleError("invalid_meld", Reason("lay_off_one"))
    hand = s.hands[seat]
    placed = _take_from_hand(hand, [it.card for it in a.items], _owed_first(s))
    for it in a.items:
        if not 0 <= it.to < len(s.table):
            raise RuleError("no_such_meld", Reason("no_meld_range", meld=it.to, last=len(s.table) - 1))
    check_lay_off_opened(rules, s, seat)
    old_table = list(s.table)
    by_meld: dict[int, list[tuple[Card, A.LayOffItem]]] = {}
    for c, it in zip(placed, a.items):
        by_meld.setdefault(it.to, []).append((c, it))
    for idx, items in by_meld.items():
        old = s.table[idx]
        if rules.positional_jokers:
            nat = [c for c, _ in items if not c.is_joker]
            jok = [
                (c, (it.as_.rank, it.as_.suit) if it.as_ is not None else None)
                for c, it in items
                if c.is_joker
            ]
            laid = lay_off_positional(old.reading, nat, jok, rules.melds)
            if isinstance(laid, str):
                raise RuleError("invalid_meld", Reason("meld_reason", meld=idx, reason=laid))
            res = laid
        else:
            cards = list(old.cards) + [c for c, _ in items]
            read = read_meld(cards, rules.melds)
            if read is None:
                raise RuleError(
                    "invalid_meld", Reason("meld_reason", meld=idx, reason=why_invalid(cards, rules.melds))
                )
            res = read
        s.table[idx] = TableMeld(res, old.owner)
    _finish_lay(rules, s, a, old_table, placed)


def _swap(rules: Rules, s: GameState, a: A.Swap) -> None:
    seat = a.seat
    gate_swap(rules, s, seat)
    hand = s.hands[seat]
    given = _take_from_hand(hand, list(a.cards), _owed_first(s))
    if not 0 <= a.meld < len(s.table):
        raise RuleError("no_such_meld", Reason("no_meld", meld=a.meld))
    check_swap_opened(rules, s, seat)
    old = s.table[a.meld]
    # Every table meld carries its reading (on a rearranged table too, read
    # as a new meld is: a run in written order, else a set, else any run), so
    # a swap gives exactly the card a joker stands for there, and a set's
    # joker follows jokers.set_swap (voleur_002: both missing cards free a
    # three-card set's joker).
    res = swap_positional(old.reading, given, rules.melds, set_any=rules.set_swap_any)
    if isinstance(res, str):
        raise RuleError("joker_swap_forbidden", Reason("meld_reason", meld=a.meld, reason=res))
    reading, joker = res
    old_table = list(s.table)
    s.table[a.meld] = TableMeld(reading, old.owner)
    hand.append(joker)
    if rules.freed_joker_same_turn:
        s.jokers_to_replay.append(joker)
    _finish_lay(rules, s, a, old_table, given)


def _rearrange(rules: Rules, s: GameState, a: A.Rearrange) -> None:
    seat = a.seat
    gate_rearrange(rules, s, seat)
    old_cards = [c for m in s.table for c in m.cards]
    new_faces = Counter(c.face for m in a.melds for c in m)
    old_faces = Counter(c.face for c in old_cards)
    added = new_faces - old_faces
    lost = old_faces - new_faces
    hand = s.hands[seat]
    from_hand = _take_from_hand(
        hand, [Card(r, su, 0) for (r, su), k in sorted(added.items()) for _ in range(k)], _owed_first(s)
    )
    check_rearrange_opened(rules, s, seat)
    if lost:
        names = " ".join(format_card(Card(r, su, 0)) for (r, su), k in sorted(lost.items()) for _ in range(k))
        raise RuleError("table_invalid", Reason("table_loses", cards=names))
    pool: dict[tuple[int, int], list[Card]] = {}
    for c in old_cards + from_hand:
        pool.setdefault(c.face, []).append(c)
    readings: list[Reading] = []
    for i, m in enumerate(a.melds):
        cards = [pool[c.face].pop(0) for c in m]
        r = read_meld(cards, rules.melds) if cards else None
        if r is None:
            raise RuleError(
                "table_invalid",
                Reason(
                    "new_meld_reason",
                    meld=i,
                    reason=why_invalid(cards, rules.melds) if cards else Reason("empty_meld"),
                ),
            )
        readings.append(r)
    if not from_hand:
        raise RuleError("no_card_from_hand", Reason("add_from_hand"))
    old_owner: dict[tuple[tuple[int, int], ...], int | None] = {}
    for tm in s.table:
        old_owner.setdefault(tuple(sorted(c.face for c in tm.cards)), tm.owner)
    old_table = list(s.table)
    s.table = [TableMeld(r, old_owner.get(tuple(sorted(c.face for c in r.cards)), seat)) for r in readings]
    _finish_lay(rules, s, a, old_table, from_hand)


# ------------------------------------------------------------------ end of turn


def discard(rules: Rules, s: GameState, a: A.Discard, house_rules: bool = True) -> None:
    card = _discard_checks(rules, s, a, house_rules)
    s.discard.append(card)
    if not s.hands[a.seat]:
        finish_round(rules, s, a.seat, OUT)
        return
    _next_turn(rules, s)


def discard_refusal(rules: Rules, s: GameState, a: A.Discard) -> RuleError | None:
    """The engine's verdict on a discard now (None: accepted), `s` left as it
    was: the very checks of the discard handler, judged in place with the card
    taken out of the hand and put back, not on a copy of the whole state (the
    legal moves ask it of every face in the hand, at every lay step). What
    follows the checks (the pile, the next turn, the round's end) refuses
    nothing."""
    try:
        gate_discard(rules, s, a.seat)
    except RuleError as e:
        return e
    return discard_card_refusal(rules, s, a)


def discard_card_refusal(rules: Rules, s: GameState, a: A.Discard) -> RuleError | None:
    """`discard_refusal` once the kind's gate (``gate_discard``, the turn,
    the phase, the profile's switch) has let `a.seat` through in `s`: the
    checks on the card alone, in place (the legal moves run the gate once
    per state, then this per face of the hand)."""
    hand = s.hands[a.seat]
    held = list(hand)
    try:
        _discard_card_checks(rules, s, a, True)
    except RuleError as e:
        return e
    finally:
        hand[:] = held
    return None


def discards_unchecked(rules: Rules, s: GameState) -> bool:
    """Every card the seat to play holds passes `discard_card_refusal` in
    `s` (once the kind's gate has let it through), because each check on a
    card is vacuous: no joker freed this turn is owed to the table, the card
    taken from the discard pile (if any) may be thrown back and need not be
    laid, and no plugin judges discards. The legal moves then list every
    face held without asking the checks card by card (a random policy's
    every lay step asks them of the whole hand)."""
    if s.jokers_to_replay or rules.hooks.has("rami_discard_allowed"):
        return False
    return s.taken_discard is None or (rules.throw_back and not rules.taken_discard_must_be_laid)


def _discard_checks(rules: Rules, s: GameState, a: A.Discard, house_rules: bool) -> Card:
    """Every rule a discard must pass, in the order of the error codes; the
    card is taken out of the hand first (the last checks and the plugins see
    the hand without it). Returns the card taken."""
    gate_discard(rules, s, a.seat)
    return _discard_card_checks(rules, s, a, house_rules)


def _discard_card_checks(rules: Rules, s: GameState, a: A.Discard, house_rules: bool) -> Card:
    """The checks of `_discard_checks` after the kind's gate, in their order."""
    hand = s.hands[a.seat]
    card = _take_one(hand, a.card, _owed_first(s))
    if s.jokers_to_replay and card in s.jokers_to_replay:
        raise RuleError(
            "joker_not_reused",
            Reason("joker_back_discard"),
        )
    if rules.taken_discard_must_be_laid and card == s.taken_discard:
        raise RuleError("discard_not_laid", Reason("lay_taken"))
    if house_rules and rules.throw_back_forbidden(s, card):
        raise RuleError(
            "discard_forbidden",
            Reason("throw_back", card=format_card(card)),
        )
    check_turn_may_end(rules, s)
    if house_rules:
        rules.hooks.refuse_if("rami_discard_allowed", rules=rules, state=s, seat=a.seat, card=card)
    return card


def end_turn(rules: Rules, s: GameState, a: A.EndTurn) -> None:
    gate_end_turn(rules, s, a.seat)
    check_turn_may_end(rules, s)
    _next_turn(rules, s)


def _next_turn(rules: Rules, s: GameState) -> None:
    seat = s.turn
    s.laid_before[seat] = s.laid_before[seat] or s.laid_this_turn
    s.turns_played += 1
    if s.stock_exhausted:
        finish_round(rules, s, None, round_over_on_empty_stock(rules))
        return
    if rules.end_on_empty_stock and not s.stock:
        from rami_core.referee.scoring import EMPTY_ALL_PAY

        finish_round(rules, s, None, EMPTY_ALL_PAY)
        return
    s.turn = (seat + 1) % rules.players
    s.phase = DRAW
    s.drew_from = None
    s.taken_discard = None
    s.laid_this_turn = False
    s.opened_this_turn = False
    s.jokers_to_replay = []


def play_on(rules: Rules, state: GameState, action: A.Action) -> GameState:
    """The state after a player's action, on a copy: `state` is never changed.
    Raises RuleError if the action is illegal. The one place a move is played
    on a copy: `Game.apply` commits what it returns, the bots'
    `try_action` and `legal.verdict` catch its refusal. (Timeouts need the
    game's turn history: `Game.played`.)"""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not a player's action: {action!r}")
    new = state.copy()
    handler(rules, new, action)
    return new


_HANDLERS: dict[type, Callable[[Rules, GameState, Any], None]] = {
    A.Draw: draw,
    A.Meld: _meld,
    A.LayOff: _lay_off,
    A.Swap: _swap,
    A.Rearrange: _rearrange,
    A.Discard: discard,
    A.EndTurn: end_turn,
}


__all__ = [
    "check_joker_departures",
    "check_meld_group",
    "check_opening",
    "discard",
    "discard_card_refusal",
    "discard_refusal",
    "discards_unchecked",
    "draw",
    "end_turn",
    "play_on",
]
