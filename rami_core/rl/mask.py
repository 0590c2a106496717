"""Which sub-steps the engine accepts now: the action mask, asked of the engine.

A sub-step that is a whole engine action (a draw, a lay off, a swap, a
discard, the end of the turn) is legal exactly when the engine's legal moves
(`rami_core.referee.legal`) list it; a commit of the draft, when the engine plays it
on a copy of the state without refusing. A sub-step that only builds the
draft (add a card, close a group) is legal exactly when some engine action
can still follow from the draft it leaves: a search finds a witness (a lay,
a swap or a rebuild of the table that holds the draft) and the engine judges
it, so the rules are never re-derived here, and no refusal code is read.

The search stays small without losing that exactness because it only skips
what the engine would surely refuse:

- a kind the engine withholds as a whole (`legal.kind_refusal`: the turn,
  the phase, the profile's switches, the opening) is not searched;
- groups are candidates only when the meld reader reads them (every meld
  the engine reads is a run of one suit or a set of one rank, with jokers);
- a refused lay is extended only where more cards could cure it: where it
  is judged as an opening (`legal.lay_bounds`), or a house rule judges the
  whole lay, and never once it leaves fewer cards than the hand keeps;
- before an opening, a lay is extended only while some packing of the cards
  left could still meet what `opening.opening_problem` asks (its points,
  its pure run, its run and set, going out): `PackingBounds` knows, per
  multiset of cards, the most points each kind of packing can reach;
- a lay off is asked of the engine only where the card could join the meld
  at all (`Rules.could_join`), and only when the seat may lay off now.

Verdicts are cached until the state changes (an engine action is applied).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from rami_core.cards import Card
from rami_core.cards.melds import RUN, rank_at
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.referee.engine import Game
from rami_core.referee.gates import DISCARD, STOCK
from rami_core.referee.legal import (
    REARRANGE_STATES,
    kind_refusal,
    lay_bounds,
    legal_moves,
    switched_on,
    verdict,
)
from rami_core.referee.legal import Bounds as LayBounds
from rami_core.rl.draft import Draft, Group
from rami_core.rl.faces import FACE_OF, FACES, JOKER_INDEX, face_card, face_index
from rami_core.rl.layout import (
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
from rami_core.rl.packing import (
    GUARD,
    WIDTH,
    BoundsMemo,
    ByNaturals,
    Candidate,
    PackingBounds,
    as_bits,
    candidates,
    candidates_after,
    holds_bits,
    pairs_bits,
)
from rami_core.solver import solve
from rami_core.words.errors import RuleError


class TurnOracle:
    """Masks and engine actions for the seat whose turn it is, cached per state."""

    def __init__(self, game: Game, layout: ActionLayout, timeout: bool = False):
        self.game = game
        self.layout = layout
        # The timeout is the clock's move, not a seat's choice: a policy
        # offered "let the clock run out" from the draw step learns that
        # first. `timeout=True` offers it in the mask (the engine's verdict).
        self.timeout = timeout
        self._key: tuple[int, ...] | None = None
        # Groups read, and packing bounds, under this game's meld rules and
        # card values: shared by every game of the process under the same
        # ones (pure functions of them: a new episode starts with them known).
        self._read, self._memo, self._by_naturals = _shared_memos(game.rules)
        # The kinds the profile's switches let through: the others are
        # refused in every state, so they are never asked.
        self._lay_kinds = switched_on(game.rules, ("layoff", "swap", "discard", "end_turn"))
        self._switched_on = frozenset(switched_on(game.rules, ("swap", "rearrange")))
        self._last_cands: dict[
            int, tuple[tuple[int, ...], list[Candidate]]
        ] = {}  # per seat, its latest hand's  # packing bounds of multisets of cards, under this game's rules
        self._reset()

    def _reset(self) -> None:
        self._base: np.ndarray | None = None
        self._ranked: list[Group] | None = None
        self._hand: Counter[int] = Counter()
        self._counts: tuple[int, ...] = ()
        self._cands: list[Candidate] | None = None
        self._index: dict[Group, int] = {}
        self._bounds: PackingBounds | None = None
        self._codes: dict[tuple[int, ...], bool] = {}
        self._extends: dict[tuple[int, ...], bool] = {}
        self._reach: dict[tuple, bool] = {}
        self._melds_open: bool | None = None
        self._lay_reach: bool | None = None
        self._swaps_allowed: bool | None = None
        self._lay: LayBounds | None = None
        self._swaps: list[tuple[Counter[int], int]] | None = None
        self._rearrange_open: bool | None = None
        self._rebuilds: dict[tuple[tuple[int, int], ...], A.Rearrange | None] = {}
        self._rebuild_ok: dict[tuple[tuple[int, int], ...], bool] = {}
        self._witnesses: list[Counter[int]] = []  # hand cards of accepted rebuilds found
        self._hopeless: list[Counter[int]] = []  # hand cards no arrangement of the table takes

    # ------------------------------------------------------------ engine questions

    def accepts(self, action: A.Action) -> bool:
        """The engine's verdict on `action` now, nothing changed."""
        return self.refusal(action) is None

    def refusal(self, action: A.Action) -> str | None:
        """The engine's refusal code for `action` now (None: accepted), nothing changed."""
        if isinstance(action, A.Timeout):
            try:
                self.game.played(action)
            except RuleError as e:
                return e.code
            return None
        refused = verdict(self.game.rules, self.game.state, action)
        return None if refused is None else refused.code

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
        """The solver's arrangement of the table with these hand cards added,
        or None (asked once per state and set of cards)."""
        self._refresh()
        key = tuple(sorted(faces.items()))
        if key in self._rebuilds:
            return self._rebuilds[key]
        s = self.game.state
        cards = [face_card(f) for f, n in key for _ in range(n)]
        table = [list(m.cards) for m in s.table]
        sol = solve([*table, cards], [], self.game.rules.melds, max_states=REARRANGE_STATES)
        out = None
        if sol.feasible and sol.optimal:
            melds = tuple(tuple(Card(c.rank, c.suit, 0) for c in m) for m in sol.melds)
            out = A.Rearrange(s.turn, melds)
        self._rebuilds[key] = out
        return out

    def _rebuild_accepted(self, faces: Counter[int]) -> bool:
        key = tuple(sorted(faces.items()))
        hit = self._rebuild_ok.get(key)
        if hit is None:
            a = self._rebuild(faces)
            hit = self._rebuild_ok[key] = a is not None and self.accepts(a)
        return hit

    # ------------------------------------------------------------ the mask

    def _refresh(self) -> None:
        """Forget every verdict once the game has moved (an action applied, a
        round dealt); a timeout's trial is rolled back and changes nothing."""
        g = self.game
        key = (id(g), len(g.log), len(g.events), id(g.rules))
        if key == self._key:
            return
        self._key = key
        self._reset()
        s = g.state
        if s.phase != OVER:
            self._hand = _hand(s.hands[s.turn])
            counts = [0] * FACES
            for f, n in self._hand.items():
                counts[f] = n
            self._counts = tuple(counts)

    def mask(self, draft: Draft) -> np.ndarray:
        self._refresh()
        m = self._engine_part().copy()
        if self.game.state.phase == LAY:
            self._draft_mask(draft, m)
        return m

    def engine_mask(self) -> np.ndarray:
        """Sub-steps that are whole engine actions and do not depend on the
        draft (cached per state; do not write into it)."""
        self._refresh()
        return self._engine_part()

    def _engine_part(self) -> np.ndarray:
        """`engine_mask` once the state is refreshed (`mask` refreshes it itself)."""
        if self._base is None:
            self._base = self._engine_mask()
        return self._base

    def timeout_accepted(self) -> bool:
        """The engine would play the clock's default turn now."""
        s = self.game.state
        return s.phase != OVER and self.accepts(A.Timeout(s.turn))

    # ---- what the compact layout (rami_core.rl.compact) asks

    def in_lay_phase(self) -> bool:
        return self.game.state.phase == LAY

    def hand(self) -> Counter[int]:
        """The seat's hand as face -> copies (a copy)."""
        self._refresh()
        return Counter(self._hand)

    def ranked_groups(self) -> list[Group]:
        """Every group of the hand the meld reader reads, most points first,
        then fewest jokers, then most cards."""
        if self._ranked is None:
            cands = self._candidates()
            order = sorted(cands, key=lambda c: (-c.points, c.jokers, -c.group.size, c.group))
            self._ranked = [c.group for c in order]
        return self._ranked

    def meld_reachable(self, groups: list[Group]) -> bool:
        """Some lay the engine accepts holds these groups (and maybe more)."""
        self._refresh()
        return self._meld_reachable(groups, Group())

    def meld_accepted(self, groups: list[Group]) -> bool:
        self._refresh()
        return self._meld_ok(groups)

    def rebuild_possible(self) -> bool:
        self._refresh()
        return self._rearrange_possible()

    def rebuild_reachable(self, draft: Draft) -> bool:
        self._refresh()
        return self._rearrange_reachable(draft)

    def rebuild_accepted(self, faces: Counter[int]) -> bool:
        self._refresh()
        return self._rebuild_accepted(faces)

    def _engine_mask(self) -> np.ndarray:
        """Sub-steps that are whole engine actions and do not depend on the
        draft: the engine's legal moves of the kinds listed in full."""
        L = self.layout
        m = np.zeros(L.size, dtype=np.int8)
        s = self.game.state
        if s.phase == OVER:
            return m
        seat = s.turn
        if self.timeout:
            m[TIMEOUT] = self.accepts(A.Timeout(seat))
        if s.phase == DRAW:
            legal = legal_moves(self.game, seat, ("draw_stock", "draw_discard"))
            m[DRAW_STOCK] = legal.may("draw_stock")
            m[DRAW_DISCARD] = legal.may("draw_discard")
            return m
        legal = legal_moves(self.game, seat, self._lay_kinds)
        m[END_TURN] = legal.may("end_turn")
        face_of = FACE_OF.__getitem__
        discards = legal.moves("discard")
        if discards:
            at = L.discard
            # one fancy-index write instead of an item write per card
            m[[at + face_of(a.card) for a in discards if isinstance(a, A.Discard)]] = 1
        for a in legal.moves("layoff"):
            assert isinstance(a, A.LayOff)
            (it,) = a.items
            if it.as_ is not None:
                m[L.joker_low_index(it.to)] = 1
            else:
                m[L.lay_off_index(face_of(it.card), it.to)] = 1
        for a in legal.moves("swap"):
            assert isinstance(a, A.Swap)
            if len(a.cards) == 1:
                m[L.swap_index(face_index(a.cards[0]), a.meld)] = 1
        return m

    def _draft_mask(self, draft: Draft, m: np.ndarray) -> None:
        L = self.layout
        s = self.game.state
        empty = draft.empty
        pending = None if empty else draft.faces()
        avail = self._hand - pending if pending else self._hand  # read only below
        grown = self._meld_growths(draft.closed, draft.current, avail)
        beyond = self._swaps_open() or self._rearrange_possible()
        # The add sub-steps are 0 in the engine's part: only those offered are
        # written, in one fancy-index write (asked in the same order as before).
        at = L.add
        if beyond:
            adds = [
                at + f
                for f in avail
                # A face no lay can grow by is still reachable by a swap or a rebuild.
                if f in grown or self._reachable_beyond_melds(Draft(draft.closed, draft.current.add(f)))
            ]
        else:
            adds = [at + f for f in avail if f in grown]
        if adds:
            m[adds] = 1
        if avail[JOKER_INDEX]:
            m[ADD_JOKER_LOW] = self.reachable(Draft(draft.closed, draft.current.add(JOKER_INDEX, low=True)))
        if draft.current.size:
            m[CLOSE_GROUP] = self._meld_reachable([*draft.closed, draft.current], Group())
        if not empty:
            groups = draft.groups()
            m[COMMIT_MELD] = self._meld_ok(groups)
            if self._rearrange_possible():
                m[COMMIT_REARRANGE] = self._rebuild_accepted(draft.faces())
            if not draft.closed and not draft.current.low and self._swaps_open():
                for k, tm in enumerate(s.table):
                    if tm.reading.jokers:
                        a = A.Swap(s.turn, draft.current.written(), k)
                        m[L.swap_pending_index(k)] = self.accepts(a)

    # ------------------------------------------------------------ can the draft still lead somewhere?

    def reachable(self, draft: Draft) -> bool:
        """Some engine action can follow from this draft: a lay holding it, a
        joker swap giving its cards, or a rebuild of the table laying them."""
        self._refresh()
        key = (tuple(draft.closed), draft.current)
        hit = self._reach.get(key)
        if hit is None:
            hit = (
                self._meld_reachable(draft.closed, draft.current)
                or self._swap_reachable(draft)
                or self._rearrange_reachable(draft)
            )
            self._reach[key] = hit
        return hit

    def _reachable_beyond_melds(self, draft: Draft) -> bool:
        """`reachable(draft)` where no lay holding the draft is accepted."""
        key = (tuple(draft.closed), draft.current)
        hit = self._reach.get(key)
        if hit is None:
            hit = self._swap_reachable(draft) or self._rearrange_reachable(draft)
            self._reach[key] = hit
        return hit

    def _candidates(self) -> list[Candidate]:
        if self._cands is None:
            seat = self.game.state.turn
            last = self._last_cands.get(seat)
            if last is None:
                self._cands = candidates(
                    self._counts, self.game.rules, self._read, by_naturals=self._by_naturals
                )
            else:
                self._cands = candidates_after(
                    *last, self._counts, self.game.rules, self._read, by_naturals=self._by_naturals
                )
            self._last_cands[seat] = (self._counts, self._cands)
            self._index = {c.group: i for i, c in enumerate(self._cands)}
            self._bounds = PackingBounds(self._cands, self._memo)
        return self._cands

    def _meld_ok(self, groups: list[Group]) -> bool:
        """The engine accepts a lay of these groups."""
        self._candidates()
        idx = [self._index.get(g) for g in groups]
        if any(i is None for i in idx):
            return self.accepts(A.Meld(self.game.state.turn, tuple(g.written() for g in sorted(groups))))
        return self._accepted(tuple(sorted(i for i in idx if i is not None)))

    def _accepted(self, laid: tuple[int, ...]) -> bool:
        """The engine's verdict on laying these candidates (sorted indices), cached."""
        hit = self._codes.get(laid)
        if hit is None:
            cands = self._candidates()
            groups = sorted(cands[i].group for i in laid)
            hit = self._codes[laid] = self.accepts(
                A.Meld(self.game.state.turn, tuple(g.written() for g in groups))
            )
        return hit

    def _melds_possible(self) -> bool:
        """The engine lets this seat lay new melds at all now (the rules of the whole kind)."""
        if self._melds_open is None:
            s = self.game.state
            self._melds_open = kind_refusal(self.game.rules, s, s.turn, "meld") is None
        return self._melds_open

    def _lay_in_reach(self) -> bool:
        """Where the engine judges a lay as an opening, some packing of the
        whole hand could open and the engine offers a lay (else no lay can,
        whatever the draft holds); True elsewhere."""
        if self._lay_reach is None:
            self._candidates()
            reach = self._opening_in_reach((), self._counts)
            s, rules = self.game.state, self.game.rules
            if reach and rules.must_open(s, s.turn):
                # The packing bound may promise an opening no lay reaches (a
                # points minimum the jokers' places cannot make up): the
                # engine's meld offer says whether one exists at all. Its
                # own searches, not one `best_opening` for the need asked
                # here: that search knows the points, the pure run, the run
                # and set and the jokers, but not the lays the engine takes
                # below the points (going out, `go_out_below_points`) nor
                # those that hold a face back to keep a card to discard.
                reach = legal_moves(self.game, s.turn, ("meld",)).may("meld")
            self._lay_reach = reach
        return self._lay_reach

    def _meld_reachable(self, closed: list[Group], current: Group) -> bool:
        """Some lay the engine accepts holds the closed groups as they are and
        a group that `current` can grow into (and maybe more melds)."""
        if not self._melds_possible() or not self._lay_in_reach():
            return False
        cands = self._candidates()
        idx = [self._index.get(g) for g in closed]
        if any(i is None for i in idx):
            return False  # a group the meld reader refuses: every lay holding it is refused
        base = [i for i in idx if i is not None]
        room = self._room(base)
        if room is None:
            return False
        if not current.size:
            return bool(base) and self._extends_to_lay(tuple(sorted(base)))
        assert self._bounds is not None
        bounds = self._bounds
        # Only candidates holding one of the current group's faces can be it grown.
        first = JOKER_INDEX if current.low else current.body[0]
        low, body = current.low, dict(Counter(current.body))
        return any(
            bounds.fits(i, room)
            and cands[i].holds(low, body)
            and self._extends_to_lay(tuple(sorted([*base, i])))
            for i in bounds.holding(first)
        )

    def _meld_growths(self, closed: list[Group], current: Group, avail: Counter[int]) -> set[int]:
        """The faces `f` of `avail` for which `_meld_reachable(closed,
        current.add(f))` holds, found with fewer questions: a candidate that
        proves one face (it holds the grown group, fits and extends to a lay)
        proves every other face it holds more copies of than `current` does."""
        if not self._melds_possible() or not self._lay_in_reach():
            return set()
        cands = self._candidates()
        idx = [self._index.get(g) for g in closed]
        if any(i is None for i in idx):
            return set()
        base = [i for i in idx if i is not None]
        room = self._room(base)
        if room is None:
            return set()
        assert self._bounds is not None
        bounds = self._bounds
        low, now = current.low, Counter(current.body)
        # the room and the grown bodies as as_bits integers: `bounds.fits`
        # and `Candidate.holds` (the body part) are then one subtraction each
        # (holds_bits inlined: the guard bits of the room set once)
        have = as_bits(room) | GUARD
        now_bits = pairs_bits(now.items())
        now_min = min(now) if now else None
        grown: set[int] = set()
        for f in avail:
            if f in grown:
                continue
            want = now_bits + (1 << (WIDTH * f))  # the body grown by f
            first = JOKER_INDEX if low else (f if now_min is None or f < now_min else now_min)
            for i in bounds.holding(first):
                c = cands[i]
                if (
                    (have - c.bits) & GUARD == GUARD
                    and low <= c.group.low
                    and ((c.body_bits | GUARD) - want) & GUARD == GUARD
                    and self._extends_to_lay(tuple(sorted([*base, i])))
                ):
                    grown.update(g for g, k in c.body.items() if k > now[g] and g in avail)
                    break
        return grown

    def _room(self, laid: list[int] | tuple[int, ...]) -> tuple[int, ...] | None:
        """The hand's cards left after laying these candidates (None: it lacks some)."""
        room = list(self._counts)
        cands = self._candidates()
        for i in laid:
            for f, n in cands[i].need:
                room[f] -= n
                if room[f] < 0:
                    return None
        return tuple(room)

    def _extends_to_lay(self, laid: tuple[int, ...]) -> bool:
        """These candidates, maybe with more, make a lay the engine accepts."""
        hit = self._extends.get(laid)
        if hit is not None:
            return hit
        room = self._room(laid)
        assert room is not None and self._bounds is not None
        bounds = self._bounds
        lay = self._lay_bounds()
        if not self._opening_in_reach(laid, room):
            hit = False  # neither this lay nor any larger one opens
        elif self._accepted(laid):
            hit = True
        elif sum(room) <= lay.kept and not self._whole_lay_rules():
            hit = False  # a larger lay would keep still fewer cards
        elif lay.opening is None and not self._whole_lay_rules():
            hit = False  # not an opening: refused for a group, which every larger lay holds too
        else:
            have = as_bits(room)
            hit = any(
                holds_bits(have, c.bits) and self._extends_to_lay(tuple(sorted([*laid, i])))
                for i, c in enumerate(bounds.cands)
            )
        self._extends[laid] = hit
        return hit

    def _lay_bounds(self) -> LayBounds:
        if self._lay is None:
            s = self.game.state
            self._lay = lay_bounds(self.game.rules, s, s.turn)
        return self._lay

    def _whole_lay_rules(self) -> bool:
        hooks = self.game.rules.hooks
        return hooks.has("rami_table_acceptable") or hooks.has("rami_opening_met")

    def _opening_in_reach(self, laid: tuple[int, ...], room: tuple[int, ...]) -> bool:
        """Where the engine judges a lay as an opening, some packing of the
        cards left could make this lay (or a larger one) open; True elsewhere."""
        lay = self._lay_bounds()
        if lay.opening is None:
            return True
        assert self._bounds is not None
        return self._bounds.opening_in_reach(
            self.game.rules,
            [self._bounds.cands[i] for i in laid],
            room,
            need=lay.opening,
            kept=lay.kept,
        )

    def _swap_reachable(self, draft: Draft) -> bool:
        if draft.closed or draft.current.low or not draft.current.size:
            return False
        if not self._swaps_open():
            return False  # the engine withholds every swap now
        want = draft.current.faces()
        return any(all(given[f] >= n for f, n in want.items()) for given, _ in self._accepted_swaps())

    def _accepted_swaps(self) -> list[tuple[Counter[int], int]]:
        if self._swaps is not None:
            return self._swaps
        s = self.game.state
        seat = s.turn
        out: list[tuple[Counter[int], int]] = []
        hand = self._hand
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

    def _swaps_open(self) -> bool:
        """The engine would look at a joker swap now (the rules of the whole kind; cached per state)."""
        if self._swaps_allowed is None:
            s = self.game.state
            self._swaps_allowed = (
                "swap" in self._switched_on and kind_refusal(self.game.rules, s, s.turn, "swap") is None
            )
        return self._swaps_allowed

    def _rearrange_possible(self) -> bool:
        """The engine would look at a rebuild of the table now (the rules of the whole kind)."""
        if self._rearrange_open is None:
            s = self.game.state
            self._rearrange_open = (
                bool(s.table)
                and "rearrange" in self._switched_on
                and kind_refusal(self.game.rules, s, s.turn, "rearrange") is None
            )
        return self._rearrange_open

    def _rearrange_reachable(self, draft: Draft) -> bool:
        """Some set of hand cards holding the draft's is laid by a rebuild the
        engine accepts. Known answers first: a witness found earlier in this
        state (the widest rebuild, the solver's, every hand card optional,
        is the first) that holds the draft proves it; a set of cards the
        solver proved no arrangement can take, held by the draft, refutes
        it. Else the commit of the draft itself, then the solver's rebuild
        with the draft's cards required and the rest optional, is the
        witness, judged by the engine."""
        if not self._rearrange_possible():
            return False
        faces = draft.faces()
        if not self._witnesses:
            self._witnesses.append(self._witness_rebuild(Counter()) or Counter())
        if any(_within(faces, w) for w in self._witnesses):
            return True
        if any(_within(h, faces) for h in self._hopeless):
            return False
        if self._rebuild_accepted(faces):  # the commit of the draft as it stands (a smaller search)
            self._witnesses.append(faces)
            return True
        witness = self._witness_rebuild(faces)
        if witness is None:
            return False
        self._witnesses.append(witness)
        return True

    def _witness_rebuild(self, faces: Counter[int]) -> Counter[int] | None:
        """The hand cards of an accepted rebuild laying `faces` and maybe more
        (the solver's choice of the rest), or None."""
        s = self.game.state
        rest = self._hand - faces
        cards = [face_card(f) for f, n in sorted(faces.items()) for _ in range(n)]
        others = [face_card(f) for f, n in sorted(rest.items()) for _ in range(n)]
        table = [list(m.cards) for m in s.table]
        sol = solve([*table, cards], others, self.game.rules.melds, max_states=REARRANGE_STATES)
        if not sol.feasible:
            if sol.optimal:
                self._hopeless.append(faces)  # proven: no table holds these cards, nor any more
            return None
        # The arrangement found (the best one, or the best before the search
        # limit) names the cards; the commit of exactly those is the witness.
        witness = faces + _hand(sol.laid)
        if not witness or not self._rebuild_accepted(witness):
            return None
        return witness


# (meld rules, card values) -> (groups read, packing bounds, the groups read
# per naturals and jokers): see TurnOracle.
_MEMOS: dict[tuple, tuple[dict[Group, Candidate | None], BoundsMemo, ByNaturals]] = {}
_MEMO_KEYS = 16  # sets of rules kept at most
READ_LIMIT = 500_000  # groups read kept per set of rules at most


def forget_shared_memos() -> None:
    """Drop the process's shared memos (a benchmark's rows start cold, as a new process would)."""
    from rami_core.rl.draft import _WRITTEN
    from rami_core.rl.packing import _RUN_NATURALS
    from rami_core.solver.best_opening import forget_candidate_pieces

    _MEMOS.clear()
    _WRITTEN.clear()
    _RUN_NATURALS.clear()
    forget_candidate_pieces()


def _shared_memos(rules) -> tuple[dict[Group, Candidate | None], BoundsMemo, ByNaturals]:
    """The memos of `rules`' meld rules and card values (what a group's
    reading and a packing's points depend on, and nothing else). The groups
    read and their index by naturals are cleared together (the index holds
    only groups read)."""
    key = (rules.melds, tuple(sorted(rules.score_args.items())))
    hit = _MEMOS.get(key)
    if hit is None:
        if len(_MEMOS) >= _MEMO_KEYS:
            _MEMOS.clear()
        hit = _MEMOS[key] = ({}, BoundsMemo(), {})
    if len(hit[0]) > READ_LIMIT:
        hit[0].clear()
        hit[2].clear()
    return hit


def _within(small: Counter[int], big: Counter[int]) -> bool:
    return all(big[f] >= n for f, n in small.items())


def _hand(cards: list[Card]) -> Counter[int]:
    """Face index -> copies held."""
    return Counter(map(FACE_OF.__getitem__, cards))
