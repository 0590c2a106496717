"""An opponent given as a saved MaskablePPO's path plays its seat from its own
observation and mask, deterministically, loaded once.

Needs the `rl-train` extra (sb3-contrib, torch)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip(
    "sb3_contrib", reason="the [rl-train] extra is not installed (pip install -e '.[rl-train]')"
)

from rami_core import rl  # noqa: E402
from rami_core.rl.single import SavedPolicy  # noqa: E402

SETTINGS = {"actions": "compact", "scaled": True, "max_turns": 40}


def _train(path, players: int, timesteps: int):
    """A tiny MaskablePPO (a few hundred sub-steps against the random bot), saved."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = rl.single_agent_env("classic", players=players, seed=5, mask_in_observation=False, **SETTINGS)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=timesteps)
    model.save(path)
    return path


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory):
    return _train(tmp_path_factory.mktemp("model") / "tiny.zip", 2, 384)


def _first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def _play(env, seed: int):
    obs, _ = env.reset(seed=seed)
    while True:
        obs, _, term, trunc, _ = env.step(_first_legal(obs["action_mask"]))
        if term or trunc:
            return env.aec.game.log


def test_a_saved_model_path_plays_its_seat_as_its_loaded_policy(saved_model):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(saved_model, device="cpu")
    calls = []

    def by_hand(observation, mask):
        calls.append(1)
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        assert mask[int(action)]
        return int(action)

    by_path = rl.single_agent_env("classic", seed=3, opponents=str(saved_model), **SETTINGS)
    assert by_path.aec.external_seats == frozenset()  # the model plays sub-steps, not engine actions
    (policy,) = by_path._policies.values()
    assert isinstance(policy, SavedPolicy) and repr(policy).endswith("tiny.zip')")
    reference = rl.single_agent_env("classic", seed=3, opponents=by_hand, **SETTINGS)
    for seed in (3, 4):
        assert _play(by_path, seed) == _play(reference, seed)
    assert calls  # the model's seat did play


def test_a_path_object_the_registry_and_one_load_for_several_seats(saved_model, tmp_path):
    import gymnasium as gym

    three = _train(tmp_path / "three.zip", 3, 128)
    env = rl.single_agent_env("classic", players=3, seed=1, opponents=[three, str(three)], **SETTINGS)
    first, second = env._policies.values()
    assert first is second  # loaded once
    _play(env, 1)
    made = gym.make("rami/classic-v0", opponents=str(saved_model), **SETTINGS)
    made.reset(seed=2)
    assert made.spec is not None and made.spec.kwargs["opponents"] == str(saved_model)


def test_a_model_of_another_space_or_a_missing_file_is_refused(saved_model, tmp_path):
    with pytest.raises(ValueError, match="cannot play seat 1: 2040 actions here, 187 in the model"):
        rl.single_agent_env("classic", opponents=str(saved_model), scaled=True)  # the full action space
    with pytest.raises(ValueError, match="cannot play seat 1: observation"):
        rl.single_agent_env("classic", opponents=str(saved_model), actions="compact")  # not scaled
    with pytest.raises(ValueError, match="cannot play seat 1: observation \\(2176,\\)"):
        rl.single_agent_env("classic", players=3, opponents=saved_model, **SETTINGS)  # a 2-seat model
    with pytest.raises(FileNotFoundError, match="no saved model"):
        rl.single_agent_env("classic", opponents=str(tmp_path / "none.zip"), **SETTINGS)
    # a bot's name is still a bot
    assert rl.single_agent_env("classic", opponents="greedy").aec.external_seats == frozenset({1})
