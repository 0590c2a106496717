"""A seat's observation: its view (rami_core.game.views) and its draft as fixed-size arrays.

`encode` builds it from `Game.view(seat)`, so it holds what the seat may
know and nothing more: its own hand, the table, the discard pile, the counts
of the other hands and the stock, who has opened, the scores. Seats are
listed from the observer's own place ("me" first, then the next seat to
play). `ObservationLayout.pack_state` writes the same vector straight from
the state, reading only the view's fields (a step's observation is asked
thousands of times a second: building the view, a dict of arrays and their
concatenation cost more than the rest of it); a property test holds the two
equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from gymnasium import spaces

from rami_core.cards.melds import AMBIGUOUS, RUN, SET
from rami_core.game.state import DRAW, LAY, OVER, GameState, TableMeld
from rami_core.game.views import SeatView
from rami_core.rl.draft import Draft
from rami_core.rl.faces import FACE_OF, FACES, JOKER_INDEX, face_index

BIG = 1_000_000  # bound for scores and the round number

PHASE_WAITING, PHASE_DRAW, PHASE_LAY, PHASE_OVER = 0, 1, 2, 3


@dataclass(frozen=True)
class Field:
    """One named block of the flat observation: where it lies, its shape, its
    integer bounds, and the divisor that brings it into [0, 1] (scores into
    [-1, 1], clipped) in the scaled form."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: int
    high: int
    scale: float

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size


class ObservationLayout:
    """Where each structured field lies in the flat `observation` vector.

    The environment hands a learner PettingZoo's classic pair
    `{"observation": vector, "action_mask": mask}`; a policy that wants the
    structure back (a convolution over the table, an embedding of the hand)
    reads it here: `layout.unpack(obs["observation"])` is a dict of arrays
    shaped as documented in docs/rl.md, and `layout.fields` names each block
    with its slice and bounds. The layout depends only on the profile's deck
    and the number of players, so one policy keeps its meaning across games."""

    def __init__(self, players: int, slots: int, copies: int, cards: int, target: int | None = None):
        self.players = players
        self.slots = slots
        score_scale = float(2 * (target or 500))
        spec: list[tuple[str, tuple[int, ...], int, int, float]] = [
            ("hand", (FACES,), 0, copies, copies),
            ("pending", (FACES,), 0, copies, copies),
            ("pending_current", (FACES,), 0, copies, copies),
            ("pending_low_jokers", (1,), 0, copies, copies),
            ("pending_groups", (1,), 0, slots, slots),
            ("table", (slots, FACES), 0, copies, copies),
            ("table_jokers_as", (slots, FACES), 0, copies, copies),
            ("table_kind", (slots,), 0, 2, 2),
            ("table_owner", (slots,), 0, players, players),
            ("discard", (FACES,), 0, copies, copies),
            ("discard_top", (1,), 0, FACES, FACES),
            ("discard_size", (1,), 0, cards, cards),
            ("stock_size", (1,), 0, cards, cards),
            ("hand_sizes", (players,), 0, cards, cards),
            ("opened", (players,), 0, 1, 1),
            ("scores", (players,), -BIG, BIG, score_scale),
            ("phase", (1,), 0, 3, 3),
            ("taken_discard", (1,), 0, FACES, FACES),
            ("jokers_to_replay", (1,), 0, copies, copies),
            ("laid_this_turn", (1,), 0, 1, 1),
            ("opened_this_turn", (1,), 0, 1, 1),
            ("round_no", (1,), 0, BIG, 100.0),
        ]
        self.fields: dict[str, Field] = {}
        at = 0
        for name, shape, low, high, scale in spec:
            f = Field(name, at, shape, low, high, float(scale))
            self.fields[name] = f
            at = f.stop
        self.size = at
        self.low = np.concatenate([np.full(f.size, f.low, dtype=np.int64) for f in self.fields.values()])
        self.high = np.concatenate([np.full(f.size, f.high, dtype=np.int64) for f in self.fields.values()])
        self._scale = np.concatenate([np.full(f.size, f.scale) for f in self.fields.values()])
        self.scaled_low = np.where(self.low < 0, -1.0, 0.0).astype(np.float32)
        self.scaled_high = np.ones(self.size, dtype=np.float32)
        self._at = {name: f.start for name, f in self.fields.items()}
        names = list(self.fields)  # pack_state sets these runs of fields by one slice each
        assert names[names.index("pending_low_jokers") + 1] == "pending_groups"
        assert names[names.index("discard_top") :] == [s[0] for s in spec[names.index("discard_top") :]]
        assert self.fields["discard_top"].start + 3 * (players + 3) == self.size
        self._melds: dict[tuple[int, int], tuple[TableMeld, tuple[int, list[int]]]] = {}

    def space(self, scaled: bool = False) -> spaces.Box:
        """The Box of the flat vector: int32 within the fields' bounds, or
        float32 within [0, 1] ([-1, 1] for the scores) when scaled."""
        if scaled:
            return spaces.Box(low=self.scaled_low, high=self.scaled_high, dtype=np.float32)
        return spaces.Box(low=self.low.astype(np.int32), high=self.high.astype(np.int32), dtype=np.int32)

    def pack(self, fields: dict[str, np.ndarray], scaled: bool = False) -> np.ndarray:
        """The flat vector of a structured observation (the inverse of unpack)."""
        flat = np.concatenate([np.asarray(fields[name], dtype=np.int64).ravel() for name in self.fields])
        flat = np.clip(flat, self.low, self.high)
        if scaled:
            return np.clip(flat / self._scale, self.scaled_low, self.scaled_high).astype(np.float32)
        return flat.astype(np.int32)

    def pack_state(
        self, state: GameState, seat: int, draft: Draft, side_of: list[int], scaled: bool = False
    ) -> np.ndarray:
        """`pack(encode(view(state, seat), draft, ...))`, written into one
        array from the state: the same fields from the same public facts
        (the seat's own hand, the table, the discard pile, counts), every
        count added by one bincount, the scalars at the end of the layout
        set by one slice."""
        f = self._at
        n = state.players
        face_of = FACE_OF.__getitem__
        at = f["hand"]
        hits = [at + face_of(c) for c in state.hands[seat]]
        kinds: list[int] = []
        owners: list[int] = []
        for k, m in enumerate(state.table[: self.slots]):
            kind, cells = self._meld_cells(m, k)
            kinds.append(kind)
            owners.append(0 if m.owner is None else 1 + (m.owner - seat) % n)
            hits.extend(cells)
        at = f["discard"]
        hits.extend([at + face_of(c) for c in state.discard])
        current = draft.current
        if not draft.empty:
            at = f["pending"]
            for g in draft.closed:
                hits.extend([at + x for x in g.body])
                hits.extend([at + JOKER_INDEX] * g.low)
            hits.extend([at + x for x in current.body])
            hits.extend([at + JOKER_INDEX] * current.low)
            at = f["pending_current"]
            hits.extend([at + x for x in current.body])
            hits.extend([at + JOKER_INDEX] * current.low)
        v = np.bincount(hits, minlength=self.size) if hits else np.zeros(self.size, dtype=np.intp)
        v = v.astype(np.int64, copy=False)
        at = f["pending_low_jokers"]
        v[at : at + 2] = (current.low, len(draft.closed))  # pending_groups follows
        if kinds:
            at = f["table_kind"]
            v[at : at + len(kinds)] = kinds
            at = f["table_owner"]
            v[at : at + len(owners)] = owners
        discard = state.discard
        if state.phase == OVER:
            phase = PHASE_OVER
        elif state.turn != seat:
            phase = PHASE_WAITING
        else:
            phase = PHASE_DRAW if state.phase == DRAW else PHASE_LAY if state.phase == LAY else PHASE_OVER
        taken = state.taken_discard
        order = [(seat + i) % n for i in range(n)]
        hands = state.hands
        v[f["discard_top"] :] = [  # the layout's last fields, in their order
            face_of(discard[-1]) if discard else FACES,
            len(discard),
            len(state.stock),
            *[len(hands[s]) for s in order],
            *[int(state.opened[s]) for s in order],
            *[state.scores[side_of[s]] for s in order],
            phase,
            face_of(taken) if taken is not None else FACES,
            len(state.jokers_to_replay),
            int(state.laid_this_turn),
            int(state.opened_this_turn),
            state.round_no,
        ]
        np.maximum(v, self.low, out=v)
        np.minimum(v, self.high, out=v)  # np.clip(v, low, high), as pack clips
        if scaled:
            return np.clip(v / self._scale, self.scaled_low, self.scaled_high).astype(np.float32)
        return v.astype(np.int32)

    def _meld_cells(self, m: TableMeld, k: int) -> tuple[int, list[int]]:
        """A table meld's kind code and the cells of the vector it counts in
        at slot `k` (its cards' faces in `table`, the faces its jokers stand
        for in `table_jokers_as`, as `encode` counts them), worked out once
        per meld and slot: table melds are immutable and most stay on the
        table, unchanged, for many turns (keyed by the meld's id, the meld
        kept so that the id is not reused)."""
        hit = self._melds.get((id(m), k))
        if hit is not None and hit[0] is m:
            return hit[1]
        r = m.reading
        kind = 1 if r.kind == RUN else 2 if r.kind == SET else 0
        table = self._at["table"] + k * FACES
        jokers_as = self._at["table_jokers_as"] + k * FACES
        cells: list[int] = []
        for c, (rank, suit) in zip(r.cards, r.stands, strict=False):
            cells.append(table + face_index(c))
            if c.suit == 4:
                cells.append(jokers_as + (JOKER_INDEX if suit == AMBIGUOUS else suit * 13 + rank - 1))
        if len(self._melds) >= 4096:
            self._melds.clear()
        out = (kind, cells)
        self._melds[(id(m), k)] = (m, out)
        return out

    def repack(self, vector: np.ndarray, fields: dict[str, np.ndarray], scaled: bool = False) -> np.ndarray:
        """`vector` (a packed observation) with these fields packed anew, as
        `pack` would pack them: the draft's sub-steps change four fields of
        an observation, not its table or its hand."""
        out = vector.copy()
        for name, value in fields.items():
            f = self.fields[name]
            part = slice(f.start, f.stop)
            flat = np.clip(np.asarray(value, dtype=np.int64).ravel(), self.low[part], self.high[part])
            if scaled:
                out[part] = np.clip(flat / self._scale[part], self.scaled_low[part], self.scaled_high[part])
            else:
                out[part] = flat
        return out

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The structured fields of a flat observation, each in its documented shape."""
        v = np.asarray(vector)
        return {name: v[f.start : f.stop].reshape(f.shape) for name, f in self.fields.items()}


def _counts(cards) -> np.ndarray:
    out = np.zeros(FACES, dtype=np.int32)
    for c in cards:
        out[face_index(c)] += 1
    return out


DRAFT_FIELDS = ("pending", "pending_current", "pending_low_jokers", "pending_groups")


def draft_fields(draft: Draft) -> dict[str, np.ndarray]:
    """The observation's fields that only the draft sets (DRAFT_FIELDS): the
    rest stays as it is while a seat builds its draft."""
    pending = np.zeros(FACES, dtype=np.int32)
    for f, k in draft.faces().items():
        pending[f] = k
    current = np.zeros(FACES, dtype=np.int32)
    for f, k in draft.current.faces().items():
        current[f] = k
    return {
        "pending": pending,
        "pending_current": current,
        "pending_low_jokers": np.array([draft.current.low], dtype=np.int32),
        "pending_groups": np.array([len(draft.closed)], dtype=np.int32),
    }


def encode(view: SeatView, draft: Draft, slots: int, side_of: list[int]) -> dict[str, np.ndarray]:
    """The observation of `view.seat`. `draft`: the seat's pending cards (empty
    when it is not its turn); `side_of[seat]`: the index of its score."""
    n = view.players
    order = [(view.seat + i) % n for i in range(n)]
    table = np.zeros((slots, FACES), dtype=np.int32)
    jokers_as = np.zeros((slots, FACES), dtype=np.int32)
    kind = np.zeros(slots, dtype=np.int32)
    owner = np.zeros(slots, dtype=np.int32)
    for k, m in enumerate(view.table[:slots]):
        r = m.reading
        kind[k] = 1 if r.kind == RUN else 2 if r.kind == SET else 0
        owner[k] = 0 if m.owner is None else 1 + order.index(m.owner)
        for c, (rank, suit) in zip(r.cards, r.stands, strict=False):
            table[k, face_index(c)] += 1
            if c.suit == 4:
                jokers_as[k, JOKER_INDEX if suit == AMBIGUOUS else suit * 13 + rank - 1] += 1
    if view.phase == OVER:
        phase = PHASE_OVER
    elif view.turn != view.seat:
        phase = PHASE_WAITING
    else:
        phase = PHASE_DRAW if view.phase == DRAW else PHASE_LAY if view.phase == LAY else PHASE_OVER

    def one(x: int) -> np.ndarray:
        return np.array([x], dtype=np.int32)

    return {
        "hand": _counts(view.hand),
        **draft_fields(draft),
        "table": table,
        "table_jokers_as": jokers_as,
        "table_kind": kind,
        "table_owner": owner,
        "discard": _counts(view.discard),
        "discard_top": one(face_index(view.discard[-1]) if view.discard else FACES),
        "discard_size": one(len(view.discard)),
        "stock_size": one(view.stock_size),
        "hand_sizes": np.array([view.hand_sizes[s] for s in order], dtype=np.int32),
        "opened": np.array([int(view.opened[s]) for s in order], dtype=np.int32),
        "scores": np.array([view.scores[side_of[s]] for s in order], dtype=np.int32),
        "phase": one(phase),
        "taken_discard": one(face_index(view.taken_discard) if view.taken_discard is not None else FACES),
        "jokers_to_replay": one(len(view.jokers_to_replay)),
        "laid_this_turn": one(int(view.laid_this_turn)),
        "opened_this_turn": one(int(view.opened_this_turn)),
        "round_no": one(view.round_no),
    }
