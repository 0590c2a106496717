"""One learning agent against rami bots, as a Gymnasium environment.

The agent plays one seat through the same sub-steps as the AEC
environment; the other seats are bots (rami_core.players.bots: random, greedy,
expert...) that see only their own view and play whole engine actions.
`action_masks()` returns the current mask for libraries that ask for it
(e.g. sb3-contrib's MaskablePPO).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import gymnasium as gym
import numpy as np

from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.players.bots import make_bot
from rami_core.rl.aec import RamiEnv
from rami_core.words.errors import RuleError

BOT_STEP_CAP = 200  # a bot still playing after this many actions in one turn lets its clock run out


ILLEGAL = ("raise", "terminate")

# A policy playing an opponent's seat by sub-steps, as the agent does: (observation vector, mask) -> action.
Policy: TypeAlias = Callable[[np.ndarray, np.ndarray], Any]
Opponent: TypeAlias = str | os.PathLike[str] | Policy


def is_model_path(opponent: object) -> bool:
    """A saved model's path rather than a bot's name: a path object, or a
    string ending in `.zip` (what `model.save()` writes)."""
    if isinstance(opponent, os.PathLike):
        return True
    return isinstance(opponent, str) and opponent.lower().endswith(".zip")


class SavedPolicy:
    """A policy read from a saved sb3-contrib MaskablePPO (`model.save(path)`,
    a `.zip`): `(observation, mask) -> action`, the model's most likely action
    with the mask applied (`predict(..., action_masks=mask, deterministic=True)`).
    A model trained with the mask in its observation (a Dict space) is given
    both, one trained on the vector alone (a Box) the vector. Loaded once, on
    the CPU. `check(aec)` refuses a seat whose observation or action space is
    not the model's (another preset, action space, `scaled=` or seat count)."""

    def __init__(self, path: str | os.PathLike[str]):
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as e:  # pragma: no cover - the rl-train extra is absent
            raise ImportError(
                f"an opponent given as a saved model ({os.fspath(path)!r}) needs sb3-contrib: "
                "pip install -e '.[rl-train]'"
            ) from e
        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            raise FileNotFoundError(
                f"no saved model at {self.path!r} (an opponent ending in .zip is a model's path)"
            )
        self.model = MaskablePPO.load(self.path, device="cpu")
        space = self.model.observation_space
        self.with_mask = isinstance(space, gym.spaces.Dict)
        self.vector_space = space["observation"] if isinstance(space, gym.spaces.Dict) else space

    def check(self, aec: RamiEnv, seat: int) -> None:
        theirs = aec.observation_space(aec.possible_agents[seat])
        assert isinstance(theirs, gym.spaces.Dict)
        vector = theirs["observation"]
        n = getattr(self.model.action_space, "n", None)
        problems = []
        if vector.shape != self.vector_space.shape or vector.dtype != self.vector_space.dtype:
            problems.append(
                f"observation {vector.shape} {vector.dtype} here, "
                f"{self.vector_space.shape} {self.vector_space.dtype} in the model"
            )
        if n != aec.action_size:
            problems.append(f"{aec.action_size} actions here, {n} in the model")
        if problems:
            raise ValueError(
                f"the model {self.path!r} cannot play seat {seat}: {'; '.join(problems)} "
                "(train and play with the same preset, seats, actions= and scaled=)"
            )

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.asarray(mask).astype(bool)
        obs: Any = {"observation": observation, "action_mask": mask} if self.with_mask else observation
        action, _ = self.model.predict(obs, action_masks=legal, deterministic=True)
        return int(action)

    def __repr__(self) -> str:
        return f"SavedPolicy({self.path!r})"


class RamiSingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium declares it an instance variable)

    def __init__(
        self,
        aec: RamiEnv,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int = 0,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        mask_in_observation: bool = True,
    ):
        n = aec.players
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at this table (0 to {n - 1})")
        one = isinstance(opponents, str | os.PathLike) or callable(opponents)
        names: list[Opponent] = [opponents] * (n - 1) if one else list(opponents)  # type: ignore[list-item, arg-type]
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents needed, got {len(names)}")
        for o in names:
            if not (isinstance(o, str | os.PathLike) or callable(o)):
                raise TypeError(
                    "an opponent is a bot's name, a saved model's path (.zip) or a policy "
                    f"(observation, mask) -> action, not {o!r:.60}"
                )
        others = [s for s in range(n) if s != seat]
        # A saved model is loaded once, however many seats it plays.
        models: dict[str, SavedPolicy] = {}
        for o in names:
            if is_model_path(o):
                key = os.path.abspath(os.fspath(o))  # type: ignore[arg-type]
                if key not in models:
                    models[key] = SavedPolicy(key)
        played: list[str | Policy] = [
            models[os.path.abspath(os.fspath(o))] if is_model_path(o) else o  # type: ignore[arg-type, misc]
            for o in names
        ]
        for s, o in zip(others, played, strict=True):
            if isinstance(o, SavedPolicy):
                o.check(aec, s)
        self.aec = aec
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        self.opponent_names = names
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.mask_in_observation = mask_in_observation
        self.render_mode = aec.render_mode
        space = aec.observation_space(self.agent)
        assert isinstance(space, gym.spaces.Dict)
        self.observation_space = space if mask_in_observation else space["observation"]
        self.action_space = aec.action_space(self.agent)
        self._bots: dict[int, Any] = {}
        self._over = True
        # Seats of policies play sub-steps as the agent does; bots play whole engine actions.
        self._policies: dict[int, Policy] = {
            s: o for s, o in zip(others, played, strict=True) if not isinstance(o, str)
        }
        aec.external_seats = frozenset(s for s in others if s not in self._policies)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        game = self.aec.game
        assert game is not None
        others = [s for s in range(self.aec.players) if s != self.seat]
        self._bots = {
            s: make_bot(name, (game.state.seed or 0) * 8 + s)  # type: ignore[arg-type]
            for s, name in zip(others, self.opponent_names, strict=False)
            if s not in self._policies
        }
        self._pending_reward = 0.0
        self._over = False
        self._play_bots()
        return self._obs(), self._info()

    def _obs(self) -> Any:
        obs = self.aec.observe(self.agent)
        return obs if self.mask_in_observation else obs["observation"]

    def _info(self) -> dict[str, Any]:
        return dict(self.aec.infos.get(self.agent, {}))

    def action_masks(self) -> np.ndarray:
        """The agent's mask as booleans (all False when the episode is over)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def _done(self) -> bool:
        a = self.agent
        return self.aec.terminations[a] or self.aec.truncations[a]

    def _play_bots(self) -> None:
        """Bots play until it is the agent's turn or the episode is over."""
        env = self.aec
        while not self._done() and env.agent_selection != self.agent:
            game = env.game
            assert game is not None
            seat = game.state.turn
            if seat in self._policies:
                self._play_policy(seat)
                continue
            bot = self._bots[seat]
            steps = 0
            while game.state.turn == seat and game.state.phase != OVER:
                action: A.Action
                try:
                    action = (
                        bot.choose(game.view(seat), game.rules) if steps < BOT_STEP_CAP else A.Timeout(seat)
                    )
                except RuleError:
                    action = A.Timeout(seat)
                self._apply_bot(action)
                steps += 1
                if self._done():
                    return

    def _play_policy(self, seat: int) -> None:
        """One sub-step of an opponent's policy, through the AEC environment."""
        env = self.aec
        obs = env.observe(env.agent_selection)
        action = int(self._policies[seat](obs["observation"], obs["action_mask"]))
        if not (0 <= action < env.action_size and obs["action_mask"][action]):
            raise ValueError(
                f"the policy of seat {seat} played action {action}, which its mask does not allow"
            )
        env.step(action)
        self._pending_reward += env.rewards.get(self.agent, 0.0)

    def _apply_bot(self, action: A.Action) -> None:
        """A bot's whole action through the AEC environment's bookkeeping (round ends, rewards)."""
        env = self.aec
        try:
            env.apply_engine_action(action)
        except RuleError:
            env.apply_engine_action(A.Timeout(env.game.state.turn if env.game else 0))
        self._pending_reward += env.rewards.get(self.agent, 0.0)

    def step(self, action: int):
        env = self.aec
        if self._over:
            raise RuntimeError("the episode is over (or never began): call reset()")
        index = int(action)
        if self.illegal == "terminate" and not (0 <= index < env.action_size and self.action_masks()[index]):
            # Gymnasium's and SB3's checkers step unmasked samples: the episode ends, as
            # PettingZoo's TerminateIllegalWrapper ends it, and the game is left as it was.
            self._over = True
            return self._obs(), self.illegal_reward, True, False, {**self._info(), "illegal_action": index}
        env.step(index)
        reward = env.rewards.get(self.agent, 0.0)
        self._pending_reward = 0.0
        if not self._done():
            self._play_bots()
            reward += self._pending_reward
            self._pending_reward = 0.0
        terminated = env.terminations[self.agent]
        truncated = env.truncations[self.agent] and not terminated
        self._over = bool(terminated or truncated)
        return self._obs(), float(reward), bool(terminated), bool(truncated), self._info()

    def render(self) -> str | None:
        """ "ansi": the text (the agent's hand among it); "human": printed, None."""
        return self.aec.render()
