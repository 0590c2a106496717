"""The training example of docs/rl.md runs: a few episodes, features well formed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rl" / "train_rami51.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_rami51", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_example_plays_and_learns_a_few_rounds():
    ex = load_example()
    from rami_core import rl

    env = rl.single_agent_env("rami51", players=2, seed=3, opponents="random", normalize=True, max_turns=30)
    policy = ex.Policy(np.random.default_rng(3))
    before = policy.w.copy()
    for ep in range(3):
        ret, grads, won, cut = ex.play_round(env, policy, seed=ep)
        assert np.isfinite(ret) and grads and isinstance(won, bool) and isinstance(cut, bool)
        for g in grads:
            assert g.shape == (ex.N_FEATURES,) and np.all(np.isfinite(g))
            policy.w += 0.5 * ret * g
    assert not np.array_equal(policy.w, before)
    # the card features name what they measure, and a discard's usefulness is in 0..1
    raw, _ = env.reset(seed=5)
    obs = ex.unpack(env, raw)
    legal = np.flatnonzero(obs["action_mask"])
    for i in legal:
        x = ex.features(env.aec.layout, obs, int(i))
        assert x.shape == (len(ex.NAMES),) and 0.0 <= x[len(ex.KINDS) + 1] <= 1.0
