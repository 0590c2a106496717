"""Hand evaluation the bots share: how promising a card is for a hand, which
cards of a hand take part in some meld (a cheap filter before the solver),
and whether a card could join a table meld (asked of `Rules`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from rami_core.cards import JOKER, JOKER_SUIT, Card
from rami_core.cards.melds import might_join_reading, run_windows
from rami_core.game.state import GameState
from rami_core.profile.rules import Rules


def without(cards: Sequence[Card], remove: Iterable[Card]) -> list[Card]:
    """`cards` minus one copy of each face in `remove`."""
    out = list(cards)
    for r in remove:
        for i in range(len(out) - 1, -1, -1):
            if out[i].face == r.face:
                del out[i]
                break
    return out


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


def usefulness_of_hand(hand: Sequence[Card], dead: Counter | None = None) -> dict[tuple[int, int], int]:
    """`usefulness(c, hand, dead)` for every face of `hand` at once (a discard
    order asks for them all): the same sums, read from counts per face, per
    rank and per suit instead of a pass over the hand for each card."""
    # counted in a plain dict and a list (a Counter's += costs a Python call
    # per card): the same counts, faces in the same order
    jokers = 0
    faces: dict[tuple[int, int], int] = {}
    by_rank = [0] * 14
    by_suit: dict[int, list[int]] = {}
    for o in hand:
        r, s = o[0], o[1]
        if s == JOKER_SUIT:
            jokers += 1
            continue
        f = (r, s)
        faces[f] = faces.get(f, 0) + 1
        by_rank[r] += 1
        if s in by_suit:
            by_suit[s].append(r)
        else:
            by_suit[s] = [r]
    out: dict[tuple[int, int], int] = {}
    if jokers:
        out[JOKER.face] = 100
    for (r, s), n in faces.items():
        score = jokers + (n - 1) + 4 * (by_rank[r] - n)
        for o_rank in by_suit[s]:
            if o_rank == r:
                continue
            d = abs(o_rank - r)
            if r == 1 or o_rank == 1:
                d = min(d, 14 - max(o_rank, r))
            if d == 1:
                score += 4
            elif d == 2:
                gap = (min(o_rank, r) + 1, s)
                score += 1 if dead is not None and dead[gap] >= 2 else 3
        out[(r, s)] = score
    return out


_MELDABLE_TABLES: dict = {}


def _meldable_tables(meld_rules):
    """Per meld rules: each rank's run places as a bit mask, the windows of
    run_min places (`melds.run_windows`, where the solver's filters find
    theirs), and the memo of runs per suit."""
    t = _MELDABLE_TABLES.get(meld_rules)
    if t is None:
        place_bits = [0] * 14
        for r in range(1, 14):
            for p in meld_rules.places_of(r):
                place_bits[r] |= 1 << p
        windows = run_windows(meld_rules, meld_rules.run_min)
        t = _MELDABLE_TABLES[meld_rules] = (place_bits, windows, {})
    return t


_MELDABLE_MEMO: dict = {}


def meldable(
    hand: Sequence[Card], meld_rules, *, runs: bool = True, sets: bool = True, jokers_ok: bool = True
) -> frozenset[Card]:
    """Faces of `hand` that take part in at least one meld buildable from `hand`
    (jokers included when any natural is): a cheap filter run before the solver,
    which most turns need not be asked at all. Runs are found with one bit
    mask of places per suit, sets with one bit mask of suits per rank; a turn
    asks about the same hand several times, so answers are remembered (and
    shared: the set is frozen)."""
    key = (meld_rules, runs, sets, jokers_ok, tuple(hand))
    hit = _MELDABLE_MEMO.get(key)
    if hit is None:
        if len(_MELDABLE_MEMO) >= 2048:
            _MELDABLE_MEMO.clear()
        hit = _MELDABLE_MEMO[key] = frozenset(_meldable(hand, meld_rules, runs, sets, jokers_ok))
    return hit


def _meldable(hand: Sequence[Card], meld_rules, runs: bool, sets: bool, jokers_ok: bool) -> set[Card]:
    place_bits, windows, run_memo = _meldable_tables(meld_rules)
    suit_places = [0, 0, 0, 0]
    rank_suits = [0] * 14
    rank_count = [0] * 14
    jokers = _add_cards(hand, place_bits, suit_places, rank_suits, rank_count)
    if not jokers_ok:
        jokers = 0
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    out: set[Card] = set()
    min_nat = max(1, meld_rules.min_naturals)
    if sets:
        need_set = max(meld_rules.set_min, meld_rules.min_naturals)
        distinct = meld_rules.set_distinct_suits
        for r in range(1, 14):
            suits = rank_suits[r]
            if not suits:
                continue
            n = suits.bit_count() if distinct else rank_count[r]
            if n >= min_nat and n + jokers >= need_set:
                out.update(_SET_FACES[r][suits])
    if runs:
        L = meld_rules.run_min
        wrap = meld_rules.wrap
        for suit in range(4):
            places = suit_places[suit]
            if not places:
                continue
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
            if got:
                out.update(_run_faces(suit, got))
    if out and jokers:
        out.add(JOKER)
    return out


# The faces of one rank whose suits are the bits of a mask, per rank and mask.
_SET_FACES = [[tuple(Card(r, s, 0) for s in range(4) if m >> s & 1) for m in range(16)] for r in range(14)]
_RUN_FACES: dict[tuple[int, int], tuple[Card, ...]] = {}
_RUN_FACES_MAX = 1 << 16


def _run_faces(suit: int, places: int) -> tuple[Card, ...]:
    """The faces of one suit at these places (bits; place p holds rank (p - 1) % 13 + 1),
    remembered: a function of the two numbers alone."""
    key = (suit, places)
    got = _RUN_FACES.get(key)
    if got is None:
        faces = []
        while places:
            low = places & -places
            p = low.bit_length() - 1
            faces.append(Card((p - 1) % 13 + 1, suit, 0))
            places ^= low
        if len(_RUN_FACES) >= _RUN_FACES_MAX:
            _RUN_FACES.clear()
        got = _RUN_FACES[key] = tuple(faces)
    return got


_JOINS: dict[tuple, bool] = {}


def fits_table(c: Card, s: GameState, rules: Rules) -> bool:
    """`c` alone could be laid off on some table meld. Each meld's answer is
    remembered (`Rules.could_join` reads only the meld, the card and the meld
    rules): the same melds and hand cards are asked about every turn."""
    melds, positional = rules.melds, rules.positional_jokers
    for m in s.table:
        if not might_join_reading(m.reading, c):  # cheaper than the memo's key
            continue
        key = (melds, positional, m.reading, c)
        hit = _JOINS.get(key)
        if hit is None:
            if len(_JOINS) >= 1 << 15:
                _JOINS.clear()
            hit = _JOINS[key] = rules.could_join(m.reading, c)
        if hit:
            return True
    return False


_RUN_COVER: dict = {}


def _run_cover(meld_rules) -> tuple[tuple[tuple[int, int], ...], dict[tuple[int, int], int]]:
    """Per meld rules: every run window the rules allow (bit mask, length),
    every length from run_min to 13, not only the shortest, because a
    minimum of naturals may need a longer window than the gaps do; and the
    memo of :func:`_covered`. Straight windows (`melds.run_windows`): its
    one caller answers a wrapping profile before asking."""
    got = _RUN_COVER.get(meld_rules)
    if got is None:
        out = [
            (w, n)
            for n in range(max(1, meld_rules.run_min), 14)
            for w in run_windows(meld_rules, n, straight=True)
        ]
        if len(_RUN_COVER) >= 16:
            _RUN_COVER.clear()
        got = _RUN_COVER[meld_rules] = (tuple(out), {})
    return got


def _covered(meld_rules, places: int, jokers: int) -> int:
    """The places (bits) some run window holds that the naturals at `places`
    (a bit mask of one suit) and at most `jokers` jokers fill: a natural at
    such a place is in a run of them. One answer for every place of the
    suit, remembered by (places, jokers)."""
    windows, known = _run_cover(meld_rules)
    key = (places, jokers)
    got = known.get(key)
    if got is None:
        min_nat = max(1, meld_rules.min_naturals)
        got = 0
        for w, length in windows:
            k = (places & w).bit_count()
            if k >= min_nat and length - k <= jokers:
                got |= w
        if len(known) >= 1 << 16:
            known.clear()
        known[key] = got
    return got


def rebuild_may_lay(
    table: Sequence[Card], hand: Sequence[Card], meld_rules, among: Iterable[Card] | None = None
) -> bool:
    """Cheap necessary test for a whole-table rebuild (`solver.solve` of the
    table and the hand) to lay anything: some card of `hand` lies in some
    meld made of table and hand cards alone (the table's jokers included).
    A laid card ends in a meld of the rebuilt table, which is made of such
    cards, so False proves the rebuild, a hand meld and every lay off lay
    nothing. `among`: cards of `hand` of which any lay must hold one (the
    caller knows the rest of the hand lays nothing on this table); only they
    are tried. A joker to try, or a wrapping run, answers True unasked."""
    if meld_rules.wrap:
        return True
    tried = {(c.rank, c.suit) for c in (hand if among is None else among)}
    if (0, JOKER_SUIT) in tried:
        return True
    if not tried:
        return False
    suit_places, rank_suits, rank_count, jokers = _pool_of(table, meld_rules)
    suit_places, rank_suits, rank_count = list(suit_places), list(rank_suits), list(rank_count)
    place_bits = _meldable_tables(meld_rules)[0]
    jokers += _add_cards(hand, place_bits, suit_places, rank_suits, rank_count)
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    min_nat = max(1, meld_rules.min_naturals)
    set_min, set_max = meld_rules.set_min, meld_rules.set_max
    distinct = meld_rules.set_distinct_suits
    # the run places each suit's naturals and the jokers cover, read once per suit
    cover: list[int | None] = [None, None, None, None]
    for r, s in tried:
        n = rank_suits[r].bit_count() if distinct else rank_count[r]
        n = min(n, set_max)
        if n >= min_nat and n + jokers >= set_min and set_min <= set_max:
            return True
        c = cover[s]
        if c is None:
            c = cover[s] = _covered(meld_rules, suit_places[s], jokers)
        if c & place_bits[r]:
            return True
    return False


_POOLS: dict[tuple, tuple] = {}


def _add_cards(
    cards: Sequence[Card], place_bits, suit_places: list, rank_suits: list, rank_count: list
) -> int:
    """Add the naturals of `cards` to the places per suit, suits and count per
    rank (in place); return how many jokers they hold."""
    jokers = 0
    for c in cards:
        s = c.suit
        if s == JOKER_SUIT:
            jokers += 1
            continue
        r = c.rank
        rank_suits[r] |= 1 << s
        rank_count[r] += 1
        suit_places[s] |= place_bits[r]
    return jokers


def _pool_of(table: Sequence[Card], meld_rules) -> tuple:
    """The table's cards summed up as `rebuild_may_lay` reads them (places per
    suit, suits and count per rank, jokers); remembered, as a turn asks about
    the same table many times."""
    key = (meld_rules, tuple(table))
    got = _POOLS.get(key)
    if got is None:
        place_bits = _meldable_tables(meld_rules)[0]
        suit_places = [0] * 4
        rank_suits = [0] * 14
        rank_count = [0] * 14
        jokers = _add_cards(table, place_bits, suit_places, rank_suits, rank_count)
        if len(_POOLS) >= 64:
            _POOLS.clear()
        got = _POOLS[key] = (tuple(suit_places), tuple(rank_suits), tuple(rank_count), jokers)
    return got


def _faces(cards: Iterable[Card]) -> Counter:
    return Counter((c.rank, c.suit) for c in cards)


class NoLayFacts:
    """Positions (table, hand) where a rebuild is proven to lay nothing (the
    solver's optimum), kept by one bot across its turns and plans. If the
    table is the same multiset and the hand lost cards and gained the cards
    `new` since such a position, a rebuild can only lay something that holds
    a card of `new`: any other arrangement was already possible then. So a
    cheap test on the new cards (`rebuild_may_lay` with `among`) settles the
    repeated questions of a turn (each card held back, the discard taken or
    not) and the turn after a laid optimum."""

    MAX_TABLES = 32
    MAX_HANDS = 8

    def __init__(self) -> None:
        self._known: dict[tuple, list[Counter]] = {}

    @staticmethod
    def _key(table: Sequence[Card], topic: Hashable) -> tuple:
        return (topic, tuple(sorted((c.rank, c.suit) for c in table)))

    def add(self, table: Sequence[Card], hand: Sequence[Card], topic: Hashable = None) -> None:
        """Record a proven optimum of nothing laid (nothing else may be added).
        `topic` tells questions apart that share the reasoning, e.g. openings
        of given settings from the hand alone (an empty table)."""
        key = self._key(table, topic)
        hands = self._known.get(key)
        if hands is None:
            if len(self._known) >= self.MAX_TABLES:
                self._known.clear()
            hands = self._known[key] = []
        hands.insert(0, _faces(hand))
        del hands[self.MAX_HANDS :]

    def nothing(
        self, table: Sequence[Card], hand: Sequence[Card], meld_rules, topic: Hashable = None
    ) -> bool:
        """True only if no rebuild of `table` lays a card of `hand` (for a
        topic: if the question is as empty as it was for a known hand)."""
        if not rebuild_may_lay(table, hand, meld_rules):
            return True
        hands = self._known.get(self._key(table, topic)) if self._known else None
        if not hands:
            return False
        have = _faces(hand)
        for h0 in hands:
            new = have - h0
            if not new:
                return True
            among = [Card(r, s, 0) for (r, s), n in new.items() for _ in range(n)]
            if not rebuild_may_lay(table, hand, meld_rules, among):
                return True
        return False


class CutRebuilds:
    """This turn's positions (table, hand) whose bounded rebuild was cut
    before it laid a card: the search ran out of states without finding
    any lay. A later question of the same turn whose table grew only by
    cards of that hand, and whose hand holds no card that hand did not
    (the cards laid since as hand melds or lay offs, a card held back),
    asks for a rebuild of a smaller problem: every rebuild of it is a
    rebuild of the cut position. It is not asked again (a strategy, not a
    proof: the exact optimum may lay cards). Counted over 20 greedy voleur
    rounds (seeds 0-19), 280 of the 1,091 rebuild solves were such repeats,
    all of them laying nothing."""

    MAX = 8

    def __init__(self) -> None:
        self._turn: tuple | None = None
        self._cut: list[tuple[Counter, Counter]] = []

    @staticmethod
    def _turn_of(s: GameState) -> tuple:
        return (s.round_no, s.turns_played, s.turn)

    def add(self, s: GameState, table: Sequence[Card], hand: Sequence[Card]) -> None:
        turn = self._turn_of(s)
        if turn != self._turn:
            self._turn, self._cut = turn, []
        self._cut.insert(0, (_faces(table), _faces(hand)))
        del self._cut[self.MAX :]

    def covers(self, s: GameState, table: Sequence[Card], hand: Sequence[Card]) -> bool:
        """Whether (table, hand) is a smaller problem of a cut position of this turn."""
        if not self._cut or self._turn_of(s) != self._turn:
            return False
        t, h = _faces(table), _faces(hand)
        for t0, h0 in self._cut:
            if h - h0 or t0 - t:
                continue
            if not (t - t0) - (h0 - h):  # the table gained only cards the hand gave
                return True
        return False
