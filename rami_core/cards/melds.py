"""Runs and sets under a profile's meld rules, and what each joker stands for.

A meld is judged by its cards as a multiset, but once a
meld is on the table in a variant where jokers keep their places, the places
matter: a later lay off or joker swap is judged against them. So validation
returns a `Reading`: the meld with every card's place and the face each joker
stands for. Runs are placed on integer places where rank r sits at place r,
an ace at 1 (low) or 14 (high); a wrapping run (K-A-2) uses places past 13,
the rank of place p being ((p - 1) mod 13) + 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from rami_core.cards import Card, format_card
from rami_core.cards.bits import FACE_OF, join_mask
from rami_core.words.refusals import Reason

RUN = "run"
SET = "set"
AMBIGUOUS = -1  # suit of a joker in a set that could stand for more than one suit


def rank_at(place: int) -> int:
    return (place - 1) % 13 + 1


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The part of a profile that says what a valid meld is.

    Passed around as `meld_rules` (the game's `Rules` holds it as
    `rules.melds`), so that the name `rules` always means `Rules`.
    """

    run_min: int = 3
    set_min: int = 3
    set_max: int = 4
    set_distinct_suits: bool = True
    ace_low: bool = True
    ace_high: bool = True
    wrap: bool = False
    max_jokers: int | None = None
    min_naturals: int = 1

    # Places a run may occupy when it does not wrap.
    @property
    def low_bound(self) -> int:
        """The lowest place a run may start at: 1 where the ace may be low, else 2."""
        return 1 if self.ace_low else 2

    @property
    def high_bound(self) -> int:
        """The highest place a run may reach: 14 (the ace after the king) where the ace may be high, else 13."""
        return 14 if self.ace_high else 13

    def places_of(self, rank: int) -> tuple[int, ...]:
        """Places a natural card of this rank may take in a run."""
        if self.wrap:
            return (rank, rank + 13)
        if rank == 1:
            return tuple(p for p, ok in ((1, self.ace_low), (14, self.ace_high)) if ok)
        return (rank,)

    def window_ok(self, lo: int, hi: int) -> bool:
        """Whether a run may occupy places lo..hi: within the bounds, or wrapping round the ace where the profile allows."""
        if self.wrap:
            return 1 <= lo <= 13 and hi - lo + 1 <= 13
        # A run holds each rank once: A-2-...-K-A puts the ace at both ends, which no source allows.
        return self.low_bound <= lo and hi <= self.high_bound and hi - lo + 1 <= 13


# (rules, length, straight) -> the windows' masks; a handful of rules per process, bounded all the same
_RUN_WINDOWS: dict[tuple[MeldRules, int, bool], tuple[int, ...]] = {}


def run_windows(meld_rules: MeldRules, length: int, *, straight: bool = False) -> tuple[int, ...]:
    """The windows of `length` places a run may occupy, each as a bit mask
    (bit p for place p, places numbered as above), lowest start first.

    The bots' and the solver's filters read a suit's places against each
    window with one AND and one popcount; they take the windows from here
    so that they cannot disagree on where a run may lie. Where the rules
    wrap, every window within places 1 to 27: the bots read a suit's places
    with their copies 13 and 26 places on, where a run turning the corner
    lies whole. `straight` asks for the windows from `low_bound` to
    `high_bound` even then, for the filters whose callers answer a wrapping
    profile before asking. Remembered (bounded): the solver's filter asks
    at every suit it has not seen."""
    key = (meld_rules, length, straight)
    got = _RUN_WINDOWS.get(key)
    if got is None:
        if meld_rules.wrap and not straight:
            lo_b, hi_b = 1, 27
        else:
            lo_b, hi_b = meld_rules.low_bound, meld_rules.high_bound
        window = (1 << length) - 1
        if len(_RUN_WINDOWS) >= 256:
            _RUN_WINDOWS.clear()
        got = _RUN_WINDOWS[key] = tuple(window << lo for lo in range(lo_b, hi_b - length + 2))
    return got


@dataclass(frozen=True, slots=True)
class Reading:
    """A valid meld with its places. For a run, `cards` are in place order from
    `start`; for a set, naturals by suit then jokers. `stands` gives the face
    (rank, suit) each card stands for; a set joker whose suit is not fixed has
    suit AMBIGUOUS."""

    kind: str
    cards: tuple[Card, ...]
    stands: tuple[tuple[int, int], ...]
    start: int = 0  # run only: place of cards[0]
    suit: int = -1  # run only
    rank: int = 0  # set only

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c.is_joker)

    @property
    def pure(self) -> bool:
        return self.kind == RUN and self.jokers == 0

    @property
    def end(self) -> int:
        return self.start + len(self.cards) - 1


def _counts_ok(naturals: int, jokers: int, meld_rules: MeldRules) -> bool:
    if naturals < meld_rules.min_naturals:
        return False
    return meld_rules.max_jokers is None or jokers <= meld_rules.max_jokers


def _split(cards: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    nat = [c for c in cards if not c.is_joker]
    jok = [c for c in cards if c.is_joker]
    return nat, jok


def _run_from_places(placed: dict[int, Card], jokers: list[Card], lo: int, hi: int, suit: int) -> Reading:
    free = list(jokers)
    cards: list[Card] = []
    stands: list[tuple[int, int]] = []
    for p in range(lo, hi + 1):
        c = placed.get(p)
        if c is None:
            c = free.pop()
        cards.append(c)
        stands.append((rank_at(p), suit))
    if lo > 13:  # keep starts of wrapping runs in 1..13
        lo -= 13
    return Reading(RUN, tuple(cards), tuple(stands), start=lo, suit=suit)


def _run_parts(cards: Sequence[Card], meld_rules: MeldRules) -> tuple[list[Card], list[Card], int] | None:
    """Naturals, jokers and suit of a would-be run, or None if it cannot be one."""
    if len(cards) < meld_rules.run_min:
        return None
    nat, jok = _split(cards)
    if not nat or not _counts_ok(len(nat), len(jok), meld_rules):
        return None
    suit = nat[0].suit
    if any(c.suit != suit for c in nat):
        return None
    return nat, jok, suit


def read_run_in_order(cards: Sequence[Card], meld_rules: MeldRules) -> Reading | None:
    """The meld as a run in its written (ascending) order, jokers at their places."""
    n = len(cards)
    parts = _run_parts(cards, meld_rules)
    if parts is None:
        return None
    _nat, _jok, suit = parts
    first = next(i for i, c in enumerate(cards) if not c.is_joker)
    for p in meld_rules.places_of(cards[first].rank):
        lo = p - first
        if meld_rules.wrap and lo < 1:
            lo += 13
        hi = lo + n - 1
        if not meld_rules.window_ok(lo, hi):
            continue
        if all(c.is_joker or rank_at(lo + i) == c.rank for i, c in enumerate(cards)):
            if not meld_rules.wrap and any(
                c.rank == 1 and lo + i not in meld_rules.places_of(1)
                for i, c in enumerate(cards)
                if not c.is_joker
            ):
                continue
            stands = tuple((rank_at(lo + i), suit) for i in range(n))
            return Reading(RUN, tuple(cards), stands, start=lo if lo <= 13 else lo - 13, suit=suit)
    return None


def _windows(n: int, meld_rules: MeldRules) -> Iterable[int]:
    """Window starts from the highest to the lowest (jokers take the highest places)."""
    if meld_rules.wrap:
        if n > 13:
            return []
        straight = list(range(14 - n + 1, 0, -1))
        wrapping = [lo for lo in range(13, 0, -1) if lo + n - 1 > 14]
        return straight + wrapping
    if n > 13:
        return []
    return range(meld_rules.high_bound - n + 1, meld_rules.low_bound - 1, -1)


def read_run_any(cards: Sequence[Card], meld_rules: MeldRules) -> Reading | None:
    """The meld as a run in any order, jokers taking the highest free places."""
    n = len(cards)
    parts = _run_parts(cards, meld_rules)
    if parts is None:
        return None
    nat, jok, suit = parts
    if len({c.rank for c in nat}) < len(nat):
        return None  # a run holds each rank once
    nat.sort(key=lambda c: c.rank)
    for lo in _windows(n, meld_rules):
        hi = lo + n - 1
        # a window holds at most 13 places: each rank at one place at most
        want = {rank_at(p): p for p in range(lo, hi + 1)}
        placed: dict[int, Card] = {}
        for c in nat:
            p = want.get(c.rank)
            if p is None:
                break
            placed[p] = c
        else:
            return _run_from_places(placed, jok, lo, hi, suit)
    return None


def read_set(cards: Sequence[Card], meld_rules: MeldRules) -> Reading | None:
    n = len(cards)
    if not meld_rules.set_min <= n <= meld_rules.set_max:
        return None
    nat, jok = _split(cards)
    if not nat or not _counts_ok(len(nat), len(jok), meld_rules):
        return None
    rank = nat[0].rank
    if any(c.rank != rank for c in nat):
        return None
    nat.sort(key=lambda c: (c.suit, c.copy))
    stands = [(rank, c.suit) for c in nat]
    if meld_rules.set_distinct_suits:
        suits = {c.suit for c in nat}
        if len(suits) != len(nat):
            return None
        missing = [s for s in range(4) if s not in suits]
        if len(jok) > len(missing):
            return None
        if len(jok) == len(missing):
            stands += [(rank, s) for s in missing]
        else:
            stands += [(rank, AMBIGUOUS)] * len(jok)
    else:
        stands += [(rank, AMBIGUOUS)] * len(jok)
    return Reading(SET, tuple(nat + jok), tuple(stands), rank=rank)


def read_meld(cards: Sequence[Card], meld_rules: MeldRules) -> Reading | None:
    """A new meld's reading: a run in written order, else a set, else a run in any order.

    Remembered by the cards as written and the meld rules, the whole of what
    it reads (both immutable, the reading too): the engine reads the same
    melds again at every rebuild of the table, and the bots the same
    candidate melds as a hand changes by a card or two."""
    key = (tuple(cards), meld_rules)
    try:
        return _READINGS[key]
    except KeyError:
        pass
    if len(_READINGS) >= _READINGS_MAX:
        _READINGS.clear()
    hit = _READINGS[key] = (
        read_run_in_order(key[0], meld_rules)
        or read_set(key[0], meld_rules)
        or read_run_any(key[0], meld_rules)
    )
    return hit


_READINGS: dict[tuple[tuple[Card, ...], MeldRules], Reading | None] = {}
_READINGS_MAX = 1 << 14  # entries of this memo and of lay_off_positional's (a few MB each at most)


def is_valid(cards: Sequence[Card], meld_rules: MeldRules) -> bool:
    return read_meld(cards, meld_rules) is not None


def why_invalid(cards: Sequence[Card], meld_rules: MeldRules) -> Reason:
    """A short reason a person can act on; only called for refused melds."""

    text = " ".join(format_card(c) for c in cards)
    nat, jok = _split(cards)
    if not nat:
        return Reason("no_natural", cards=text)
    if len(nat) < meld_rules.min_naturals:
        return Reason("min_naturals", cards=text, n=meld_rules.min_naturals)
    if meld_rules.max_jokers is not None and len(jok) > meld_rules.max_jokers:
        return Reason("max_jokers", cards=text, k=len(jok), n=meld_rules.max_jokers)
    same_suit = len({c.suit for c in nat}) == 1
    same_rank = len({c.rank for c in nat}) == 1
    if (same_rank and not same_suit) or (same_rank and len(nat) == 1):
        if len(cards) < meld_rules.set_min:
            return Reason("set_short", cards=text, n=meld_rules.set_min)
        if len(cards) > meld_rules.set_max:
            return Reason("set_long", cards=text, n=meld_rules.set_max)
        if meld_rules.set_distinct_suits:
            return Reason("set_suits", cards=text)
    if same_suit:
        if len(cards) < meld_rules.run_min:
            return Reason("run_short", cards=text, n=meld_rules.run_min)
        ranks = sorted(c.rank for c in nat)
        if len(set(ranks)) != len(ranks):
            return Reason("run_repeat", cards=text)
        if not meld_rules.wrap and 1 in ranks and 13 in ranks and 2 in ranks:
            return Reason("run_corner", cards=text)
        return Reason("run_gap", cards=text)
    return Reason("no_meld_kind", cards=text)


# ----------------------------------------------------------------- points


def meld_points(reading: Reading, *, ace: int = 11, ace_low: int = 1, court: int = 10) -> int:
    """Opening value: each card (jokers too) at the face it stands for; an ace
    counts low only as the first card of a run (A-2-3)."""
    total = 0
    for i, (rank, _suit) in enumerate(reading.stands):
        if rank == 1:
            total += ace_low if (reading.kind == RUN and i == 0 and reading.start == 1) else ace
        elif rank >= 11:
            total += court
        else:
            total += rank
    return total


# ----------------------------------------------------------------- lay off and swap (places kept)


def lay_off_positional(
    reading: Reading,
    naturals: Sequence[Card],
    jokers: Sequence[tuple[Card, tuple[int, int] | None]],
    meld_rules: MeldRules,
) -> Reading | str:
    """Add cards to a table meld whose laid cards keep their places (reading 3
    and 4). Returns the new reading, or a reason for `invalid_meld`.

    Remembered, like `read_meld`, by everything it reads (the meld's reading,
    the cards as given, the meld rules; all immutable): the table's melds are
    asked about the same hand cards turn after turn."""
    try:
        key = (reading, tuple(naturals), tuple(jokers), meld_rules)
        return _LAID_OFF[key]
    except KeyError:
        pass
    except TypeError:  # a caller's unhashable joker entry: read it afresh
        return _lay_off_any(reading, naturals, jokers, meld_rules)
    if len(_LAID_OFF) >= _READINGS_MAX:
        _LAID_OFF.clear()
    got = _LAID_OFF[key] = _lay_off_any(reading, key[1], key[2], meld_rules)
    return got


_LAID_OFF: dict[tuple, Reading | str] = {}


def _lay_off_any(
    reading: Reading,
    naturals: Sequence[Card],
    jokers: Sequence[tuple[Card, tuple[int, int] | None]],
    meld_rules: MeldRules,
) -> Reading | str:
    if reading.kind == SET:
        return _lay_off_set(reading, naturals, [j for j, _ in jokers], meld_rules)
    return _lay_off_run(reading, naturals, jokers, meld_rules)


def _lay_off_set(
    reading: Reading, naturals: Sequence[Card], jokers: Sequence[Card], meld_rules: MeldRules
) -> Reading | str:
    held = {s for (_r, s) in reading.stands[: len(reading.cards) - reading.jokers]}
    fixed_joker_suits = {
        s for c, (_r, s) in zip(reading.cards, reading.stands) if c.is_joker and s != AMBIGUOUS
    }
    for c in naturals:
        if c.rank != reading.rank:
            return Reason("set_rank", card=format_card(c))
        if meld_rules.set_distinct_suits and c.suit in fixed_joker_suits:
            return Reason("set_joker_for", card=format_card(c))
        if meld_rules.set_distinct_suits and c.suit in held:
            return Reason("set_has_suit", card=format_card(c))
    new = read_set(list(reading.cards) + list(naturals) + list(jokers), meld_rules)
    if new is None:
        return Reason(
            "set_invalid",
            reason=why_invalid(list(reading.cards) + list(naturals) + list(jokers), meld_rules),
        )
    return new


def _lay_off_run(
    reading: Reading,
    naturals: Sequence[Card],
    jokers: Sequence[tuple[Card, tuple[int, int] | None]],
    meld_rules: MeldRules,
) -> Reading | str:
    lo, hi = reading.start, reading.end
    window = set(range(lo, hi + 1))
    for c in naturals:
        if c.suit != reading.suit:
            return Reason("run_suit", card=format_card(c))
    # Places of the run's own jokers, to name the card a joker stands for.
    joker_places = {lo + i for i, c in enumerate(reading.cards) if c.is_joker}

    def candidates(rank: int) -> list[int]:
        out = []
        for base in meld_rules.places_of(rank):
            for p in (base - 13, base, base + 13) if meld_rules.wrap else (base,):
                out.append(p)
        return out

    def fits(a: int, b: int) -> bool:
        if meld_rules.wrap:
            return b - a + 1 <= 13
        return meld_rules.window_ok(a, b)

    as_places: list[list[int]] = []
    for _j, face in jokers:
        if face is None:
            continue
        if face[1] != reading.suit:
            return Reason("run_joker_cannot", card=face_text(face))
        as_places.append([p for p in candidates(face[0]) if p not in window])
    nat_options = [[p for p in candidates(c.rank) if p not in window] for c in naturals]
    for c, opts in zip(naturals, nat_options):
        if not opts:
            if any(p in joker_places for p in candidates(c.rank)):
                return Reason("run_joker_for", card=format_card(c))
            return Reason("run_has_card", card=format_card(c))
    plain = [j for j, face in jokers if face is None]
    named = [j for j, face in jokers if face is not None]
    for choice in product(*nat_options, *as_places):
        nat_choice = choice[: len(naturals)]
        as_choice = choice[len(naturals) :]
        taken = list(nat_choice) + list(as_choice)
        if len(set(taken)) != len(taken):
            continue
        places: dict[int, Card] = {lo + i: c for i, c in enumerate(reading.cards)}
        for p, c in zip(nat_choice, naturals):
            places[p] = c
        for p, j in zip(as_choice, named):
            places[p] = j
        a, b = min(places), max(places)
        gaps = [p for p in range(a, b + 1) if p not in places]
        if len(gaps) > len(plain):
            continue
        free = list(plain)
        for p in gaps:
            places[p] = free.pop(0)
        while free:
            if fits(a, b + 1):
                b += 1
                places[b] = free.pop(0)
            elif fits(a - 1, b):
                a -= 1
                places[a] = free.pop(0)
            else:
                break
        if free:
            continue
        shift = 0
        if meld_rules.wrap:
            while a + shift < 1:
                shift += 13
            while a + shift > 13:
                shift -= 13
        if not fits(a, b) or b - a + 1 != len(places):
            continue
        cards = [places[p] for p in range(a, b + 1)]
        nat = [c for c in cards if not c.is_joker]
        if not _counts_ok(len(nat), len(cards) - len(nat), meld_rules):
            return Reason("run_jokers", n=len(cards) - len(nat))
        stands = tuple((rank_at(p), reading.suit) for p in range(a, b + 1))
        return Reading(RUN, tuple(cards), stands, start=a + shift, suit=reading.suit)
    for c in naturals:
        if any(p in joker_places for p in candidates(c.rank)):
            return Reason("run_joker_for", card=format_card(c))
        if any(p in window for p in candidates(c.rank)):
            return Reason("run_has_card", card=format_card(c))
    return Reason("run_ends")


def face_text(face: tuple[int, int]) -> str:

    return format_card(Card(face[0], face[1] if face[1] >= 0 else 0, 0))


def swap_positional(
    reading: Reading, given: Sequence[Card], meld_rules: MeldRules, set_any: bool = False
) -> tuple[Reading, Card] | str:
    """Give natural cards for one joker of a meld whose jokers keep their
    places. Returns (new reading, freed joker) or a reason for
    `joker_swap_forbidden`."""
    if reading.jokers == 0:
        return Reason("no_joker_there")
    if any(c.is_joker for c in given):
        return Reason("joker_for_joker")
    if reading.kind == RUN:
        if len(given) != 1:
            return Reason("run_swap_one")
        c = given[0]
        for i, (card, face) in enumerate(zip(reading.cards, reading.stands)):
            if card.is_joker and face == c.face:
                cards = list(reading.cards)
                cards[i] = c
                return Reading(
                    RUN, tuple(cards), reading.stands, start=reading.start, suit=reading.suit
                ), card
        return Reason("run_no_joker_for", card=format_card(c))
    # A set.
    jokers = [c for c in reading.cards if c.is_joker]
    nat = [c for c in reading.cards if not c.is_joker]
    if any(c.rank != reading.rank for c in given):
        return Reason("swap_rank")
    suits = [c.suit for c in given]
    if len(set(suits)) != len(suits) or any(s in {c.suit for c in nat} for s in suits):
        return Reason("swap_suit")
    if len(given) == 1:
        c = given[0]
        fixed = [
            face
            for card, face in zip(reading.cards, reading.stands)
            if card.is_joker and face[1] != AMBIGUOUS
        ]
        if c.face in fixed or set_any:
            new = read_set(nat + [c] + jokers[1:], meld_rules)
            if new is not None:
                return new, jokers[0]
        if len(reading.cards) == 3:
            return Reason("swap_both")
        return Reason("set_no_joker_for", card=format_card(c))
    if len(given) == 2:
        if len(reading.cards) != 3 or len(jokers) != 1:
            return Reason("swap_two")
        new = read_set(nat + list(given), meld_rules)
        if new is None:
            return Reason("swap_invalid")
        return new, jokers[0]
    return Reason("swap_count")


def might_join(cards: Sequence[Card], c: Card) -> bool:
    """False when `c` surely fits no meld with `cards`: a natural whose suit and
    rank both differ from some natural there (a run's naturals share a suit, a
    set's a rank). A cheap test before the meld readers (`Rules.could_join`)."""
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


# A meld reading's join mask, found by identity: a table meld stays
# unchanged for many turns while every hand face is asked of it (each entry
# keeps its reading, so an id is never reused while it is remembered; bounded).
_JOINABLE: dict[int, tuple[Reading, int]] = {}
_JOINABLE_MAX = 4096


def joinable_faces(r: Reading) -> int:
    """The faces `might_join` lets through for this meld, as a bit mask of
    face indices (`cards.bits.join_mask`), remembered per reading."""
    hit = _JOINABLE.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    if len(_JOINABLE) >= _JOINABLE_MAX:
        _JOINABLE.clear()
    mask = join_mask(r.cards)
    _JOINABLE[id(r)] = (r, mask)
    return mask


def might_join_reading(r: Reading, c: Card) -> bool:
    """`might_join(r.cards, c)`, one bit of the reading's remembered mask."""
    return bool(joinable_faces(r) >> FACE_OF[c] & 1)


# the answers per meld rules, found by identity (hashing the frozen rules at
# every question cost more than the lookup); each entry holds its rules, so
# an id is never reused while it is remembered
_JOINS: dict[int, tuple[MeldRules, dict[tuple, bool]]] = {}
_JOINS_MAX = 1 << 15


def joins_meld(cards: tuple[Card, ...], c: Card, meld_rules: MeldRules) -> bool:
    """`cards` plus `c` still read as one meld, jokers free to stand anywhere:
    the one "could this card join that meld" question, asked by the engine's
    rules (`Rules.could_join`) and by the bots' lay-off search. Remembered,
    refusals too (bounded): the same melds and hand cards come back turn after
    turn."""
    entry = _JOINS.get(id(meld_rules))
    if entry is None or entry[0] is not meld_rules:
        entry = _JOINS[id(meld_rules)] = (meld_rules, {})
    known = entry[1]
    key = (cards, c)
    hit = known.get(key)
    if hit is None:
        if len(known) >= _JOINS_MAX:
            known.clear()
        hit = known[key] = might_join(cards, c) and read_meld([*cards, c], meld_rules) is not None
    return hit
