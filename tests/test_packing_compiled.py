"""The compiled packing bounds (``rami_core/rl/_packingc.c``) answer as the
Python dynamic program (`PackingBounds._best_of_python`): the same dict for
every room and both `jokerless` flags, its entries in the same order (the
order `opening_in_reach` meets them in), and the same entries written to the
shared memo in the same order, over seeded random hands of every preset, their
random sub-multisets, a game's memo shared from hand to hand, and the cases
the C side hands back to Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

# rami_core.rl's package imports the environments' libraries.
pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")

from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for
from rami_core.rl import packing
from rami_core.rl.faces import FACES, JOKER_INDEX

# Imported whatever RAMI_PURE says (it turns the compiled side off in the
# environments, not here: each test below sets it on its bounds).
_C = pytest.importorskip(
    "rami_core.rl._packingc",
    reason="the _packingc extension is not built here (python setup.py build_ext --inplace)",
)

PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")
ROOT = Path(__file__).resolve().parents[1]


def _rules(name):
    return rules_for(load_profile(name), 2)


def _pair(cands, c_memo=None, py_memo=None):
    """Bounds over the same candidates: one compiled, one Python only."""
    c = packing.PackingBounds(cands, c_memo)
    c._packer = _C.make(c.cands, c._with_face, c._best, packing._UNITS)
    py = packing.PackingBounds(cands, py_memo)
    py._packer = False  # the Python dynamic program only
    return c, py


def _items(d):
    return list(d.items())


def _memo_items(memo):
    return [(k, _items(v)) for k, v in memo.best.items()]


def _hand(rng, deck, size):
    hand = rng.sample(deck, min(size, len(deck)))
    return tuple(hand.count(f) for f in range(FACES))


def _sub(rng, counts):
    """A random sub-multiset of `counts`."""
    return tuple(rng.randint(0, n) if n else 0 for n in counts)


def _deck(jokers, rng=None):
    """Two packs' natural cards and `jokers` jokers; with `rng`, the naturals
    of a random few faces only (hands dense in melds, as late in a round)."""
    if rng is None:
        faces = list(range(52))
    else:  # a few suits, a window of ranks (wrapping through the ace)
        low, width = rng.randrange(13), rng.randint(4, 9)
        faces = [
            su * 13 + (low + r) % 13 for su in rng.sample(range(4), rng.randint(1, 3)) for r in range(width)
        ]
    return [f for f in faces for _ in range(2)] + [JOKER_INDEX] * jokers


@pytest.mark.parametrize("name", PRESETS)
def test_random_hands_and_their_parts_get_the_same_dicts_in_the_same_order(name):
    rules = _rules(name)
    rng = random.Random(f"packing-{name}")
    rooms = 0
    for n in range(400):
        deck = _deck(rng.choice((0, 1, 2, 4)), rng if n % 4 else None)
        counts = _hand(rng, deck, rng.randint(1, 15))
        cands = packing.candidates(counts, rules)
        c_memo, py_memo = packing.BoundsMemo(), packing.BoundsMemo()
        c, py = _pair(cands, c_memo, py_memo)
        for room in [counts] + [_sub(rng, counts) for _ in range(4)]:
            for jokerless in (False, True) if n % 2 else (True, False):
                got, want = c.best(room, jokerless), py.best(room, jokerless)
                assert _items(got) == _items(want), (name, counts, room, jokerless)
                rooms += 1
        assert type(c._packer).__name__ == "Packer"  # the C side answered
        assert _memo_items(c_memo) == _memo_items(py_memo)  # the same entries, written in the same order
    assert rooms == 4000


@pytest.mark.parametrize("name", ["rami51", "classic", "voleur"])
def test_a_game_memo_shared_from_hand_to_hand_stays_the_same(name):
    """As in the mask: one memo for a game's hands, each hand's bounds made
    anew with its candidates (a card drawn, a card discarded)."""
    rules = _rules(name)
    rng = random.Random(f"game-{name}")
    deck = _deck(4)
    for _game in range(6):
        c_memo, py_memo = packing.BoundsMemo(), packing.BoundsMemo()
        stock = deck[:]
        rng.shuffle(stock)
        hand = [stock.pop() for _ in range(13)]
        for _turn in range(25):
            hand.append(stock.pop())
            counts = tuple(hand.count(f) for f in range(FACES))
            c, py = _pair(packing.candidates(counts, rules), c_memo, py_memo)
            for room in (counts, _sub(rng, counts), _sub(rng, counts)):
                for jokerless in (False, True):
                    assert _items(c.best(room, jokerless)) == _items(py.best(room, jokerless))
            hand.remove(rng.choice(hand))
        assert _memo_items(c_memo) == _memo_items(py_memo)


def test_both_sides_take_turns_on_one_memo():
    """Entries the Python side wrote are read by the C side and the other way round."""
    rules = _rules("rami51")
    rng = random.Random(3)
    deck = _deck(4)
    shared, alone = packing.BoundsMemo(), packing.BoundsMemo()
    for n in range(200):
        counts = _hand(rng, deck, 12)
        cands = packing.candidates(counts, rules)
        mixed = packing.PackingBounds(cands, shared)
        mixed._packer = (
            _C.make(mixed.cands, mixed._with_face, mixed._best, packing._UNITS) if n % 2 else False
        )
        ref = packing.PackingBounds(cands, alone)
        ref._packer = False
        for room in (_sub(rng, counts), counts):
            for jokerless in (False, True):
                assert _items(mixed.best(room, jokerless)) == _items(ref.best(room, jokerless))
    assert _memo_items(shared) == _memo_items(alone)


def test_the_empty_room_and_a_hand_without_melds():
    rules = _rules("classic")
    counts = tuple(1 if f in (0, 15, 30) else 0 for f in range(FACES))  # no two cards meld
    c, py = _pair(packing.candidates(counts, rules))
    for room in ((0,) * FACES, counts):
        for jokerless in (False, True):
            assert _items(c.best(room, jokerless)) == _items(py.best(room, jokerless)) == [(0, 0)]


def test_what_does_not_fit_in_c_is_answered_in_python():
    rules = _rules("rami51")
    counts = tuple(2 if f < 13 else 0 for f in range(FACES))
    cands = packing.candidates(counts, rules)
    c, py = _pair(cands)
    mod = _C
    packer = mod.make(c.cands, c._with_face, c._best, packing._UNITS)
    # a count past MAX_COPIES, a negative room, a room past FACES faces: NotImplemented
    for room in (-1, 1 << (8 * FACES), 200, packing.as_bits(counts) | (130 << 8)):
        assert packer.best_of(room, False) is NotImplemented
    for room in (200, packing.as_bits(counts) | (130 << 8)):  # (the first two are no rooms for Python either)
        assert _items(c._best_of(room, False)) == _items(py._best_of(room, False))
    # candidates the C side cannot hold: no Packer, the Python side answers
    odd = [replace(cands[0], kinds=9)] + cands[1:]
    assert mod.make(odd, c._with_face, {}, packing._UNITS) is None
    big = [replace(cands[0], points=1 << 70)] + cands[1:]
    assert mod.make(big, c._with_face, {}, packing._UNITS) is None
    bounds, ref = _pair(big)
    assert bounds._packer is None
    bounds._packer = False  # as _best_of leaves it when make says None
    assert _items(bounds.best(counts)) == _items(ref.best(counts))


def _compiled_under(pure: str) -> str:
    """Whether a new process with RAMI_PURE=`pure` finds the compiled side."""
    code = "from rami_core.rl import packing; print(packing.compiled_packing() is not None)"
    env = {**os.environ, "RAMI_PURE": pure}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return run.stdout.strip()


def test_rami_pure_turns_the_compiled_side_off():
    assert _compiled_under("1") == "False"
    assert _compiled_under("0") == "True"


def test_the_bounds_make_their_packer_at_the_first_room_not_in_the_memo():
    if packing.compiled_packing() is None:
        pytest.skip("RAMI_PURE=1: the bounds answer in Python")
    counts = tuple(2 if f < 13 else 0 for f in range(FACES))
    bounds = packing.PackingBounds(packing.candidates(counts, _rules("classic")))
    assert bounds._packer is None
    bounds.best(counts)
    assert type(bounds._packer).__name__ == "Packer"
