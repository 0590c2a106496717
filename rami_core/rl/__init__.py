"""Learning agents: any rami profile as a PettingZoo or Gymnasium environment.

Needs the `rl` extra (`pip install -e '.[rl]'`: pettingzoo, gymnasium,
numpy); the rest of rami never imports this package.

    from rami_core import rl
    env = rl.env(variant="rami51", players=2, seed=1)

See docs/rl.md for the action layout, the observation and the rewards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..loader import load_profile
from ..profile import Profile
from .aec import RamiEnv
from .layout import ActionLayout, SubStep


def load(variant: str | Profile, rules: Mapping[str, Any] | None = None) -> Profile:
    """A profile from a preset name, a house-rule YAML file or a Profile, with
    `rules` merged over it as a child file would be."""
    if isinstance(variant, Profile):
        if rules:
            raise ValueError("rules= needs a preset name or a file, not a Profile")
        return variant
    return load_profile(variant, rules=rules)


def env(
    variant: str | Profile = "rami51",
    rules: Mapping[str, Any] | None = None,
    players: int = 2,
    seed: int = 0,
    plugins: Sequence[object] = (),
    **options: Any,
) -> RamiEnv:
    """A PettingZoo AEC environment for `variant` (preset name or house file)
    at `players` seats. `options`: episode, reward, normalize, max_turns,
    render_mode (see RamiEnv)."""
    return RamiEnv(load(variant, rules), players, seed=seed, plugins=plugins, **options)


def single_agent_env(
    variant: str | Profile = "rami51",
    rules: Mapping[str, Any] | None = None,
    players: int = 2,
    seed: int = 0,
    opponents: str | Sequence[str] = "random",
    seat: int = 0,
    plugins: Sequence[object] = (),
    **options: Any,
):
    """A Gymnasium environment: the agent at `seat`, rami bots at the others."""
    from .single import RamiSingleAgentEnv

    return RamiSingleAgentEnv(
        env(variant, rules, players, seed, plugins, **options), opponents=opponents, seat=seat
    )


__all__ = ["ActionLayout", "RamiEnv", "SubStep", "env", "load", "single_agent_env"]
