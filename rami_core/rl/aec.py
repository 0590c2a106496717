"""Every rami profile as a PettingZoo AEC environment.

One agent per seat (`seat_0`, `seat_1`, ...); the agent selected is the
seat whose turn it is. An action is one sub-step of a turn (see
rami_core.rl.layout and docs/rl.md); the observation's `action_mask` says
which sub-steps the engine accepts now, so a masked policy never plays an
illegal move and no illegal-move penalty exists: an unmasked action is
refused with ValueError, and the game is left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import actions as A
from ..engine import Game
from ..profile import Profile
from ..rules import Rules
from ..savegame import to_save
from ..state import OVER
from .draft import Draft
from .faces import JOKER_INDEX
from .layout import ActionLayout, SubStep, table_slots
from .legal import TurnOracle
from .observe import encode, observation_space

EPISODES = ("round", "game")
REWARDS = ("round", "game")


class RamiEnv(AECEnv):
    """A rami table for learning agents.

    `episode`: "round" ends the episode with the round; "game" deals round
    after round until the game is over. `reward`: "round" pays every seat at
    each round's end its side's score change, negated under penalty scoring
    (so -penalty paid; under positive scoring +points scored); "game" pays
    only at the game's end, +1 to the winning side's seats and -1 to the
    others (0 to all for a tie), and needs episode="game". `normalize`:
    round rewards divided by the game's target score (100 when it has none).
    `max_turns`: a round still running after this many turns truncates the
    episode (None: never)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "rami_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        profile: Profile,
        players: int,
        *,
        seed: int = 0,
        plugins: Sequence[object] = (),
        episode: str = "round",
        reward: str = "round",
        normalize: bool = False,
        max_turns: int | None = 1000,
        render_mode: str | None = None,
    ):
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if reward == "game" and episode != "game":
            raise ValueError('reward="game" pays at the end of the game: it needs episode="game"')
        if not profile.allows_players(players):
            raise ValueError(f"{profile.name} is not played by {players} players")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.profile = profile
        self.players = players
        self.plugins = tuple(plugins)
        self.seed = seed
        self.episode = episode
        self.reward_mode = reward
        self.normalize = normalize
        self.max_turns = max_turns
        self.render_mode = render_mode
        facts = Rules.build(profile, players)  # the profile's settings, read by Rules
        self.layout = ActionLayout(table_slots(facts))
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        copies = max(facts.decks, facts.deck_jokers, 1)
        self._obs_space = observation_space(players, self.layout.slots, self.layout.size, copies)
        self._act_space = spaces.Discrete(self.layout.size)
        self.game: Game | None = None
        self.draft = Draft()

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ------------------------------------------------------------ lifecycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed = seed
        self.game = Game.new(self.profile, self.players, seed=self.seed, plugins=self.plugins)
        self.oracle = TurnOracle(self.game, self.layout)
        self.draft = Draft()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._turns = 0
        self._round_start_scores = list(self.game.state.scores)
        self._select()

    def _select(self) -> None:
        assert self.game is not None
        self.agent_selection = self.possible_agents[self.game.state.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self.possible_agents.index(agent)
        acting = seat == game.state.turn and game.state.phase != OVER and agent in self.agents
        live = acting and not (self.terminations[agent] or self.truncations[agent])
        mask = self.oracle.mask(self.draft) if live else np.zeros(self.layout.size, dtype=np.int8)
        draft = self.draft if acting else Draft()
        side_of = [game.rules.side(s) for s in range(self.players)]
        return encode(game.view(seat), draft, mask, self.layout.slots, side_of)

    def action_mask(self) -> np.ndarray:
        """The mask of the agent selected (what its observation carries)."""
        return self.observe(self.agent_selection)["action_mask"]

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    # ------------------------------------------------------------ stepping

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._require_game()
        index = int(action)
        mask = self.oracle.mask(self.draft)
        if not 0 <= index < self.layout.size or not mask[index]:
            raise ValueError(f"action {index} is not legal now (see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.play_substep(index)
        self._settle()

    def apply_engine_action(self, action: A.Action) -> None:
        """Play a whole engine action for the seat to play (a bot's move, in the
        single-agent wrapper), with the same bookkeeping as a sub-step. Raises
        RuleError, nothing changed, if the engine refuses it."""
        self._require_game()
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._apply(action)
        self._settle()

    def _settle(self) -> None:
        """Round end, truncation, next agent, rewards: after every step."""
        game = self._require_game()
        if game.state.phase == OVER:
            self._round_over()
        elif self.max_turns is not None and self._turns >= self.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        if not (all(self.terminations.values()) or all(self.truncations.values())):
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _apply(self, action: A.Action) -> None:
        game = self._require_game()
        before = game.state.turn
        game.apply(action)
        self.draft.clear()
        if game.state.turn != before or game.state.phase == OVER:
            self._turns += 1

    def play_substep(self, index: int) -> A.Action | None:
        """Play a legal sub-step on the game; return the engine action it played (None for a draft step)."""
        step = self.layout.decode(index)
        if step.kind == "add":
            self.draft.current = self.draft.current.add(step.face)
            return None
        if step.kind == "add_joker_low":
            self.draft.current = self.draft.current.add(JOKER_INDEX, low=True)
            return None
        if step.kind == "close_group":
            self.draft.closed = [*self.draft.closed, self.draft.current]
            self.draft.current = type(self.draft.current)()
            return None
        action = self.oracle.action_for(step, self.draft)
        if action is None:  # pragma: no cover - the mask never allows this
            raise ValueError(f"{self.layout.describe(index)} plays nothing now")
        self._apply(action)
        return action

    def _round_over(self) -> None:
        game = self._require_game()
        s = game.state
        rules = game.rules
        sign = 1 if rules.positive_scores else -1
        scale = (rules.target or 100) if self.normalize else 1
        before = self._round_start_scores
        if self.reward_mode == "round":
            for seat, a in enumerate(self.possible_agents):
                side = rules.side(seat)
                self.rewards[a] = sign * (s.scores[side] - before[side]) / scale
        for a in self.possible_agents:
            self.infos[a] = {
                "round_end": s.round_end,
                "winner": s.winner,
                "penalties": list(s.penalties),
                "scores": list(s.scores),
                "game_over": s.game_over,
                "game_winner": s.game_winner,
            }
        if self.episode == "round" or s.game_over:
            if self.reward_mode == "game":
                for seat, a in enumerate(self.possible_agents):
                    if s.game_winner is None:
                        self.rewards[a] = 0.0
                    else:
                        self.rewards[a] = 1.0 if rules.side(seat) == s.game_winner else -1.0
            for a in self.agents:
                self.terminations[a] = True
            return
        game.next_round()
        self._turns = 0
        self._round_start_scores = list(game.state.scores)

    # ------------------------------------------------------------ records

    def to_save(self) -> dict[str, Any]:
        """The game so far as a saved game (rami_core.savegame): `rami replay` reads it."""
        return to_save(self._require_game())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._require_game()
        s = game.state
        lines = [f"round {s.round_no}, seat {s.turn} to play ({s.phase}), scores {s.scores}"]
        for k, m in enumerate(s.table):
            lines.append(f"  [{k}] " + " ".join(str(c) for c in m.cards))
        if s.discard:
            lines.append(f"  discard top: {s.discard[-1]}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def describe(self, index: int) -> str:
        return self.layout.describe(index)


__all__ = ["RamiEnv", "SubStep"]
