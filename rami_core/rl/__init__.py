"""Learning agents: any rami profile as a PettingZoo or Gymnasium environment.

Needs the `rl` extra (`pip install -e '.[rl]'`: pettingzoo, gymnasium,
numpy); the rest of rami never imports this package.

    from rami_core import rl
    env = rl.env(variant="rami51", players=2, seed=1)

See docs/rl.md for the action layout, the observation and the rewards.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from pettingzoo import AECEnv

from rami_core.profile.loader import load_profile
from rami_core.profile.model import Profile
from rami_core.rl.aec import RamiEnv
from rami_core.rl.compact import CompactLayout
from rami_core.rl.layout import ActionLayout, SubStep
from rami_core.rl.observe import ObservationLayout
from rami_core.rl.single import ILLEGAL, Opponent, SavedPolicy


def load(variant: str | Profile, rules: Mapping[str, Any] | None = None) -> Profile:
    """A profile from a preset name, a house-rule YAML file or a Profile, with
    `rules` merged over it as a child file would be."""
    if rules is not None and not isinstance(rules, Mapping):
        kind = "a path" if isinstance(rules, str | os.PathLike) else type(rules).__name__
        raise TypeError(
            f"rules= takes settings (a mapping such as {{'opening': {{'points': 40}}}}), not {kind}: "
            f"give a house-rule file as the first argument, rl.env({str(rules)[:60]!r})"
        )
    if isinstance(variant, Profile):
        if rules:
            raise ValueError("rules= needs a preset name or a file, not a Profile")
        return variant
    return load_profile(variant, rules=rules)


def raw_env(
    variant: str | Profile = "rami51",
    rules: Mapping[str, Any] | None = None,
    players: int = 2,
    seed: int | None = None,
    plugins: Sequence[object] = (),
    **options: Any,
) -> RamiEnv:
    """The environment unwrapped (PettingZoo's `raw_env`): see `env`."""
    return RamiEnv(load(variant, rules), players, seed=seed, plugins=plugins, **options)


def env(
    variant: str | Profile = "rami51",
    rules: Mapping[str, Any] | None = None,
    players: int = 2,
    seed: int | None = None,
    plugins: Sequence[object] = (),
    illegal: str = "terminate",
    illegal_reward: float = -1.0,
    terminate_illegal: bool | None = None,
    **options: Any,
) -> AECEnv:
    """A PettingZoo AEC environment for `variant` (preset name or house file)
    at `players` seats, wrapped as PettingZoo's classic games' `env()` are:
    an unmasked action ends the episode for every seat, the mover paid
    `illegal_reward` (-1) and the others 0 (TerminateIllegalWrapper; with
    `illegal="raise"`, a ValueError instead, nothing changed); actions
    checked against the space (AssertOutOfBoundsWrapper) and the API's order
    enforced (OrderEnforcingWrapper: no step before reset).
    `terminate_illegal` is the older spelling (True: "terminate", False:
    "raise"). `options`: episode, reward, normalize, max_turns, render_mode,
    actions, groups, scaled, turn_substeps (see RamiEnv). The wrapper passes
    attributes through: `env.layout`, `env.game`, `env.unwrapped` (the three
    are PettingZoo's, subclassed in rl.wrappers only to read the attributes
    a step reads without the `__getattr__` fallback)."""
    from rami_core.rl import wrappers

    if terminate_illegal is not None:
        illegal = "terminate" if terminate_illegal else "raise"
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
    out: AECEnv = raw_env(variant, rules, players, seed, plugins, **options)
    if illegal == "terminate":
        out = wrappers.TerminateIllegalWrapper(out, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


def observation_layout(
    variant: str | Profile = "rami51", rules: Mapping[str, Any] | None = None, players: int = 2
) -> ObservationLayout:
    """Where each structured field lies in the `observation` vector of this
    profile at this many seats (`unpack(vector)` gives them back)."""
    return RamiEnv(load(variant, rules), players).observation_layout


def single_agent_env(
    variant: str | Profile = "rami51",
    rules: Mapping[str, Any] | None = None,
    players: int = 2,
    seed: int | None = None,
    opponents: Opponent | Sequence[Opponent] = "random",
    seat: int = 0,
    plugins: Sequence[object] = (),
    illegal: str = "terminate",
    illegal_reward: float = -1.0,
    mask_in_observation: bool = True,
    **options: Any,
):
    """A Gymnasium environment: the agent at `seat`, opponents at the others:
    `opponents` a rami bot's name ("random", "greedy", "expert"...), a policy,
    a callable `(observation, mask) -> action` that plays the seat by
    sub-steps as the agent does (its observation vector and mask), or the
    path of a saved sb3-contrib MaskablePPO (a path object or a string ending
    in ".zip"; loaded once, it plays its most likely masked action: see
    `SavedPolicy`), one for every other seat or a list of them, seat order.
    `illegal`: "terminate" (the default: an unmasked action ends the episode,
    reward `illegal_reward`, -1, the game left as it was; what Gymnasium's and
    SB3's checkers need, as they step unmasked samples) or "raise"
    (ValueError). `mask_in_observation=False`: the observation is the vector
    alone (a Box, what SB3's MlpPolicy takes), the mask read through
    `action_masks()` as sb3-contrib's MaskablePPO does."""
    from rami_core.rl.single import RamiSingleAgentEnv

    out = RamiSingleAgentEnv(
        raw_env(variant, rules, players, seed, plugins, **options),
        opponents=opponents,
        seat=seat,
        illegal=illegal,
        illegal_reward=illegal_reward,
        mask_in_observation=mask_in_observation,
    )
    if isinstance(variant, str) and not plugins:
        # A spec as gym.make gives one (gym.make sets its own over it): check_env's
        # render test and `env.spec.make(render_mode=...)` build the same environment again.
        kwargs = {
            "variant": variant,
            "rules": rules,
            "players": players,
            "seed": seed,
            "opponents": opponents,
            "seat": seat,
            "illegal": illegal,
            "illegal_reward": illegal_reward,
            "mask_in_observation": mask_in_observation,
            **options,
        }
        out.spec = gym_spec(variant, kwargs)
    return out


single_agent_env.metadata = {"render_modes": ["ansi", "human"]}  # type: ignore[attr-defined]  # read by gym.make


# --------------------------------------------------------------------------- Gymnasium's registry

NAMESPACE = "rami"
HOUSE_ID = f"{NAMESPACE}/house-v0"


def gym_id(variant: str) -> str:
    """The Gymnasium id of a preset (`rami/rami51-v0`); any other profile is `rami/house-v0`."""
    from rami_core.files.resources import preset_names

    return f"{NAMESPACE}/{variant}-v0" if variant in preset_names() else HOUSE_ID


def gym_spec(variant: str, kwargs: dict[str, Any]) -> Any:
    from gymnasium.envs.registration import EnvSpec

    entry = "rami_core.rl:single_agent_env"
    return EnvSpec(id=gym_id(variant), entry_point=entry, kwargs=kwargs, disable_env_checker=True)


def _house_env(variant: str | Profile | None = None, **kwargs: Any):
    """`rami/house-v0`: a house-rule file (or a Profile) as `variant=`."""
    if variant is None:
        raise TypeError(f'{HOUSE_ID} needs variant= (a house-rule file: variant="variants/house/...yaml")')
    return single_agent_env(variant, **kwargs)


_house_env.metadata = single_agent_env.metadata  # type: ignore[attr-defined]


def register_gym_envs() -> list[str]:
    """Register every preset as `rami/<preset>-v0` and `rami/house-v0` in
    Gymnasium's registry (done when rami_core.rl is imported; again, nothing
    changes). Returns the ids."""
    import gymnasium

    from rami_core.files.resources import preset_names

    ids = []
    for name in [*preset_names(), None]:
        env_id = HOUSE_ID if name is None else gym_id(name)
        ids.append(env_id)
        if env_id in gymnasium.registry:
            continue
        if name is None:
            gymnasium.register(env_id, entry_point="rami_core.rl:_house_env")
        else:
            gymnasium.register(env_id, entry_point="rami_core.rl:single_agent_env", kwargs={"variant": name})
    return ids


__all__ = [
    "ActionLayout",
    "CompactLayout",
    "ObservationLayout",
    "RamiEnv",
    "SavedPolicy",
    "SubStep",
    "env",
    "gym_id",
    "load",
    "observation_layout",
    "raw_env",
    "register_gym_envs",
    "single_agent_env",
]

register_gym_envs()
