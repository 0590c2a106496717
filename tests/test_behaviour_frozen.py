"""Behaviour is frozen: every seeded bot game, RL mask, observation, reward
and bot decision of every preset and bundled house file is what
``tests/golden/behaviour.json`` says, byte for byte.

A refactoring or a rewrite of the hot path (bitsets, a C twin) promises that
nothing a player or a learner sees changes; one different action in a game
changes its digest, so this test names the file whose game moved. The
digests are computed by ``tests/support/behaviour.py`` (what goes into them
is said there): the move log of a seeded greedy-against-expert game and the
RL digests of ``benchmarks/bench_rl.py --digest N``. The default run checks
the "quick" size (100 actions a game, N = 30), the slow run the games of the
"slow" one (400 actions over two rounds). The slow size's RL digests
(N = 300) are kept in the file but checked by hand, not by CI (a few
minutes of CPU): ``python tests/support/behaviour.py --write`` then
``git diff tests/golden/behaviour.json`` shows nothing when they hold.

When a change of behaviour is meant (a rule fixed, a bot made stronger, a
new observation feature), regenerate the golden file on purpose and commit
it with the change, saying why in the commit::

    python tests/support/behaviour.py --write

It prints which files' digests changed (moves or RL space, per size): that
list is what the change did, and should be only the files it meant to touch.
``python tests/support/behaviour.py --before DIR`` compares this tree with
another one (a ``git archive`` copy) without writing anything.
"""

from __future__ import annotations

import json

import pytest

from tests.support import behaviour

GOLDEN = json.loads(behaviour.GOLDEN.read_text())
REGENERATE = "python tests/support/behaviour.py --write (only if the change of behaviour is meant)"


def test_the_golden_file_covers_every_file_at_the_current_settings():
    """A preset or house file added, or a setting of the tool changed, must be
    written into the golden file, or it would go unguarded."""
    assert (GOLDEN["seed"], GOLDEN["rounds"], tuple(GOLDEN["bots"])) == (
        behaviour.SEED,
        behaviour.ROUNDS,
        behaviour.BOTS,
    ), REGENERATE
    for size, settings in behaviour.SIZES.items():
        assert {k: v for k, v in GOLDEN[size].items() if k != "files"} == settings, REGENERATE
        assert list(GOLDEN[size]["files"]) == sorted(behaviour.files()), REGENERATE


def _rl() -> None:
    pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")


def _check(name: str, size: str, what: str) -> None:
    want = GOLDEN[size]["files"][name][what]
    n = behaviour.SIZES[size]
    if what == "moves":
        got = behaviour.moves_digest(name, n["max_actions"])
        assert got == want, f"the seeded game of {name} changed ({size} size): {REGENERATE}"
    else:
        got = behaviour.rl_digests(name, n["rl_steps"])
        assert got == want, f"the RL digests of {name} changed ({size} size): {REGENERATE}"


@pytest.mark.parametrize("name", behaviour.files())
def test_the_seeded_game_is_unchanged(name):
    _check(name, "quick", "moves")


@pytest.mark.parametrize("name", behaviour.files())
def test_the_rl_digests_are_unchanged(name):
    _rl()
    _check(name, "quick", "rl")


@pytest.mark.slow
@pytest.mark.parametrize("name", behaviour.files())
def test_the_longer_seeded_game_is_unchanged(name):
    _check(name, "slow", "moves")
