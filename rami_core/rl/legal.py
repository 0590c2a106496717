"""Which sub-steps the engine accepts now: the action mask, asked of the engine.

A sub-step that is a whole engine action (a draw, a lay off, a swap, a
discard, the end of the turn, a commit of the draft) is legal exactly when
the engine plays it on a copy of the state without refusing. A sub-step that
only builds the draft (add a card, close a group) is legal exactly when some
engine action can still follow from the draft it leaves: the search below
lists candidate actions and asks the engine about each, so the rules are
never re-derived here. Candidates are complete because every meld the
engine reads is a run (naturals of one suit) or a set (naturals of one rank)
with jokers; skipping candidates the engine refuses at its first check
(a face not in the hand, a swap on a meld without a joker) only saves time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from .. import actions as A
from ..cards import Card
from ..engine import DISCARD, STOCK, Game, play_on
from ..errors import RuleError
from ..melds import RUN, rank_at, read_meld
from ..solver import solve
from ..state import DRAW, LAY, OVER
from .draft import Draft, Group
from .faces import JOKER_INDEX, face_card, face_index
from .layout import (
    ADD_JOKER_LOW,
    CLOSE_GROUP,
    COMMIT_MELD,
    COMMIT_REARRANGE,
    DRAW_DISCARD,
    DRAW_STOCK,
    END_TURN,
    TIMEOUT,
    ActionLayout,
    SubStep,
)

# The solver's search limit for a rebuild of the table: a count of search
# states, not seconds, so that a seed replays the same masks on any machine.
REARRANGE_STATES = 4000
# Verdicts asked per draft question before listing every accepted lay of the state.
QUICK_VERDICTS = 8


class TurnOracle:
    """Masks and engine actions for the seat whose turn it is, cached per state."""

    def __init__(self, game: Game, layout: ActionLayout):
        self.game = game
        self.layout = layout
        self._key: tuple[int, int] | None = None
        self._base: np.ndarray | None = None
        self._candidates: list[Group] | None = None
        self._accepted: list[tuple[Counter[Group], list[Group]]] | None = None
        self._verdicts: dict[tuple, bool] = {}
        self._reach: dict[tuple, bool] = {}
        self._swaps: list[tuple[Counter[int], int]] | None = None
        self._rearrange_open: bool | None = None

    # ------------------------------------------------------------ engine questions

    def accepts(self, action: A.Action) -> bool:
        """The engine's verdict on `action` now, nothing changed."""
        if isinstance(action, A.Timeout):
            point = self.game.checkpoint()
            try:
                self.game.apply(action)
            except RuleError:
                return False
            finally:
                self.game.rollback(point)
            return True
        try:
            play_on(self.game.rules, self.game.state, action)
        except RuleError:
            return False
        return True

    def _refusal(self, action: A.Action) -> str | None:
        try:
            play_on(self.game.rules, self.game.state, action)
        except RuleError as e:
            return e.code
        return None

    # ------------------------------------------------------------ sub-step -> engine action

    def action_for(self, step: SubStep, draft: Draft) -> A.Action | None:
        """The engine action a sub-step plays, or None for a draft-only sub-step
        (or a commit the draft cannot make)."""
        s = self.game.state
        seat = s.turn
        k = step.kind
        if k == "draw_stock":
            return A.Draw(seat, STOCK)
        if k == "draw_discard":
            return A.Draw(seat, DISCARD)
        if k == "end_turn":
            return A.EndTurn(seat)
        if k == "timeout":
            return A.Timeout(seat)
        if k == "discard":
            return A.Discard(seat, face_card(step.face))
        if k == "lay_off":
            return A.LayOff(seat, (A.LayOffItem(face_card(step.face), step.slot),))
        if k == "lay_off_joker_low":
            if step.slot >= len(s.table) or s.table[step.slot].reading.kind != RUN:
                return None
            r = s.table[step.slot].reading
            below = Card(rank_at(r.start - 1), r.suit, 0)
            return A.LayOff(seat, (A.LayOffItem(face_card(JOKER_INDEX), step.slot, below),))
        if k == "swap":
            return A.Swap(seat, (face_card(step.face),), step.slot)
        if k == "swap_pending":
            if draft.closed or draft.current.low or not draft.current.size:
                return None
            return A.Swap(seat, draft.current.written(), step.slot)
        if k == "commit_meld":
            groups = draft.groups()
            if not groups:
                return None
            return A.Meld(seat, tuple(g.written() for g in groups))
        if k == "commit_rearrange":
            faces = draft.faces()
            if not faces:
                return None
            return self._rebuild(faces)
        return None

    def _rebuild(self, faces: Counter[int]) -> A.Rearrange | None:
        """The solver's arrangement of the table with these hand cards added, or None."""
        s = self.game.state
        cards = [face_card(f) for f, n in sorted(faces.items()) for _ in range(n)]
        table = [list(m.cards) for m in s.table]
        sol = solve([*table, cards], [], self.game.rules.melds, max_states=REARRANGE_STATES)
        if not sol.feasible or not sol.optimal:
            return None
        melds = tuple(tuple(Card(c.rank, c.suit, 0) for c in m) for m in sol.melds)
        return A.Rearrange(s.turn, melds)

    # ------------------------------------------------------------ the mask

    def _refresh(self) -> None:
        key = (id(self.game.state), len(self.game.log))
        if key == self._key:
            return
        self._key = key
        self._base = None
        self._verdicts = {}
        self._reach = {}
        self._swaps = None
        self._rearrange_open = None
        self._candidates = None
        self._accepted = None

    def mask(self, draft: Draft) -> np.ndarray:
        self._refresh()
        if self._base is None:
            self._base = self._engine_mask()
        m = self._base.copy()
        s = self.game.state
        if s.phase == LAY:
            self._draft_mask(draft, m)
        return m

    def _engine_mask(self) -> np.ndarray:
        """Sub-steps that are whole engine actions and do not depend on the draft."""
        L = self.layout
        m = np.zeros(L.size, dtype=np.int8)
        s = self.game.state
        if s.phase == OVER:
            return m
        seat = s.turn
        m[TIMEOUT] = self.accepts(A.Timeout(seat))
        if s.phase == DRAW:
            m[DRAW_STOCK] = self.accepts(A.Draw(seat, STOCK))
            m[DRAW_DISCARD] = self.accepts(A.Draw(seat, DISCARD))
            return m
        m[END_TURN] = self.accepts(A.EndTurn(seat))
        hand_faces = sorted({face_index(c) for c in s.hands[seat]})
        for f in hand_faces:
            card = face_card(f)
            m[L.discard_index(f)] = self.accepts(A.Discard(seat, card))
            for k in range(len(s.table)):
                m[L.lay_off_index(f, k)] = self.accepts(A.LayOff(seat, (A.LayOffItem(card, k),)))
        if JOKER_INDEX in hand_faces:
            for k in range(len(s.table)):
                a = self.action_for(SubStep("lay_off_joker_low", slot=k), Draft())
                m[L.joker_low_index(k)] = a is not None and self.accepts(a)
        for k, tm in enumerate(s.table):
            if tm.reading.jokers == 0:
                continue
            for f in hand_faces:
                if f != JOKER_INDEX:
                    m[L.swap_index(f, k)] = self.accepts(A.Swap(seat, (face_card(f),), k))
        return m

    def _draft_mask(self, draft: Draft, m: np.ndarray) -> None:
        L = self.layout
        s = self.game.state
        hand = _hand(s.hands[s.turn])
        avail = hand - draft.faces()
        for f in avail:
            m[L.add_index(f)] = self.reachable(Draft(draft.closed, draft.current.add(f)), hand)
        if avail[JOKER_INDEX]:
            m[ADD_JOKER_LOW] = self.reachable(
                Draft(draft.closed, draft.current.add(JOKER_INDEX, low=True)), hand
            )
        if draft.current.size:
            m[CLOSE_GROUP] = self._meld_reachable([*draft.closed, draft.current], Group(), hand)
        if not draft.empty:
            a = self.action_for(SubStep("commit_meld"), draft)
            m[COMMIT_MELD] = a is not None and self.accepts(a)
            if self._rearrange_possible():
                a = self.action_for(SubStep("commit_rearrange"), draft)
                m[COMMIT_REARRANGE] = a is not None and self.accepts(a)
            if not draft.closed and not draft.current.low:
                for k, tm in enumerate(s.table):
                    if tm.reading.jokers:
                        a = A.Swap(s.turn, draft.current.written(), k)
                        m[L.swap_pending_index(k)] = self.accepts(a)

    # ------------------------------------------------------------ can the draft still lead somewhere?

    def reachable(self, draft: Draft, hand: Counter[int]) -> bool:
        key = (tuple(draft.closed), draft.current)
        hit = self._reach.get(key)
        if hit is None:
            hit = (
                self._meld_reachable(draft.closed, draft.current, hand)
                or self._swap_reachable(draft)
                or self._rearrange_reachable(draft, hand)
            )
            self._reach[key] = hit
        return hit

    def _meld_verdict(self, groups: list[Group]) -> bool:
        key = tuple(sorted(groups))
        v = self._verdicts.get(key)
        if v is None:
            a = A.Meld(self.game.state.turn, tuple(g.written() for g in key))
            v = self.accepts(a)
            self._verdicts[key] = v
        return v

    def candidates(self, hand: Counter[int]) -> list[Group]:
        """Every group of the hand's faces that the engine reads as a meld."""
        if self._candidates is not None:
            return self._candidates
        mr = self.game.rules.melds
        jokers = hand[JOKER_INDEX]
        if mr.max_jokers is not None:
            jokers = min(jokers, mr.max_jokers)
        seen: set[Group] = set()
        out: list[Group] = []
        pools: list[list[int]] = []
        for suit in range(4):  # runs: naturals of one suit, one per rank
            pools.append([suit * 13 + r for r in range(13) if hand[suit * 13 + r]])
        for rank in range(13):  # sets: naturals of one rank, copies included
            pools.append([su * 13 + rank for su in range(4) for _ in range(hand[su * 13 + rank])])
        for pool in pools:
            for size in range(1, len(pool) + 1):
                for nat in set(combinations(pool, size)):
                    for j in range(jokers + 1):
                        for low in range(j + 1) if j else (0,):
                            g = Group(low, tuple(sorted(nat + (JOKER_INDEX,) * (j - low))))
                            r = read_meld(g.written(), mr)
                            if r is None:
                                continue
                            if g in seen:
                                continue
                            seen.add(g)
                            out.append(g)
        out.sort()
        self._candidates = out
        return out

    def accepted_melds(self, hand: Counter[int]) -> list[tuple[Counter[Group], list[Group]]]:
        """Every Meld action of candidate groups the hand can hold that the
        engine accepts (each combination asked once per state)."""
        if self._accepted is None:
            self._accepted = []
            if self._melds_possible():
                for combo in self._extensions([], hand, self.candidates(hand), 0):
                    if self._meld_verdict(combo):
                        self._accepted.append((Counter(combo), combo))
        return self._accepted

    def _meld_reachable(self, closed: list[Group], current: Group, hand: Counter[int]) -> bool:
        """Some accepted Meld action holds the closed groups as they are and
        a group that `current` can grow into. A quick look first (the
        smallest such lays, a few verdicts: after an opening nearly every
        lay is accepted), then every accepted lay of the state."""
        if self._quick_meld(closed, current, hand):
            return True
        need = Counter(closed)
        for counted, _combo in self.accepted_melds(hand):
            if any(counted[g] < n for g, n in need.items()):
                continue
            if not current.size:
                return True
            spare = counted - need
            if any(current.within(g) for g in spare):
                return True
        return False

    def _quick_meld(self, closed: list[Group], current: Group, hand: Counter[int]) -> bool:
        """The closed groups alone, or with one more candidate the current group grows into."""
        if not self._melds_possible():
            return False
        cands = self.candidates(hand)
        if any(g not in cands for g in closed):
            return False
        left = Counter(hand)
        for g in closed:
            left.subtract(g.faces())
        if any(n < 0 for n in left.values()):
            return False
        if not current.size:
            return bool(closed) and self._meld_verdict(list(closed))
        asked = 0
        for g in cands:
            if current.within(g) and _fits(g, left):
                if self._meld_verdict([*closed, g]):
                    return True
                asked += 1
                if asked >= QUICK_VERDICTS:
                    break
        return False

    def _extensions(
        self, base: list[Group], left: Counter[int], cands: list[Group], start: int
    ) -> Iterator[list[Group]]:
        """Every non-empty list of candidate melds (in candidate order) that the hand can hold."""
        need = [tuple(g.faces().items()) for g in cands]
        room = [0] * 54
        for f, n in left.items():
            room[f] = n
        fitting = [i for i in range(len(cands)) if all(room[f] >= n for f, n in need[i])]

        def walk(chosen: list[Group], fitting: list[int]) -> Iterator[list[Group]]:
            for pos, i in enumerate(fitting):
                for f, n in need[i]:
                    room[f] -= n
                now = [*chosen, cands[i]]
                yield now
                rest = [j for j in fitting[pos:] if all(room[f] >= n for f, n in need[j])]
                if rest:
                    yield from walk(now, rest)
                for f, n in need[i]:
                    room[f] += n

        yield from walk(list(base), fitting)

    def _melds_possible(self) -> bool:
        """The engine lets this seat lay new melds at all now (an empty lay is
        refused only for being empty)."""
        return self._refusal(A.Meld(self.game.state.turn, ())) == "invalid_meld"

    def _swap_reachable(self, draft: Draft) -> bool:
        if draft.closed or draft.current.low or not draft.current.size:
            return False
        want = draft.current.faces()
        return any(all(given[f] >= n for f, n in want.items()) for given, _ in self._accepted_swaps())

    def _accepted_swaps(self) -> list[tuple[Counter[int], int]]:
        if self._swaps is not None:
            return self._swaps
        s = self.game.state
        seat = s.turn
        out: list[tuple[Counter[int], int]] = []
        hand = _hand(s.hands[seat])
        naturals = sorted(f for f, n in hand.items() if n and f != JOKER_INDEX)
        givens: list[tuple[int, ...]] = [(f,) for f in naturals]
        # Two cards free a joker only from a set: two naturals of one rank.
        for a in naturals:
            for b in naturals:
                if a <= b and a % 13 == b % 13 and (a != b or hand[a] > 1):
                    givens.append((a, b))
        for k, tm in enumerate(s.table):
            if tm.reading.jokers == 0:
                continue
            for given in givens:
                if self.accepts(A.Swap(seat, tuple(face_card(f) for f in given), k)):
                    out.append((Counter(given), k))
        self._swaps = out
        return out

    def _rearrange_possible(self) -> bool:
        """The engine would look at a rebuild of the table now (refusing one
        without a hand card only for that)."""
        if self._rearrange_open is None:
            s = self.game.state
            table = tuple(tuple(Card(c.rank, c.suit, 0) for c in m.cards) for m in s.table)
            code = self._refusal(A.Rearrange(s.turn, table))
            self._rearrange_open = bool(s.table) and code == "no_card_from_hand"
        return self._rearrange_open

    def _rearrange_reachable(self, draft: Draft, hand: Counter[int]) -> bool:
        """Some set of hand cards holding the draft's is laid by a rebuild the engine accepts."""
        if not self._rearrange_possible():
            return False
        s = self.game.state
        faces = draft.faces()
        rest = hand - faces
        cards = [face_card(f) for f, n in sorted(faces.items()) for _ in range(n)]
        others = [face_card(f) for f, n in sorted(rest.items()) for _ in range(n)]
        table = [list(m.cards) for m in s.table]
        sol = solve([*table, cards], others, self.game.rules.melds, max_states=REARRANGE_STATES)
        if not sol.feasible or not sol.optimal:
            return False
        witness = faces + _hand(sol.laid)
        a = self._rebuild(witness)
        return a is not None and self.accepts(a)


def _fits(g: Group, left: Counter[int]) -> bool:
    return all(left[f] >= n for f, n in g.faces().items())


def _hand(cards: list[Card]) -> Counter[int]:
    """Face index -> copies held."""
    return Counter(face_index(c) for c in cards)
