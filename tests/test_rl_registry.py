"""Every preset is registered in Gymnasium's registry as `rami/<preset>-v0`
(and house files as `rami/house-v0`) when rami_core.rl is imported, so
`gym.make` and `gym.make_vec` build the single-agent environment (issue 48).

Needs the `rl` extra."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
gym = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from rami_core import rl  # noqa: E402
from rami_core.files.resources import preset_names  # noqa: E402
from rami_core.rl.single import RamiSingleAgentEnv  # noqa: E402

HOUSE = "variants/house/voleur_002_strict.yaml"


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_is_registered_and_made(preset):
    env = gym.make(f"rami/{preset}-v0", max_turns=30)
    assert isinstance(env.unwrapped, RamiSingleAgentEnv)
    assert env.unwrapped.aec.profile.name == preset
    assert env.spec.id == f"rami/{preset}-v0"
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    twin = gym.make(f"rami/{preset}-v0", max_turns=30)
    np.testing.assert_array_equal(twin.reset(seed=1)[0]["observation"], obs["observation"])


def test_make_takes_kwargs_and_a_house_file():
    env = gym.make("rami/house-v0", variant=HOUSE, players=3, opponents="greedy", actions="compact")
    raw = env.unwrapped
    assert raw.aec.profile.name == "voleur_002_strict" and raw.aec.players == 3
    assert raw.aec.compact is not None
    env.reset(seed=2)
    assert len(raw.aec.game.rules.hooks.names()) == 3
    with pytest.raises(TypeError, match="needs variant="):
        gym.make("rami/house-v0")
    # the "module:id" form imports rami_core.rl first, as Gymnasium allows
    assert gym.make("rami_core.rl:rami/classic-v0").spec.id == "rami/classic-v0"


def test_check_env_with_its_render_test_on_made_and_direct_environments():
    """With a spec, Gymnasium's check_env makes the environment again in each render mode."""
    check_env(gym.make("rami/classic-v0", max_turns=50).unwrapped)
    check_env(gym.make("rami/house-v0", variant=HOUSE, max_turns=50).unwrapped)
    direct = rl.single_agent_env("classic", max_turns=50)
    assert direct.spec is not None and direct.spec.id == "rami/classic-v0"
    assert direct.spec.make(render_mode="ansi").render_mode == "ansi"
    check_env(direct)


def test_make_vec_with_kwargs():
    vec = gym.make_vec("rami/classic-v0", num_envs=2, vectorization_mode="sync", actions="compact")
    obs, _ = vec.reset(seed=3)
    assert obs["observation"].shape[0] == 2 and obs["action_mask"].shape == (2, 187)
    mask = obs["action_mask"].astype(bool)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in mask])
    obs, reward, *_ = vec.step(actions)
    assert reward.shape == (2,)
    again = gym.make_vec("rami/classic-v0", num_envs=2, vectorization_mode="sync", actions="compact")
    np.testing.assert_array_equal(
        again.reset(seed=3)[0]["observation"][0], vec.reset(seed=3)[0]["observation"][0]
    )
    unseeded = gym.make_vec("rami/classic-v0", num_envs=2, vectorization_mode="sync")
    first = unseeded.reset()[0]["observation"]
    assert not np.array_equal(first[0], first[1])  # fresh deals from the OS
    house = gym.make_vec("rami/house-v0", num_envs=2, vectorization_mode="sync", variant=HOUSE)
    assert house.reset(seed=1)[0]["observation"].shape[0] == 2


def test_registration_is_idempotent():
    ids = rl.register_gym_envs()
    assert ids == [*(f"rami/{p}-v0" for p in preset_names()), "rami/house-v0"]
    assert all(i in gym.registry for i in ids)
