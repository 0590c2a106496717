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


SELF_PLAY = EXAMPLE.parent / "self_play.py"


@pytest.mark.slow
def test_the_self_play_example_fills_its_pool_and_reports_wilson_intervals(tmp_path, monkeypatch, capsys):
    pytest.importorskip(
        "sb3_contrib", reason="the [rl-train] extra is not installed (pip install -e '.[rl-train]')"
    )
    spec = importlib.util.spec_from_file_location("self_play", SELF_PLAY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["self_play.py", "--timesteps", "1024", "--pool-every", "256", "--report", "512"]
    argv += ["--envs", "2", "--eval", "2", "--max-turns", "40", "--out", str(tmp_path)]
    monkeypatch.setattr("sys.argv", argv)
    module.main()
    out = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "final.zip",
        "step_1024.zip",
        "step_256.zip",
        "step_512.zip",
        "step_768.zip",
    ]
    assert "4 checkpoints in the pool" in out and "pool 4 + random" in out
    for bot in ("greedy", "expert"):
        assert f"against {bot} on seeds 10000000..10000001: " in out and "95% Wilson interval [" in out
    # each episode's opponent is drawn from the pool plus the random bot, and a checkpoint plays its seat
    pool = module.Pool()
    pool.add(str(tmp_path / "step_256.zip"))
    env = module.PoolEnv(pool, seed=1, max_turns=20, shaping=0.0)
    drawn = set()
    for seed in range(8):
        _, info = env.reset(seed=seed)
        drawn.add(info["opponent"])
        if info["opponent"] == "step_256.zip":
            while True:
                _, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
                if term or trunc:
                    break
            assert len(env.vs_pool.rami.aec.game.log) > 0
    assert drawn == {"random", "step_256.zip"}
