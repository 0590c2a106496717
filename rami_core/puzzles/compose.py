"""Generating puzzles: a solution first, then a table that hides it.

The generator works backwards, as a composer of chess problems does: it lays
out a final table (a few runs and sets in a narrow band of ranks, so that
they cross), takes some of its cards as the hand, and arranges what is left
into a different valid table: the position. The prover (:mod:`.prove`) then
decides: a candidate with a shortcut, a hand card that is not needed, more
solutions than counted, or a grade other than the one asked is dropped and
the next attempt made. Attempts are numbered and each draws from a random
generator seeded by ``(seed, attempt)``, so a seed and a difficulty always
give the same puzzle, on any machine.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rami_core.cards import Card
from rami_core.cards.melds import MeldRules, read_meld
from rami_core.puzzles.arrange import Arranger, Face, FaceMeld, faces
from rami_core.puzzles.format import Goal, Puzzle, PuzzleError, cards_text, meld_text
from rami_core.puzzles.grade import grade
from rami_core.puzzles.prove import Position, prove
from rami_core.solver import best_lay_offs
from rami_core.words.problems import Said

GENERATION_CAP = 30  # a candidate with more solutions than this is dropped
MAX_ATTEMPTS = 4000  # per puzzle: a difficulty not met by then is refused


@dataclass(frozen=True)
class Shape:
    """How large a table the attempts for a grade lay out (measured: the
    small tables give the one- and two-move puzzles, the large ones most
    of the deep ones)."""

    melds: tuple[int, int]  # fewest and most melds of the table
    hand: tuple[int, int]  # fewest and most hand cards
    band: int  # the width of the band of ranks the melds share


_SMALL = Shape((2, 3), (1, 1), 4)
_MIDDLE = Shape((4, 5), (1, 2), 4)
_DEEP = Shape((6, 7), (2, 3), 5)
_FLIP = Shape((4, 6), (1, 2), 4)  # a dense band: one card can turn runs into sets
SHAPES = {
    1: _SMALL,
    2: _SMALL,
    3: _MIDDLE,
    4: _DEEP,
    5: _DEEP,
    6: _DEEP,
    7: _DEEP,
    8: _DEEP,
    9: _FLIP,
    10: _FLIP,
}
# the shapes a collection's attempts take in turn (attempt n: the n-th,
# cyclically); measured (benchmarks/bench_puzzles.py): the dense band finds
# most puzzles per minute, the deep tables most of those of many moves
SCHEDULE = (_SMALL, _MIDDLE, _FLIP, _FLIP, _FLIP, _FLIP, _DEEP, _DEEP)


def _final_table(rng: random.Random, shape: Shape, decks: int) -> list[FaceMeld] | None:
    """A random table of runs and sets in a band of ranks, so that they cross
    (the prover checks every meld with the referee's reading)."""
    lo = rng.randint(1, 14 - shape.band)
    ranks = list(range(lo, lo + shape.band))
    used: Counter = Counter()
    melds: list[FaceMeld] = []
    for _ in range(rng.randint(*shape.melds)):
        for _try in range(20):
            if rng.random() < 0.55:
                suit = rng.randrange(4)
                length = rng.randint(3, min(5, shape.band))
                start = rng.randint(lo, lo + shape.band - length)
                meld = tuple((r, suit) for r in range(start, start + length))
            else:
                rank = rng.choice(ranks)
                suits = rng.sample(range(4), rng.choice((3, 3, 4)))
                meld = tuple((rank, s) for s in sorted(suits))
            if all(used[f] + 1 <= decks for f in meld):
                used.update(meld)
                melds.append(tuple(sorted(meld)))
                break
    return melds if len(melds) >= shape.melds[0] else None


def attempt(seed: int, n: int, difficulty: int | None, variant: str = "voleur") -> Puzzle | None:
    """Attempt ``n`` for a seed: a proven puzzle, or None where it fails a claim."""
    rng = random.Random(f"rami-puzzle:{seed}:{n}")
    # A grade asked for takes the collection's rotation of shapes: a grade's
    # own shape alone can be rare ground for it (grade 5, exactly five moves,
    # ran past 300 s on the deep tables; the rotation finds every grade within
    # seconds on seeds 3 and 4, measured).
    shape = SCHEDULE[n % len(SCHEDULE)] if difficulty else SHAPES[rng.randint(1, 10)]
    return _attempt_shape(seed, n, shape, difficulty, variant, rng)


def _attempt_shape(
    seed: int,
    n: int,
    shape: Shape,
    difficulty: int | None = None,
    variant: str = "voleur",
    rng: random.Random | None = None,
) -> Puzzle | None:
    rng = rng or random.Random(f"rami-puzzle:{seed}:{n}")
    probe = _probe(variant)
    rules = probe.rules
    table = _final_table(rng, shape, rules.decks)
    if table is None:
        return None
    used = Counter(f for m in table for f in m)
    lo = min(f[0] for m in table for f in m)
    hi = max(f[0] for m in table for f in m)
    suits = sorted({f[1] for m in table for f in m})
    pool = [
        (r, s)
        for r in range(max(1, lo - 1), min(13, hi + 1) + 1)
        for s in suits
        for _ in range(rules.decks - used[(r, s)])
    ]
    table_cards = [[Card(f[0], f[1], 0) for f in m] for m in table]
    # the cards that a rearrangement can take alone: a hand drawn from them
    # is far likelier to be laid whole
    fits = [f for f in dict.fromkeys(pool) if _fits(variant, table_cards, f)]
    pool = [f for f in pool if f in fits]
    k = rng.randint(*shape.hand)
    if k > len(pool):
        return None
    hand = sorted(rng.sample(pool, k))
    hand_cards = [Card(f[0], f[1], 0) for f in hand]
    try:
        pos = Position.of(variant, table_cards, hand_cards, Goal())
        # the cheap filter first: some final table holds the whole hand
        if not _some_table(rules.melds, [f for m in table for f in m] + hand):
            return None
        proved = prove(pos, cap=GENERATION_CAP)
    except PuzzleError:
        return None
    proof = proved.proof
    if not proof.every_card_needed or proof.solutions_capped:
        return None
    got = grade(proof)
    if difficulty is not None and got != difficulty:
        return None
    return Puzzle(
        id=f"{_name(variant)}-{seed}-{n}",
        variant=variant,
        table=[meld_text(Card(f[0], f[1], 0) for f in m) for m in _in_order(tuple(table))],
        hand=cards_text(hand_cards),
        seed=seed,
        difficulty=got,
        proof=proof,
    )


def _fits(variant: str, table: list[list[Card]], f: Face) -> bool:
    """Whether a rearrangement of the table lays this card alone, and laying
    it off onto a meld as it lies does not. Both are facts of the position
    (an exact enumeration, an exact lay-off search): the generator draws the
    same hands whatever budgets or search order the solver and the bots
    have, so a seed keeps its puzzles across versions."""
    rules = _probe(variant).rules.melds
    if not _some_table(rules, [g for m in table for g in faces(m)] + [f]):
        return False
    readings = [read_meld(_copies(m), rules) for m in table]
    return not best_lay_offs(readings, [Card(f[0], f[1], 0)], rules).laid  # type: ignore[arg-type]


def _some_table(rules: MeldRules, cards: list[Face]) -> bool:
    """Whether these cards can all lie in valid melds (the enumeration, stopped
    at the first table it finds)."""
    return bool(Arranger(rules, cap=1).partitions(cards))


def _copies(meld: list[Card]) -> list[Card]:
    seen: Counter = Counter()
    out = []
    for c in meld:
        out.append(Card(c.rank, c.suit, seen[c.face]))
        seen[c.face] += 1
    return out


def _name(variant: str) -> str:
    """A variant as the start of an id: a house file by its name, not its path."""
    return Path(variant).stem if variant.endswith((".yaml", ".yml")) else variant


_PROBES: dict[str, Position] = {}


def _probe(variant: str) -> Position:
    """A trivial position of the variant: its rules, loaded once."""
    if variant not in _PROBES:
        _PROBES[variant] = Position.of(
            variant, [[Card(5, 0, 0), Card(5, 1, 0), Card(5, 2, 0)]], [Card(9, 0, 0)], Goal()
        )
    return _PROBES[variant]


def _in_order(table: tuple[FaceMeld, ...]) -> list[FaceMeld]:
    """Melds as they would lie: runs before sets, each from its lowest card."""
    return sorted(table, key=lambda m: (len({f[1] for f in m}) > 1, m[0][1], m[0][0]))


def generate(
    seed: int, difficulty: int | None = None, variant: str = "voleur", attempts: int = MAX_ATTEMPTS
) -> Puzzle:
    """The puzzle of a seed (at a difficulty, when one is asked)."""
    for n in range(attempts):
        pz = attempt(seed, n, difficulty, variant)
        if pz is not None:
            return pz
    if difficulty is None:
        raise PuzzleError(Said("puzzle_not_found_any", seed=seed, attempts=attempts))
    raise PuzzleError(Said("puzzle_not_found", difficulty=difficulty, seed=seed, attempts=attempts))


def _faces_text(fs: list[Face]) -> str:  # pragma: no cover - a debugging aid
    return cards_text(Card(f[0], f[1], 0) for f in fs)
