"""`best_opening`: the opening from the hand alone that meets the profile's opening settings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from rami_core.cards import JOKER, Card
from rami_core.cards.melds import RUN, SET, MeldRules, Reading, meld_points, read_meld
from rami_core.solver.results import DEFAULT_OPTIONS, SolverOptions
from rami_core.solver.sweep import PURE_ENV, pure_asked


@cache
def compiled_opening() -> Any:
    """The C module of :func:`best_opening`'s search (``_openingc``, the twin
    of its Python ``rec``: the same states in the same order, the same
    answer, a cut search's included), or None: not built on this machine, or
    ``RAMI_SOLVER_PURE=1`` or ``RAMI_PURE=1`` (every compiled hot path off)
    in the environment. Read once per process."""
    if pure_asked(PURE_ENV):
        return None
    try:
        from rami_core.solver import _openingc  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _openingc


@lru_cache(maxsize=256)
def _window_places(rules: MeldRules, jmax: int, split_long_runs: bool) -> tuple[tuple[int, int], ...]:
    """The runs' windows as (first place, places count), in the order the
    candidates are built (:func:`_run_windows`)."""
    L = rules.run_min
    N = max(1, rules.min_naturals)
    lo_b, hi_b = rules.low_bound, rules.high_bound
    if rules.wrap:
        return tuple((lo, n) for n in range(L, 14) for lo in range(1, 14))
    # every piece of L places holds N naturals when jmax <= L - N: then every
    # run of 2L places or more splits
    longest = 2 * L - 1 if split_long_runs and jmax <= L - N else hi_b - lo_b + 1
    return tuple(
        (lo, n) for n in range(L, min(longest, hi_b - lo_b + 1) + 1) for lo in range(lo_b, hi_b - n + 2)
    )


@lru_cache(maxsize=256)
def _run_windows(rules: MeldRules, jmax: int, split_long_runs: bool) -> tuple[tuple[tuple, ...], ...]:
    """Per suit, the runs' windows as (places count, faces at the places, bit
    mask of the ranks at the places or None where a rank comes twice: an ace at
    both ends), in the order the candidates are built: a function of the rules
    alone."""
    windows = _window_places(rules, jmax, split_long_runs)
    out = []
    for s in range(4):
        per_suit = []
        for lo, n in windows:
            faces = tuple(((lo + i - 1) % 13 + 1, s) for i in range(n))
            mask = 0
            for r, _s in faces:
                mask |= 1 << r
            per_suit.append((n, faces, mask if mask.bit_count() == n else None))
        out.append(tuple(per_suit))
    return tuple(out)


def _meld_candidates_with_points(
    hand: Sequence[Card], rules: MeldRules, allow_jokers: bool, score: dict, split_long_runs: bool = True
):
    """Every meld buildable from the hand, as (cards written in order, reading, points).

    Each meld multiset appears with the written order giving it the most points
    (the engine reads the meld in the order it is written).

    Built from pieces, in the order the whole-hand enumeration built them:
    the runs of each suit, then the sets of each rank (:func:`_run_piece`,
    :func:`_set_piece`). A piece is a function of the faces it may use (a
    suit's ranks held, a rank's suits held), the count of jokers, the rules,
    the score and the split flag: remembered by those (bounded, in
    `_PIECES`), as plain data (each meld as the places of its cards in the
    piece's source cards, its reading but for the cards, the places of the
    reading's cards among the meld's, points). Each hand rebuilds the card
    lists and readings from its own Card objects: every reader of
    `read_meld` orders a meld's cards by their faces and places alone
    (:func:`_consider`). Where a rank's copies may meet in one set (suits
    not distinct) the order of copies matters: those pieces are remembered
    by the cards' values."""
    nat = [c for c in hand if not c.is_joker]
    jok = [c for c in hand if c.is_joker] if allow_jokers else []
    by_face: dict[tuple[int, int], list[Card]] = {}
    for c in nat:
        by_face.setdefault(c.face, []).append(c)
    jmax = len(jok) if rules.max_jokers is None else min(len(jok), rules.max_jokers)
    # runs pop jokers from the end of the hand's jokers, sets take them from the front
    jtail = tuple(jok[len(jok) - jmax :]) if jmax else ()
    jhead = tuple(jok[:jmax])
    try:
        score_key: tuple | None = tuple(sorted(score.items()))
        hash(score_key)
    except TypeError:
        score_key = None  # not hashable: every piece built afresh, not remembered
    entry = _PIECES.get(rules)
    if entry is None:
        if len(_PIECES) >= _PIECES_RULES_MAX:
            _PIECES.clear()
        entry = _PIECES[rules] = ({}, {})
    memo, by_score = entry
    if len(memo) >= _PIECES_MAX:
        memo.clear()
    reads = wins = None
    if score_key is not None:
        got = by_score.get(score_key)
        if got is None or len(got[0]) >= _READS_MAX or len(got[1]) >= _READS_MAX:
            if len(by_score) >= _PIECES_RULES_MAX:
                by_score.clear()
            got = by_score[score_key] = ({}, {})
        reads, wins = got
    out: list[tuple[list[Card], Reading, int]] = []
    # Candidates of different pieces share a multiset only when each holds
    # one natural (a run's and a set's, the same card and jokers): only those
    # are deduplicated across pieces, as `consider` did over the whole hand.
    loose: dict[tuple, int] = {}
    loose_pure: dict[tuple, bool] = {}

    def add(src: tuple, piece: tuple) -> None:
        for idx, (kind, stands, start, suit, rank), perm, pts, one, pure in piece:
            cards = list(map(src.__getitem__, idx))
            reading = Reading(kind, tuple(map(cards.__getitem__, perm)), stands, start, suit, rank)
            if not one:
                out.append((cards, reading, pts))
                continue
            key = tuple(sorted(cards))
            at = loose.get(key)
            if at is None:
                loose[key] = len(out)
                loose_pure[key] = pure
                out.append((cards, reading, pts))
                continue
            old = out[at]
            if pts > old[2] or (pts == old[2] and pure and not loose_pure[key]):
                out[at] = (cards, reading, pts)
                loose_pure[key] = pure

    distinct = rules.set_distinct_suits
    # the first copy of each face held, per suit in rank order; per rank in
    # suit order (every copy where a set's suits need not differ)
    suits: list[list[Card]] = [[], [], [], []]
    ranks: dict[int, list[Card]] = {}
    for f in sorted(by_face):
        copies = by_face[f]
        suits[f[1]].append(copies[0])
        if distinct:
            ranks.setdefault(f[0], []).append(copies[0])
        else:
            ranks.setdefault(f[0], []).extend(copies)
    for su in range(4):
        nats = tuple(suits[su])
        if not nats:
            continue
        mask = 0
        for c in nats:
            mask |= 1 << c.rank
        src = nats + jtail
        mkey: tuple = (0, su, mask, jmax, split_long_runs, score_key)
        piece = memo.get(mkey) if score_key is not None else None
        if piece is None:
            uniq = len(set(src)) == len(src)
            piece = _run_piece(su, nats, jtail, rules, score, split_long_runs, reads if uniq else None, wins)
            if score_key is not None and uniq:
                memo[mkey] = piece
        add(src, piece)
    for r, held in ranks.items():
        of_rank = tuple(held)
        src = of_rank + jhead
        if distinct:
            mask = 0
            for c in of_rank:
                mask |= 1 << c.suit
            mkey = (1, r, mask, jmax, score_key)
        else:
            mkey = (2, r, src, jmax, score_key)
        piece = memo.get(mkey) if score_key is not None else None
        if piece is None:
            uniq = len(set(src)) == len(src)
            piece = _set_piece(of_rank, jhead, rules, score, reads if uniq and distinct else None)
            if score_key is not None and uniq:
                memo[mkey] = piece
        add(src, piece)
    return out


# the pieces of :func:`_meld_candidates_with_points` per meld rules, by their
# value (hashed once a call): every game builds its own MeldRules, equal to
# the last game's, and its hands find the pieces the earlier games left
_PIECES: dict[MeldRules, tuple[dict[tuple, tuple], dict[tuple, tuple[dict, dict]]]] = {}
# Bounded for a process that meets many profiles (a table server's pasted
# house files): at most two meld rules and two scorings each are kept, about
# 35 MB in all at worst; a process playing one profile (a simulation, a
# learning run) keeps all it needs (some 7,000 pieces after 40,000 Kaluki steps).
_PIECES_RULES_MAX = 2  # meld rules kept, and scorings kept per meld rules
_PIECES_MAX = 1 << 13  # pieces remembered per meld rules (~1.2 kB each; then forgotten all at once)
_READS_MAX = 1 << 13  # face-level readings, and windows' runs, remembered per meld rules and score
_NO_READING: tuple = ()  # a face-level reading: none
_JOKER_FACE = JOKER.face


def forget_candidate_pieces() -> None:
    """Drop the remembered pieces and face-level readings of
    :func:`_meld_candidates_with_points` (a benchmark's rows start cold)."""
    _PIECES.clear()


def _piece(nnat: int, found: dict[tuple, tuple]) -> tuple:
    """A piece: its candidates in the order first seen, as (places of the
    meld's cards in the piece's source cards (`nnat` naturals, then
    jokers), the reading but for its cards (:func:`_read_faces`), the places
    of the reading's cards among the meld's, points, whether it holds one
    natural, pure). Plain data, the same for every hand of the same faces:
    each hand builds its readings from its own cards."""
    return tuple(
        (idx, face, perm, pts, sum(1 for i in idx if i < nnat) == 1, pure)
        for idx, face, pts, pure, perm in found.values()
    )


def _read_faces(cards: list[Card], rules: MeldRules, score: dict) -> tuple:
    """`read_meld`'s answer on these cards (distinct values) as
    :func:`_consider`'s `reads` remember it: (the reading's kind, stands,
    start, suit and rank, the places of its cards among `cards`, points,
    pure), or ``_NO_READING``."""
    reading = read_meld(cards, rules)
    if reading is None:
        return _NO_READING
    at = {c: j for j, c in enumerate(cards)}
    perm = tuple([at[c] for c in reading.cards])
    # the reading but for its cards, as a tuple (plain data the garbage
    # collector stops tracking: these memos hold tens of thousands)
    face = (reading.kind, reading.stands, reading.start, reading.suit, reading.rank)
    return face, perm, meld_points(reading, **score), reading.pure


def _consider(
    found: dict, src: tuple, idx: tuple, pat: tuple, rules: MeldRules, score: dict, reads: dict | None
) -> None:
    """Read the meld of these source cards; keep it where its multiset is new
    or it reads for more points (ties: pure wins; else the first seen).

    ``reads``: `read_meld`'s answers by the meld's faces `pat` (jokers all
    one face) and these rules and score, as :func:`_read_faces` gives them,
    or None where the piece's cards may repeat a value or a face (then each
    meld is read as it is). What
    `read_meld` answers depends on the faces as written alone, but for the
    Card objects in the reading: `read_run_in_order` keeps the written
    order, `read_set` puts the naturals by suit (distinct wherever `reads`
    is given: two copies of a face in one set are sorted by their copies)
    then the jokers as written, `read_run_any` the naturals by rank
    (distinct, or no run) and the jokers popped from the end as written;
    none looks at a card's copy otherwise. With the source cards' values
    distinct, a reading's card is found among the meld's by its value, and
    another meld of the same faces takes the reading over with its own
    cards at those places."""
    if reads is None:
        cards = [src[i] for i in idx]
        # the cards may repeat a value: a reading's card found by its value
        # is then one of equal value, the reading rebuilt equal
        read = _read_faces(cards, rules, score)
        if read is _NO_READING:
            return
        face, perm, pts, pure = read
        key = tuple(sorted(cards))
        got: tuple = (idx, face, pts, pure, perm)
    else:
        hit = reads.get(pat)
        if hit is None:
            hit = reads[pat] = _read_faces([src[i] for i in idx], rules, score)
        if hit is _NO_READING:
            return
        reading, perm, pts, pure = hit
        key = tuple(sorted(idx))  # the cards' values are distinct: their places say the multiset
        got = (idx, reading, pts, pure, perm)
    old = found.get(key)
    if old is None or pts > old[2] or (pts == old[2] and pure and not old[3]):
        found[key] = got


def _run_piece(
    su: int,
    nats: tuple,
    jtail: tuple,
    rules: MeldRules,
    score: dict,
    split_long_runs: bool,
    reads: dict | None,
    wins: dict | None,
) -> tuple:
    """The runs of suit `su` from its naturals `nats` (the first copy of each
    rank held, in rank order) and the jokers `jtail` runs may take (popped
    from the end), as :func:`_piece` gives them; the source cards are `nats`
    then `jtail`.

    Written in place order, jokers at their places. A run that splits into
    two valid runs is left out: the two halves lay the same cards for the
    same points (no half starts at place 1 unless the whole run does), and
    are pure wherever the whole run is. Wrapping runs are all kept (a half
    starting on the ace would count it low).

    Where `reads` is given (the cards' values distinct), each window's runs
    come from `wins`, remembered by the window, its places held and the
    jokers' count (:func:`_window_runs`), and two runs are the same multiset
    when they hold the same ranks at as many places with as many jokers."""
    jmax = len(jtail)
    pos = {(c.rank, su): i for i, c in enumerate(nats)}
    held = 0
    for c in nats:
        held |= 1 << c.rank
    found: dict[tuple, tuple] = {}
    src = nats + jtail
    last = len(src) - 1
    # a bit per place whose rank is held: place p holds rank (p - 1) % 13 + 1
    # (places past 13: an ace high, or a wrapping run)
    by_place = held | (held << 13)
    starts = _window_places(rules, jmax, split_long_runs)
    for wi, (n, faces, _mask) in enumerate(_run_windows(rules, jmax, split_long_runs)[su]):
        bits = (by_place >> starts[wi][0]) & ((1 << n) - 1)  # the window's places held
        if bits.bit_count() + jmax < n:
            continue  # too few naturals
        present = [i for i in range(n) if bits >> i & 1]
        if reads is None or wins is None:
            _window_runs_exact(found, src, faces, present, pos, last, rules, score, split_long_runs, jmax)
            continue
        wkey = (su, wi, bits, jmax, split_long_runs)
        runs = wins.get(wkey)
        if runs is None:
            runs = wins[wkey] = _window_runs(
                faces, present, rules, score, split_long_runs, jmax, reads, src, pos
            )
        for dkey, chosen, reading, perm, pts, pure in runs:
            old = found.get(dkey)
            if old is None or pts > old[3] or (pts == old[3] and pure and not old[4]):
                found[dkey] = (faces, chosen, reading, pts, pure, perm)
    if reads is not None and wins is not None:  # the winners' cards as places in `src`
        for dkey, (faces, chosen, reading, pts, pure, perm) in found.items():
            found[dkey] = (_run_places(faces, chosen, pos, last), reading, pts, pure, perm)
    return _piece(len(nats), found)


def _run_places(faces: tuple, chosen: AbstractSet[int] | tuple[int, ...], pos: dict, last: int) -> tuple:
    """A run's cards as places in the piece's source cards: the naturals at
    the chosen places of the window, jokers popped from the end elsewhere."""
    j = last
    idx = []
    for i, f in enumerate(faces):
        if i in chosen:
            idx.append(pos[f])
        else:
            idx.append(j)
            j -= 1
    return tuple(idx)


def _window_runs(
    faces: tuple,
    present: list[int],
    rules: MeldRules,
    score: dict,
    split_long_runs: bool,
    jmax: int,
    reads: dict,
    src: tuple,
    pos: dict,
) -> tuple:
    """A window's runs that read, in the order built, as (the multiset as
    (bit mask of the ranks, places of naturals, jokers), the places taking
    naturals, the face-level reading, the places of its cards, points,
    pure): a function of the window, the places held and the jokers' count
    (and the rules and score). Read through `reads` on this piece's cards
    (:func:`_consider`)."""
    n = len(faces)
    L = rules.run_min
    N = max(1, rules.min_naturals)
    k_min = max(1, rules.min_naturals)
    last = len(src) - 1
    out = []
    for k in range(max(k_min, n - jmax), len(present) + 1):
        for chosen in combinations(present, k):
            cs = frozenset(chosen)
            if split_long_runs and n >= 2 * L and not rules.wrap and _splits(cs, n, L, N):
                continue
            pat = tuple([f if i in cs else _JOKER_FACE for i, f in enumerate(faces)])
            hit = reads.get(pat)
            if hit is None:
                cards = [src[i] for i in _run_places(faces, cs, pos, last)]
                hit = reads[pat] = _read_faces(cards, rules, score)
            if hit is _NO_READING:
                continue
            reading, perm, pts, pure = hit
            ranks = 0
            for i in chosen:
                ranks |= 1 << faces[i][0]
            out.append(((ranks, k, n - k), chosen, reading, perm, pts, pure))
    return tuple(out)


def _window_runs_exact(
    found: dict,
    src: tuple,
    faces: tuple,
    present: list[int],
    pos: dict,
    last: int,
    rules: MeldRules,
    score: dict,
    split_long_runs: bool,
    jmax: int,
) -> None:
    """A window's runs, each read as it is (the piece's cards may repeat a
    value), into `found`."""
    n = len(faces)
    L = rules.run_min
    N = max(1, rules.min_naturals)
    k_min = max(1, rules.min_naturals)
    for k in range(max(k_min, n - jmax), len(present) + 1):
        for chosen in combinations(present, k):
            cs = set(chosen)
            if split_long_runs and n >= 2 * L and not rules.wrap and _splits(cs, n, L, N):
                continue
            _consider(found, src, _run_places(faces, cs, pos, last), (), rules, score, None)


def _set_piece(of_rank: tuple, jhead: tuple, rules: MeldRules, score: dict, reads: dict | None) -> tuple:
    """The sets of one rank from its naturals `of_rank` (one a suit where the
    suits must differ, else every copy) and the jokers `jhead` sets may take
    (from the front), as :func:`_piece` gives them; the source cards are
    `of_rank` then `jhead`."""
    jmax = len(jhead)
    size_max = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
    m = len(of_rank)
    src = of_rank + jhead
    faces = [c.face for c in src]
    found: dict[tuple, tuple] = {}
    for n in range(max(1, rules.min_naturals), min(m, size_max) + 1):
        for combo in combinations(range(m), n):
            for j in range(jmax + 1):
                if rules.set_min <= n + j <= size_max:
                    idx = combo + tuple(range(m, m + j))
                    _consider(found, src, idx, tuple([faces[i] for i in idx]), rules, score, reads)
    return _piece(m, found)


def _splits(naturals: AbstractSet[int], n: int, L: int, N: int) -> bool:
    """A run of n places with naturals at these places splits into two runs of
    at least L places and N naturals each."""
    for k in range(L, n - L + 1):
        first = sum(1 for i in naturals if i < k)
        if first >= N and len(naturals) - first >= N:
            return True
    return False


_PURE, _A_RUN, _A_SET = 1, 2, 4  # what an opening holds, as bits (best_opening)
OPENING_MAX_STATES = 1_000_000  # search steps of best_opening unless the caller names a limit


class StateBudget:
    """Search states several searches share (a count, never seconds: a seed
    gives the same answer on every machine). Each search given it spends
    from `left`; `cut` turns true once one of them stopped for want of
    states (its answer is then the best found, not proven the best)."""

    __slots__ = ("cut", "left")

    def __init__(self, states: int):
        self.left = max(0, int(states))
        self.cut = False

    def spend(self, states: int, limit: int) -> None:
        """`states` spent by a search allowed `limit`: cut when it used them all."""
        self.left = max(0, self.left - states)
        if states >= limit:
            self.cut = True


def _search(
    by_first: list[list[tuple]],
    left: list[int],
    need_points: int,
    need_kinds: int,
    limit: int,
    total_cards: int,
) -> tuple[int, list[tuple[int, int]] | None]:
    """:func:`best_opening`'s exact search, in Python: the reference, of which
    ``_openingc.c``'s ``search`` (same arguments, same answer) is the twin in
    C, state for state.

    ``by_first[f]``: the candidates whose lowest face is the face index f, as
    (needs as (face index, count) pairs, cards laid, points, kinds bits, the
    cards), in the order they are tried; ``left``: the copies of each face in the hand
    (``total_cards`` in all). The best opening lays the most cards (ties:
    the most points), holds ``need_points`` and every kind of
    ``need_kinds``. Answers (states visited, the best opening's candidates
    as (f, index in by_first[f]) in the order chosen, or None); past
    ``limit`` states, the best found so far."""
    left = list(left)
    nfaces = len(left)
    best_value = (-1, -1)
    best: list[tuple[int, int]] | None = None
    calls = 0

    def rec(start: int, chosen: list, ncards: int, pts: int, kinds: int, remaining: int):
        """Faces before `start` are all used up (or left out)."""
        nonlocal calls, best_value, best
        if ncards + remaining < best_value[0] or calls >= limit:
            return
        calls += 1
        if pts >= need_points and kinds & need_kinds == need_kinds and chosen and (ncards, pts) > best_value:
            best_value = (ncards, pts)
            best = list(chosen)
        first = start
        while first < nfaces and not left[first]:
            first += 1
        if first == nfaces:
            return
        for j, (need, n, p, rkinds, _cards) in enumerate(by_first[first]):
            for f, k in need:
                if left[f] < k:
                    break
            else:
                for f, k in need:
                    left[f] -= k
                chosen.append((first, j))
                rec(first, chosen, ncards + n, pts + p, kinds | rkinds, remaining - n)
                chosen.pop()
                for f, k in need:
                    left[f] += k
        # or leave one copy of `first` out of every meld
        left[first] -= 1
        rec(first, chosen, ncards, pts, kinds, remaining - 1)
        left[first] += 1

    rec(0, [], 0, 0, 0, total_cards)
    return calls, best


def best_opening(
    hand: Sequence[Card],
    rules: MeldRules,
    opening,
    *,
    score: dict | None = None,
    options: SolverOptions = DEFAULT_OPTIONS,
    max_states: int | None = None,
    budget: StateBudget | None = None,
) -> list[list[Card]] | None:
    """The opening (melds from the hand only) that meets the opening settings and
    lays the most cards (ties: the most points), or None if there is none.

    ``opening`` is a ``profile.Opening`` (points, pure_run, run_and_set, jokers).
    Points follow ``meld_points`` on the meld as it is written (an ace counts 1
    at the bottom of a run, 11 elsewhere; a joker as the face it stands for);
    ``score`` passes ``ace``, ``ace_low`` and ``court`` to it. ``max_states``
    bounds the search (default :data:`OPENING_MAX_STATES`); past it the best
    opening found so far is returned. ``budget``: a :class:`StateBudget`
    shared with other searches: the search takes at most what is left of it
    (and ``max_states``), spends what it used and marks it cut when it ran out.
    ``options.compiled``: the search runs in C where it was built
    (:func:`compiled_opening`; False: in Python), with the same answer and
    the same count of states either way."""
    score = dict(score or {})
    need_points = getattr(opening, "points", 0) or 0
    need_pure = bool(getattr(opening, "pure_run", False))
    need_run_set = bool(getattr(opening, "run_and_set", False))
    allow_jokers = bool(getattr(opening, "jokers", True))
    hand = list(hand)
    cands = _meld_candidates_with_points(hand, rules, allow_jokers, score, options.split_long_runs)
    if not cands:
        return None
    # Faces matter, copies not: the hand is a count per face (faces in sorted
    # order, by index), each candidate the counts it needs; candidates are
    # indexed by their lowest face (exact cover style search).
    # Faces in no candidate are left out of the search: its every node at
    # them was a forced "leave it out" step, and its bound counted them as
    # cards that might still be laid (the answers are the same; over the
    # openings asked in 200 Rami 51 rounds, 7% fewer search steps).
    face_of = lambda c: c.face  # noqa: E731
    items = []
    for cards, reading, pts in cands:
        fneed = Counter(face_of(c) for c in cards)
        items.append((fneed, reading, pts, cards))
    live = {f for it in items for f in it[0]}
    pool = Counter(f for f in map(face_of, hand) if f in live)
    faces_sorted = sorted(pool)
    index = {f: i for i, f in enumerate(faces_sorted)}
    items.sort(key=lambda it: (-sum(it[0].values()), -it[2]))
    by_first: list[list[tuple]] = [[] for _ in faces_sorted]
    for fneed, reading, pts, cards in items:
        by_first[index[min(fneed)]].append(
            (
                tuple((index[f], k) for f, k in fneed.items()),
                sum(fneed.values()),
                pts,
                (_PURE if reading.pure else 0)
                | (_A_RUN if reading.kind == RUN else 0)
                | (_A_SET if reading.kind == SET else 0),
                cards,
            )
        )
    left = [pool[f] for f in faces_sorted]
    # what the melds chosen so far hold, as bits: a pure run, a run, a set
    need_kinds = (_PURE if need_pure else 0) | (_A_RUN | _A_SET if need_run_set else 0)
    # a count of search steps bounds the work: past it, the best opening found so far
    limit = OPENING_MAX_STATES if max_states is None else max_states
    if budget is not None:
        limit = min(limit, budget.left)
    total_cards = sum(pool.values())
    mod = compiled_opening() if options.compiled else None
    found = None
    if mod is not None:
        try:
            found = mod.search(by_first, left, need_points, need_kinds, limit, total_cards)
        except (ValueError, TypeError):
            # what the C search cannot hold (over a thousand cards, points or
            # a limit that are not ints, or out of its range): Python's then
            found = None
    if found is None:
        found = _search(by_first, left, need_points, need_kinds, limit, total_cards)
    calls, picked = found
    if budget is not None:
        budget.spend(calls, limit)
    if picked is None:
        return None
    best_melds = [by_first[f][j][4] for f, j in picked]
    # the candidates name the first copy of each face; give distinct physical cards
    spare: dict[tuple[int, int], list[Card]] = {}
    for c in hand:
        spare.setdefault(face_of(c), []).append(c)
    melds = []
    for cards in best_melds:
        melds.append([spare[face_of(c)].pop(0) for c in cards])
    return melds
