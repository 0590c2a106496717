"""The greedy bot, and the planning helpers every bundled bot shares.

Greedy lays as soon and as much as it may: it opens with the largest opening
the solver finds, then every turn lays the most cards it can (new melds, lay
offs at the melds' ends or missing suits, a joker swap when the freed joker
can go straight back down), keeps a card to discard where the round must end
with one, and discards its worst card: the one least useful to its hand, the
highest in value among those. It takes the discard top only when that card
makes a meld with its hand or fits a table meld it may lay off on.

Every action a bot returns is checked first by the engine itself on a state
rebuilt from the view (``base.play``), and a lay is only chosen as part of a
whole turn that can end (the cards laid, then a legal discard or end of
turn), so a bot never paints itself into a turn it cannot finish.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

from .. import actions as A
from ..cards import JOKER, JOKER_SUIT, Card, card_points
from ..engine import DISCARD, STOCK, may_lay_freely
from ..melds import AMBIGUOUS, SET, lay_off_positional, read_meld
from ..profile import JokerSwap
from ..rules import Rules
from ..solver import best_lay_offs, best_opening, solve
from ..state import DRAW, LAY, OVER, GameState
from ..views import SeatView
from .base import play, register_bot, state_from_view

# Search states the solver may spend on a whole-table rearrangement: a count,
# not seconds, so that a seeded game plays the same on any machine under any
# load. Below the solver's LP_BUDGET: greedy never pays for the LP path, and a
# rebuild too hard for this falls back on hand melds and lay offs.
REARRANGE_STATES = 2000
MAX_PLAN_STEPS = 8  # lay actions one turn may chain (each lays at least one hand card)


# --------------------------------------------------------------------------- small helpers


def without(cards: Sequence[Card], remove: Iterable[Card]) -> list[Card]:
    """`cards` minus one copy of each face in `remove`."""
    out = list(cards)
    for r in remove:
        for i in range(len(out) - 1, -1, -1):
            if out[i].face == r.face:
                del out[i]
                break
    return out


def run_actions(rules: Rules, s: GameState, actions: Sequence[A.Action]) -> GameState | None:
    """The state after every action in turn, or None if the engine refuses one."""
    for a in actions:
        after = play(rules, s, a)
        if after is None:
            return None
        s = after
    return s


def value(rules: Rules, c: Card) -> int:
    p = rules.profile
    return card_points(c, ace=p.scoring.ace_points, court=p.scoring.court_points, joker=p.jokers.penalty)


def score_args(rules: Rules) -> dict:
    sc = rules.profile.scoring
    return {"ace": sc.ace_points, "ace_low": sc.ace_low_points, "court": sc.court_points}


def usefulness(card: Card, hand: Sequence[Card], dead: Counter | None = None) -> int:
    """How much `card` helps toward melds with the rest of `hand` (jokers: a lot).
    `dead`: faces out of play (on the table or buried in the discard pile), which
    make a partial meld needing them less promising."""
    if card.is_joker:
        return 100
    score = 0
    seen_self = False
    for o in hand:
        if o.is_joker:
            score += 1
            continue
        if o.face == card.face:
            if not seen_self:
                seen_self = True
                continue
            score += 1  # a duplicate: a spare for a run or a second set
            continue
        if o.rank == card.rank:
            score += 4
        elif o.suit == card.suit:
            d = abs(o.rank - card.rank)
            if card.rank == 1 or o.rank == 1:
                d = min(d, 14 - max(o.rank, card.rank))
            if d == 1:
                score += 4
            elif d == 2:
                gap = (min(o.rank, card.rank) + 1, card.suit)
                score += 1 if dead is not None and dead[gap] >= 2 else 3
    return score


_MELDABLE_TABLES: dict = {}


def _meldable_tables(meld_rules):
    """Per meld rules: each rank's run places as a bit mask, and every run window's mask."""
    t = _MELDABLE_TABLES.get(meld_rules)
    if t is None:
        place_bits = [0] * 14
        for r in range(1, 14):
            for p in meld_rules.places_of(r):
                place_bits[r] |= 1 << p
        L = meld_rules.run_min
        lo_b, hi_b = (1, 27) if meld_rules.wrap else (meld_rules.low_bound, meld_rules.high_bound)
        windows = tuple(((1 << L) - 1) << lo for lo in range(lo_b, hi_b - L + 2))
        t = _MELDABLE_TABLES[meld_rules] = (place_bits, windows, {})
    return t


_MELDABLE_MEMO: dict = {}


def meldable(
    hand: Sequence[Card], meld_rules, *, runs: bool = True, sets: bool = True, jokers_ok: bool = True
) -> set[Card]:
    """Faces of `hand` that take part in at least one meld buildable from `hand`
    (jokers included when any natural is): a cheap filter run before the solver,
    which most turns need not be asked at all. Runs are found with one bit
    mask of places per suit, sets with one bit mask of suits per rank; a turn
    asks about the same hand several times, so answers are remembered."""
    key = (meld_rules, runs, sets, jokers_ok, tuple(hand))
    hit = _MELDABLE_MEMO.get(key)
    if hit is None:
        if len(_MELDABLE_MEMO) >= 2048:
            _MELDABLE_MEMO.clear()
        hit = _MELDABLE_MEMO[key] = frozenset(_meldable(hand, meld_rules, runs, sets, jokers_ok))
    return set(hit)


def _meldable(hand: Sequence[Card], meld_rules, runs: bool, sets: bool, jokers_ok: bool) -> set[Card]:
    place_bits, windows, run_memo = _meldable_tables(meld_rules)
    jokers = 0
    suit_places: dict[int, int] = {}
    rank_suits: dict[int, int] = {}
    rank_count: dict[int, int] = {}
    for c in hand:
        s = c.suit
        if s == JOKER_SUIT:
            jokers += 1
            continue
        r = c.rank
        rank_suits[r] = rank_suits.get(r, 0) | (1 << s)
        rank_count[r] = rank_count.get(r, 0) + 1
        suit_places[s] = suit_places.get(s, 0) | place_bits[r]
    if not jokers_ok:
        jokers = 0
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    out: set[Card] = set()
    min_nat = max(1, meld_rules.min_naturals)
    if sets:
        need_set = max(meld_rules.set_min, meld_rules.min_naturals)
        distinct = meld_rules.set_distinct_suits
        for r, suits in rank_suits.items():
            n = suits.bit_count() if distinct else rank_count[r]
            if n >= min_nat and n + jokers >= need_set:
                out.update(Card(r, s, 0) for s in range(4) if suits >> s & 1)
    if runs:
        L = meld_rules.run_min
        wrap = meld_rules.wrap
        for suit, places in suit_places.items():
            got = run_memo.get((places, jokers))
            if got is None:
                have = (places | places << 13 | places >> 13) if wrap else places
                got = 0
                if have.bit_count() >= min_nat:
                    for w in windows:
                        k = (have & w).bit_count()
                        if k >= min_nat and L - k <= jokers:
                            got |= have & w
                if len(run_memo) >= 1 << 16:
                    run_memo.clear()
                run_memo[(places, jokers)] = got
            while got:
                low = got & -got
                p = low.bit_length() - 1
                out.add(Card((p - 1) % 13 + 1, suit, 0))
                got ^= low
    if out and jokers:
        out.add(JOKER)
    return out


def fits_table(c: Card, s: GameState, rules: Rules) -> bool:
    """`c` alone could be laid off on some table meld."""
    for m in s.table:
        if not could_take(m.cards, c):
            continue
        if rules.profile.positional_jokers:
            res = lay_off_positional(
                m.reading,
                [] if c.is_joker else [c],
                [(c, None)] if c.is_joker else [],
                rules.melds,
            )
            if not isinstance(res, str):
                return True
        elif read_meld(list(m.cards) + [c], rules.melds) is not None:
            return True
    return False


def could_take(cards: Sequence[Card], c: Card) -> bool:
    """False when `c` surely fits no meld with `cards`: a natural whose suit and
    rank both differ from some natural there (a run's naturals share a suit, a
    set's a rank). A cheap test before the meld readers."""
    if c.is_joker:
        return True
    suit, rank = c.suit, c.rank
    same_suit = same_rank = True
    for o in cards:
        if o.is_joker:
            continue
        if o.suit != suit:
            same_suit = False
        if o.rank != rank:
            same_rank = False
        if not (same_suit or same_rank):
            return False
    return True


def opening_spec(rules: Rules, s: GameState, seat: int):
    """What `best_opening` must meet for this seat now."""
    op = rules.profile.opening
    partner = rules.teams and not s.opened[seat] and any(s.opened[q] for q in rules.partners(seat))
    if partner:
        from ..profile import PartnerOpening

        pure = rules.profile.teams.partner_opening == PartnerOpening.pure_run
        return SimpleNamespace(
            points=0, pure_run=pure, run_and_set=op.run_and_set if op.all_at_once else False, jokers=True
        )
    return op


def end_actions(rules: Rules, s: GameState, seat: int, order: Sequence[Card]) -> list[A.Action]:
    """The ways to end the turn, in the order to prefer them."""
    if not rules.profile.discard.enabled:
        return [A.EndTurn(seat)]
    seen = set()
    out: list[A.Action] = []
    for c in order:
        f = c.face_card
        if f in seen:
            continue
        seen.add(f)
        out.append(A.Discard(seat, f))
    return out


def cards_laid(actions: Sequence[A.Action]) -> int:
    n = 0
    for a in actions:
        if isinstance(a, A.Meld):
            n += sum(len(m) for m in a.melds)
        elif isinstance(a, A.LayOff):
            n += len(a.items)
        elif isinstance(a, A.Rearrange):
            n += 1
    return n


def first_legal_end(rules: Rules, s: GameState, seat: int, order: Sequence[Card]) -> A.Action | None:
    for a in end_actions(rules, s, seat, order):
        if play(rules, s, a) is not None:
            return a
    return None


# --------------------------------------------------------------------------- lay planning


def top_points(rules: Rules, c: Card) -> int:
    """The most `c` can count for in an opening meld (``meld_points``: a joker
    at the face it stands for, an ace high or low)."""
    sc = rules.profile.scoring
    if c.is_joker:
        return max(sc.ace_points, sc.ace_low_points, sc.court_points, 10)
    if c.rank == 1:
        return max(sc.ace_points, sc.ace_low_points)
    if c.rank >= 11:
        return sc.court_points
    return c.rank


def opening_may_exist(rules: Rules, spec, hand: Sequence[Card]) -> tuple[bool, bool]:
    """Necessary conditions, cheap, for ``best_opening(hand, ..., spec)``:
    (an opening meeting the spec's points may exist, a going out below the
    points laying the whole hand may exist). False means surely none: the
    cards that take part in some meld allowed by the spec (its jokers rule)
    must hold a run and a set where both are needed, a joker-free run where
    one is, and be worth the points at their most; going out needs every
    card of the hand in such a meld."""
    meld_rules = rules.melds
    jokers_ok = bool(getattr(spec, "jokers", True))
    can = meldable(hand, meld_rules, jokers_ok=jokers_ok)
    if not can:
        return False, False
    if getattr(spec, "pure_run", False) and not meldable(hand, meld_rules, sets=False, jokers_ok=False):
        return False, False
    if getattr(spec, "run_and_set", False) and not (
        meldable(hand, meld_rules, sets=False, jokers_ok=jokers_ok)
        and meldable(hand, meld_rules, runs=False, jokers_ok=jokers_ok)
    ):
        return False, False
    need = getattr(spec, "points", 0) or 0
    reach = not need or sum(top_points(rules, c) for c in hand if c.face_card in can) >= need
    go_out = all(c.face_card in can for c in hand)
    return reach, go_out


def opening_actions(rules: Rules, s: GameState, seat: int, hand: Sequence[Card]) -> list[list[A.Action]]:
    """Candidate openings (each a list of actions) from `hand`, largest first."""
    spec = opening_spec(rules, s, seat)
    meld_rules = rules.melds
    out: list[list[A.Action]] = []
    can = meldable(hand, meld_rules)
    if not can:
        return out
    if not getattr(spec, "jokers", True):
        can.discard(JOKER)
        if not meldable(hand, meld_rules, jokers_ok=False):
            return out
    if getattr(spec, "pure_run", False) and not meldable(hand, meld_rules, sets=False, jokers_ok=False):
        return out
    if getattr(spec, "run_and_set", False) and not (
        meldable(hand, meld_rules, sets=False) and meldable(hand, meld_rules, runs=False)
    ):
        return out
    go_out = rules.profile.opening.go_out_below_points or rules.profile.opening.all_at_once
    need = getattr(spec, "points", 0)
    if need and not go_out:
        top = sum(
            11 if c.is_joker else min(10, c.rank) if c.rank != 1 else 11 for c in hand if c.face_card in can
        )
        if top < need:
            return out
    if rules.profile.opening.all_at_once and len([c for c in hand if c.face_card in can]) < len(hand) - 1:
        return out

    def meld(melds) -> list[A.Action]:
        return [A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))]

    if rules.profile.opening.all_at_once:
        need = len(hand) - (1 if rules.profile.discard.keep_last else 0)
        melds = best_opening(hand, meld_rules, spec, score=score_args(rules))
        laid = sum(len(m) for m in melds) if melds else 0
        if laid == need:
            out.append(meld(melds))
        elif laid > need:
            for c in dict.fromkeys(c.face_card for c in hand):
                melds = best_opening(without(hand, [c]), meld_rules, spec, score=score_args(rules))
                if melds and sum(len(m) for m in melds) == need:
                    out.append(meld(melds))
                    break
        return out
    reach, go_out_ok = opening_may_exist(rules, spec, hand)
    melds = best_opening(hand, meld_rules, spec, score=score_args(rules)) if reach else None
    if melds:
        out.append(meld(melds))
    if rules.profile.opening.go_out_below_points and bool(getattr(spec, "points", 0)) and go_out_ok:
        low = SimpleNamespace(
            points=0, pure_run=spec.pure_run, run_and_set=spec.run_and_set, jokers=spec.jokers
        )
        melds = best_opening(hand, meld_rules, low, score=score_args(rules))
        if melds and sum(len(m) for m in melds) == len(hand):
            out.append([A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))])
    return out


def layoff_actions(rules: Rules, s: GameState, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    """The most cards laid from `hand` where table melds keep their places:
    one lay off action (every meld at once) and one meld action."""
    readings = [m.reading for m in s.table]
    if meldable(hand, rules.melds):
        plan = best_lay_offs(readings, list(hand), rules.melds)
    else:
        plan = best_lay_offs(readings, list(hand), rules.melds, new_melds=False)
    acts: list[A.Action] = []
    items = []
    for idx, nats, joks in plan.lay_offs:
        for c in nats:
            items.append(A.LayOffItem(c.face_card, idx))
        for _j, f in joks:
            as_ = (
                Card(f[0], f[1], 0)
                if f is not None and f[1] not in (AMBIGUOUS, JOKER_SUIT) and f[1] >= 0
                else None
            )
            items.append(A.LayOffItem(JOKER, idx, as_))
    if items:
        acts.append(A.LayOff(seat, tuple(items)))
    if plan.new_melds:
        acts.append(A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in plan.new_melds)))
    return acts


def simple_layoffs(rules: Rules, s: GameState, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    """Single-card lay offs judged as a multiset (a table that may be rearranged),
    as many as fit, one meld after another."""
    meld_rules = rules.melds
    table = [list(m.cards) for m in s.table]
    items = []
    left = list(hand)
    for i, m in enumerate(table):
        for c in sorted(left, key=lambda c: (c.is_joker, -c.rank)):
            if read_meld(m + [c], meld_rules) is not None:
                m.append(c)
                items.append(A.LayOffItem(c.face_card, i))
                left = without(left, [c])
    return [A.LayOff(seat, tuple(items))] if items else []


def hand_meld_actions(rules: Rules, seat: int, hand: Sequence[Card]) -> list[A.Action]:
    sol = solve([], list(hand), rules.melds)
    if not sol.melds:
        return []
    return [A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in sol.melds))]


def swap_candidates(rules: Rules, s: GameState, seat: int) -> list[A.Swap]:
    """Joker swaps the seat's hand can make (cards it holds for a table joker)."""
    if rules.profile.jokers.swap != JokerSwap.to_hand:
        return []
    held = Counter(c.face_card for c in s.hands[seat])
    out: list[A.Swap] = []
    for i, m in enumerate(s.table):
        r = m.reading
        if not r.jokers:
            continue
        for c, st in zip(r.cards, r.stands):
            if c.is_joker and st[1] not in (AMBIGUOUS,) and 0 <= st[1] < 4 and held[Card(st[0], st[1], 0)]:
                out.append(A.Swap(seat, (Card(st[0], st[1], 0),), i))
        if r.kind == SET and len(r.cards) == 3 and r.jokers == 1:
            suits = {c.suit for c in r.cards if not c.is_joker}
            missing = [Card(r.rank, su, 0) for su in range(4) if su not in suits]
            if all(held[f] for f in missing):
                out.append(A.Swap(seat, tuple(missing), i))
            elif r.kind == SET:
                out.extend(A.Swap(seat, (f,), i) for f in missing if held[f])
    return list(dict.fromkeys(out))


@dataclass
class Planner:
    """Builds a whole turn: lays, then the end of the turn. Subclasses (expert)
    change how lays are chosen and which card goes."""

    rules: Rules
    _refused: bool = False
    rearrange_states: ClassVar[int | None] = REARRANGE_STATES

    # ---- what to lay from a state, one step

    def lay_step(self, s: GameState, seat: int, hand: Sequence[Card]) -> list[list[A.Action]]:
        """Candidate next lays (each a short list of actions), best first, using
        only the cards of `hand` (the seat's hand minus a card held back)."""
        rules = self.rules
        p = rules.profile
        if not hand:
            return []
        if self.nothing_to_lay(s, seat, hand):
            return []
        if not may_lay_freely(rules, s, seat) or (p.opening.all_at_once and p.opening.required):
            return opening_actions(rules, s, seat, hand)
        out: list[list[A.Action]] = []
        if p.table.rearrange:
            # Where the whole table may be rebuilt, laying "as much as it may"
            # means the solver's rebuild (the most cards, then points): without
            # it even the random bot's one-card rebuilds outplay hand melds and
            # lay offs.
            if s.table:
                sol = self.rearrangement(s, hand)
                if sol is not None:
                    out.append([sol(seat)])
            acts = hand_meld_actions(rules, seat, hand)
            if acts:
                out.append(acts)
            acts = simple_layoffs(rules, s, seat, hand)
            if acts:
                out.append(acts)
            return out
        acts = (
            layoff_actions(rules, s, seat, hand) if p.table.lay_off else hand_meld_actions(rules, seat, hand)
        )
        if acts:
            out.append(acts)
        return out

    def nothing_to_lay(self, s: GameState, seat: int, hand: Sequence[Card]) -> bool:
        """Cheap proof that no lay exists (most turns): no meld in the hand and,
        for a seat that may lay off, no card that fits a table meld alone."""
        if meldable(hand, self.rules.melds):
            return False
        p = self.rules.profile
        if s.table and may_lay_freely(self.rules, s, seat) and (p.table.lay_off or p.table.rearrange):
            if p.table.rearrange:
                return False
            return not any(fits_table(c, s, self.rules) for c in dict.fromkeys(c.face_card for c in hand))
        return True

    def rearrangement(self, s: GameState, hand: Sequence[Card]):
        sol = solve(
            [list(m.cards) for m in s.table],
            list(hand),
            self.rules.melds,
            points=self.rules.profile,
            max_states=self.rearrange_states,
        )
        if not sol.feasible or not sol.laid:
            return None
        melds = tuple(tuple(c.face_card for c in m) for m in sol.melds)
        return lambda seat: A.Rearrange(seat, melds)

    def swaps(self, s: GameState, seat: int) -> list[list[A.Action]]:
        """Swaps worth making: the freed joker goes back down in the same plan."""
        out = []
        for sw in swap_candidates(self.rules, s, seat):
            s2 = play(self.rules, s, sw)
            if s2 is None:
                continue
            for lay in self.lay_step(s2, seat, s2.hands[seat]):
                s3 = run_actions(self.rules, s2, lay)
                if (
                    s3 is not None
                    and not s3.jokers_to_replay
                    and s3.hands[seat].count(JOKER) < s2.hands[seat].count(JOKER)
                ):
                    out.append([sw] + lay)
                    break
        return out

    # ---- the whole turn

    def lays(self, s: GameState, seat: int, reserve: Card | None) -> tuple[list[A.Action], GameState]:
        """Chain lay steps from `s` while they lay cards; `reserve`: a card never laid."""
        done: list[A.Action] = []
        for _ in range(MAX_PLAN_STEPS):
            if s.phase != LAY:
                break
            hand = s.hands[seat]
            usable = without(hand, [reserve]) if reserve is not None else list(hand)
            options = (
                self.swaps(s, seat) + self.lay_step(s, seat, usable)
                if s.table
                else self.lay_step(s, seat, usable)
            )
            progressed = False
            for acts in options:
                for k in range(len(acts), 0, -1):  # the whole option, else its longest legal prefix
                    s2 = run_actions(self.rules, s, acts[:k])
                    if s2 is None:
                        if cards_laid(acts[:k]) >= len(hand):
                            self._refused = True  # it would empty the hand: hold a card back
                        continue
                    if s2.phase == OVER or len(s2.hands[seat]) < len(hand):
                        done += acts[:k]
                        s = s2
                        progressed = True
                    break
                if progressed:
                    break
            if not progressed:
                break
        return done, s

    def end_order(self, s: GameState, seat: int) -> list[Card]:
        return self.discard_order(s, seat) if self.rules.profile.discard.enabled else list(s.hands[seat])

    def discard_order(self, s: GameState, seat: int) -> list[Card]:
        """Cards to discard, best first: least useful, then highest value; the
        card just taken from the discard pile last (it was taken to be kept:
        throwing it back would pass one card to and fro for ever)."""
        hand = s.hands[seat]
        taken = s.taken_discard.face if s.taken_discard is not None else None
        keys: dict = {}
        sign = 1 if self.needs_points(s, seat) else -1

        def key(c: Card) -> tuple:
            f = c.face
            k = keys.get(f)
            if k is None:
                k = keys[f] = (
                    f == taken,
                    c.is_joker,
                    usefulness(c, hand),
                    sign * value(self.rules, c),
                )
            return k

        return sorted(hand, key=key)

    def needs_points(self, s: GameState, seat: int) -> bool:
        """Whether this seat still has to open with a points minimum: then high
        cards are what it collects, and the low ones go first (after opening,
        the costly ones go first)."""
        return not s.opened[seat] and bool(getattr(opening_spec(self.rules, s, seat), "points", 0))

    def reserve_order(self, s: GameState, seat: int) -> list[Card | None]:
        """Which card to hold back so the turn can end with a discard."""
        return [None] + list(dict.fromkeys(c.face_card for c in self.discard_order(s, seat)))[:6]

    def want_lays(self, s: GameState, seat: int, lays: list[A.Action], after: GameState) -> bool:
        """Whether to lay at all this turn (greedy: always)."""
        return True

    def plan(self, s: GameState, seat: int) -> list[A.Action]:
        """A whole legal turn from the lay phase: lays, then the end."""
        rules = self.rules
        best: list[A.Action] | None = None
        best_left = 10**6
        for reserve in self.reserve_order(s, seat):
            self._refused = False
            lays, after = self.lays(s, seat, reserve)
            if lays and not self.want_lays(s, seat, lays, after):
                lays, after = [], s
            if after.phase == OVER:
                return lays
            end = first_legal_end(rules, after, seat, self.end_order(after, seat))
            if end is not None:
                left = len(after.hands[seat])
                if left < best_left:
                    best, best_left = lays + [end], left
                if left <= 1 or not (
                    rules.profile.discard.keep_last and (self._refused or reserve is not None)
                ):
                    break
            elif not rules.profile.discard.keep_last:
                continue
        if best is not None:
            return best
        # Nothing lays and ends: end as the hand stands if possible.
        end = first_legal_end(rules, s, seat, self.end_order(s, seat))
        return [end] if end is not None else []


# --------------------------------------------------------------------------- the bot


class PlanningBot:
    """A bot that plans its turn when it has drawn and plays the plan out,
    replanning whenever the view is not the one the plan expected."""

    name = "planning"
    planner_class: type[Planner] = Planner

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._plan: list[A.Action] = []
        self._expect: tuple | None = None
        self._planner: Planner | None = None

    def planner(self, rules: Rules) -> Planner:
        if self._planner is None or self._planner.rules is not rules:
            self._planner = self.planner_class(rules)
        return self._planner

    @staticmethod
    def fingerprint(s: GameState, seat: int) -> tuple:
        return (
            s.round_no,
            s.turn,
            s.phase,
            tuple(sorted(c.face_card for c in s.hands[seat])),
            tuple(tuple(c.face_card for c in m.cards) for m in s.table),
            len(s.discard),
            len(s.stock),
        )

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        s = state_from_view(view)
        seat = view.seat
        if s.phase == DRAW:
            self._plan = []
            return self.draw(view, rules, s)
        if self._plan and self._expect == self.fingerprint(s, seat):
            action = self._plan.pop(0)
        else:
            self._plan = self.planner(rules).plan(s, seat)
            if not self._plan:
                return A.Timeout(seat)
            action = self._plan.pop(0)
        after = play(rules, s, action)
        if after is None:  # cannot happen for a checked plan; replan from scratch next time
            self._plan = []
            return A.Timeout(seat)
        self._expect = self.fingerprint(after, seat) if self._plan else None
        return action

    # ---- drawing

    def draw(self, view: SeatView, rules: Rules, s: GameState) -> A.Action:
        seat = view.seat
        top = view.discard_top
        if top is not None and rules.profile.draw.from_discard and self.wants_discard(view, rules, s, top):
            take = A.Draw(seat, DISCARD)
            s2 = play(rules, s, take)
            if s2 is not None and self.discard_draw_ok(rules, s2, seat):
                return take
        stock = A.Draw(seat, STOCK)
        if play(rules, s, stock) is not None:
            return stock
        take = A.Draw(seat, DISCARD)
        s2 = play(rules, s, take)
        if s2 is not None and self.discard_draw_ok(rules, s2, seat):
            return take
        return A.Timeout(seat)

    def discard_draw_ok(self, rules: Rules, s2: GameState, seat: int) -> bool:
        """After taking the discard: the turn can still end (the taken card laid where it must be,
        another card to discard where the taken one may not be thrown back)."""
        if not rules.profile.draw.taken_discard_must_be_laid and (
            rules.profile.discard.throw_back or first_legal_end(rules, s2, seat, s2.hands[seat])
        ):
            return True
        plan = self.planner(rules).plan(s2, seat)
        return bool(plan) and run_actions(rules, s2, plan) is not None

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        hand = list(view.hand)
        if top.is_joker:
            return True
        if (
            may_lay_freely(rules, s, view.seat)
            and rules.profile.table.lay_off
            and not rules.profile.opening.all_at_once
        ):
            for m in view.table:
                if could_take(m.cards, top) and read_meld(list(m.cards) + [top], rules.melds) is not None:
                    return True
        if top.face_card not in meldable(hand + [top], rules.melds):
            return False
        return top.face_card not in meldable(hand, rules.melds) or usefulness(top, hand) >= 8


class GreedyBot(PlanningBot):
    """Before it has opened, greedy never takes back from the discard pile a
    face it has discarded itself this round: two seats that have not opened
    would otherwise pass the same few cards to and fro for ever, each taking
    the other's discard and neither drawing a new card from the stock."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self._thrown: set[Card] = set()
        self._round: int | None = None

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        if view.round_no != self._round:
            self._round = view.round_no
            self._thrown = set()
        action = super().choose(view, rules)
        if isinstance(action, A.Discard):
            self._thrown.add(action.card.face_card)
        return action

    def wants_discard(self, view: SeatView, rules: Rules, s: GameState, top: Card) -> bool:
        if top.face_card in self._thrown and not may_lay_freely(rules, s, view.seat):
            return False
        return super().wants_discard(view, rules, s, top)


register_bot("greedy", GreedyBot)
