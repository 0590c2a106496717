"""The learning environments copy and pickle at any moment (issue 48): a
copy taken mid-round, or a pickle round trip, plays on exactly as the
original does, plugins included (the plugin host is built again from the
profile's settings, not carried).

Needs the `rl` extra."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

np = pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("gymnasium", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")

from rami_core import rl  # noqa: E402
from rami_core.files.resources import preset_names  # noqa: E402

WITH_PLUGINS = "variants/house/voleur_002_strict.yaml"  # three plugins
PROFILES = [*preset_names(), WITH_PLUGINS]


def _same(a, b) -> None:
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def _masked(mask, rng: random.Random) -> int:
    return int(rng.choice(list(np.flatnonzero(mask))))


@pytest.mark.parametrize("variant", PROFILES)
def test_aec_env_copies_and_pickles_mid_round(variant):
    env = rl.env(variant, seed=3, max_turns=40)
    env.reset()
    rng = random.Random(7)
    for _ in range(25):
        obs, *_ = env.last()
        env.step(_masked(obs["action_mask"], rng))
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    assert sorted(env.unwrapped.game.rules.hooks.names()) == sorted(
        clones[1].unwrapped.game.rules.hooks.names()
    )
    for _ in range(2000):
        obs, reward, term, trunc, info = env.last()
        for c in clones:
            o, r, t, u, i = c.last()
            _same(obs, o)
            assert (r, t, u, i) == (reward, term, trunc, info)
            assert c.agent_selection == env.agent_selection
        if term or trunc:
            break
        action = _masked(obs["action_mask"], rng)
        for e in [env, *clones]:
            e.step(action)
    else:
        pytest.fail("the episode never ended")
    assert [c.unwrapped.game.log for c in clones] == [env.unwrapped.game.log] * 2


@pytest.mark.parametrize("variant", PROFILES)
def test_single_agent_env_copies_and_pickles_mid_round(variant):
    env = rl.single_agent_env(variant, seed=4, opponents="greedy", max_turns=40)
    obs, _ = env.reset()
    rng = random.Random(11)
    for _ in range(15):
        obs, _, term, trunc, _ = env.step(_masked(obs["action_mask"], rng))
        if term or trunc:  # a bot went out: the next deal
            obs, _ = env.reset()
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(2000):
        action = _masked(obs["action_mask"], rng)
        obs, reward, term, trunc, info = env.step(action)
        for c in clones:
            o, r, t, u, i = c.step(action)
            _same(obs, o)
            assert (r, t, u, i) == (reward, term, trunc, info)
        if term or trunc:
            break
    else:
        pytest.fail("the episode never ended")


def test_a_fresh_env_and_a_game_with_plugins_copy():
    env = rl.raw_env(WITH_PLUGINS)
    copy.deepcopy(env)  # before reset()
    env.reset(seed=1)
    game = pickle.loads(pickle.dumps(env.game))
    assert sorted(game.rules.hooks.names()) == sorted(env.game.rules.hooks.names())
    assert game.rules == env.game.rules and game.state == env.game.state
