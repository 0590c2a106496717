"""Every rami profile as a PettingZoo AEC environment.

One agent per seat (`seat_0`, `seat_1`, ...); the agent selected is the
seat whose turn it is. An action is one sub-step of a turn (see
rami_core.rl.layout, rami_core.rl.compact and docs/rl.md); the
observation is PettingZoo's classic pair `{"observation", "action_mask"}`,
the mask saying which sub-steps the engine accepts now, so a masked policy
never plays an illegal move. Here an unmasked action is refused with
ValueError and the game is left as it was; `rl.env()` wraps the environment
in PettingZoo's TerminateIllegalWrapper (the episode ends, -1 to the mover)
unless asked `illegal="raise"`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.players.savegame import to_save
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.referee.engine import Game
from rami_core.rl.compact import CompactLayout
from rami_core.rl.draft import Draft
from rami_core.rl.faces import FACES, JOKER_INDEX, face_index
from rami_core.rl.layout import ActionLayout, SubStep, table_slots
from rami_core.rl.mask import TurnOracle
from rami_core.rl.observe import ObservationLayout, draft_fields, encode

EPISODES = ("round", "game")
REWARDS = ("round", "game")
ACTION_SPACES = ("full", "compact")
SEED_SPACE = 2**31  # seeds drawn for fresh deals: reset() without a seed


class _Discrete(spaces.Discrete):
    """gymnasium's Discrete, answering `contains` of a Python int without
    numpy (PettingZoo's bounds wrapper asks it at every step): the same
    answer, the int within [start, start + n)."""

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return int(self.start) <= x < int(self.start) + int(self.n)
        return super().contains(x)


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
    episode (None: never). `actions`: "full" (every sub-step, layout.py) or
    "compact" (compact.py: one discard per card, melds from a ranked list;
    `groups` entries). `scaled`: the observation vector as float32 in [0, 1]
    instead of int32 counts. `turn_substeps`: a turn still going after this
    many sub-steps is ended by the clock (the engine's timeout), as is a turn
    where the seat has no sub-step left; the timeout is never the agent's
    choice. `seed`: the start of the environment's stream of deals (None, the
    default: drawn from the OS, a different stream for every environment, as
    Gymnasium does); `reset()` without a seed deals the next game of the
    stream, `reset(seed=s)` starts the stream again from s (its first game is
    seed s)."""

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
        seed: int | None = None,
        plugins: Sequence[object] = (),
        episode: str = "round",
        reward: str = "round",
        normalize: bool = False,
        max_turns: int | None = 1000,
        render_mode: str | None = None,
        actions: str = "full",
        groups: int = 24,
        scaled: bool = False,
        turn_substeps: int = 200,
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
        if actions not in ACTION_SPACES:
            raise ValueError(f"actions must be one of {ACTION_SPACES}, not {actions!r}")
        if turn_substeps < 1:
            raise ValueError("turn_substeps must be at least 1")
        self.profile = profile
        self.players = players
        self.plugins = tuple(plugins)
        # No seed: the stream is seeded from the OS (as Gymnasium's np_random is), so two
        # unseeded environments deal differently; a seed makes the stream reproducible.
        self.seed: int | None = seed
        self._stream = random.Random(seed)  # random.Random(None) draws from os.urandom
        self._first_seed: int | None = seed  # the first reset() without a seed deals this one
        self.actions = actions
        self.scaled = scaled
        self.turn_substeps = turn_substeps
        self.episode = episode
        self.reward_mode = reward
        self.normalize = normalize
        self.max_turns = max_turns
        self.render_mode = render_mode
        facts = rules_for(profile, players)  # the profile's settings, read by Rules
        self.layout = ActionLayout(table_slots(facts))
        self.compact = (
            CompactLayout(self.layout, rebuilds=facts.may_rearrange, groups=groups)
            if actions == "compact"
            else None
        )
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        copies = max(facts.decks, facts.deck_jokers, 1)
        cards = 52 * facts.decks + facts.deck_jokers
        self.observation_layout = ObservationLayout(players, self.layout.slots, copies, cards, facts.target)
        self.action_size = self.compact.size if self.compact else self.layout.size
        self._obs_space = spaces.Dict(
            {
                "observation": self.observation_layout.space(scaled),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.action_size,), dtype=np.int8),
            }
        )
        self._act_space = _Discrete(self.action_size)
        obs_box = self.observation_layout.space(scaled)
        # The privileged state: every seat's observation (seat 0 first) and the stock's faces.
        self._state_space = spaces.Box(
            low=np.concatenate([np.tile(obs_box.low, players), np.zeros(FACES)]).astype(obs_box.dtype),
            high=np.concatenate([np.tile(obs_box.high, players), np.full(FACES, copies)]).astype(
                obs_box.dtype
            ),
            dtype=obs_box.dtype,
        )
        self.game: Game | None = None
        self.draft = Draft()
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._substeps = 0
        # Seats played by whole engine actions (the single-agent wrapper's
        # bots): the clock never asks their mask.
        self.external_seats: frozenset[int] = frozenset()
        self._obs_key: tuple | None = None
        self._mask_key: tuple | None = None
        self._mask = np.zeros(0, dtype=np.int8)
        self._obs: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    @property
    def state_space(self) -> spaces.Space:
        return self._state_space

    # ------------------------------------------------------------ lifecycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seed s, or without one the next deal of the environment's stream."""
        if seed is not None:
            self._stream = random.Random(seed)
            self._first_seed = None
            self.seed = seed
        elif self._first_seed is not None:
            self.seed, self._first_seed = self._first_seed, None
        else:
            self.seed = self._stream.randrange(SEED_SPACE)
        self.game = Game.new(self.profile, self.players, seed=self.seed, plugins=self.plugins)
        self.oracle = TurnOracle(self.game, self.layout)
        self._mask_key = self._obs_key = None  # a new game may reuse the old one's id
        if self.compact is not None:
            self.compact._cache_key = None
        self.draft = Draft()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._turns = 0
        self._substeps = 0
        self._round_start_scores = list(self.game.state.scores)
        self._clock()
        self._select()

    def _select(self) -> None:
        assert self.game is not None
        self.agent_selection = self.possible_agents[self.game.state.turn]

    def fields(self, agent: str) -> dict[str, np.ndarray]:
        """The structured observation of `agent` (observation_layout's fields,
        unflattened, int counts): what `observe` packs into its vector."""
        game = self._require_game()
        seat = self.possible_agents.index(agent)
        acting = seat == game.state.turn and game.state.phase != OVER and agent in self.agents
        draft = self.draft if acting else Draft()
        side_of = [game.rules.side(s) for s in range(self.players)]
        return encode(game.view(seat), draft, self.layout.slots, side_of)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self.possible_agents.index(agent)
        acting = seat == game.state.turn and game.state.phase != OVER and agent in self.agents
        live = acting and not (self.terminations[agent] or self.truncations[agent])
        # Asked several times per step (the learner, the wrappers, the checkers): kept per state.
        key = (
            id(game),
            len(game.log),
            len(game.events),
            agent,
            live,
            tuple(self.draft.closed),
            self.draft.current,
        )
        if key != self._obs_key:
            # (stored, never written into: observe hands out copies)
            mask = self._legal_mask() if live else np.zeros(self.action_size, dtype=np.int8)
            if self._obs_key is not None and key[:5] == self._obs_key[:5]:
                # Only the draft moved (an add or a close): its four fields are packed anew.
                vector = self.observation_layout.repack(
                    self._obs[0], draft_fields(self.draft if acting else Draft()), self.scaled
                )
            else:
                side_of = [game.rules.side(s) for s in range(self.players)]
                vector = self.observation_layout.pack_state(
                    game.state, seat, self.draft if acting else Draft(), side_of, self.scaled
                )
            self._obs_key, self._obs = key, (vector, mask)
        vector, mask = self._obs
        return {"observation": vector.copy(), "action_mask": mask.copy()}

    def forget(self) -> None:
        """Drop every cached verdict and observation: for a state edited by
        hand (a test setting up a position), which the caches cannot see."""
        self.oracle._key = None
        self._obs_key = None
        self._mask_key = None
        if self.compact is not None:
            self.compact._cache_key = None

    def legal_mask(self) -> np.ndarray:
        """The mask of the seat to play, in this environment's action space."""
        return self._legal_mask().copy()

    def _legal_mask(self) -> np.ndarray:
        """`legal_mask()` itself, not copied: for reading only (step, the
        clock and observe ask it of every state; a copy each time was waste)."""
        if self.compact is not None:
            return self.compact.plans(self.oracle, self.draft)[0]
        # Asked by step, the clock and observe for one state: the draft's part is worked out once.
        oracle = self.oracle
        oracle._refresh()
        draft = self.draft
        key = (oracle._key, tuple(draft.closed), draft.current)
        if key != self._mask_key:
            self._mask_key, self._mask = key, oracle.mask(draft)
        return self._mask

    def action_mask(self) -> np.ndarray:
        """The mask of the agent selected (what its observation carries)."""
        return self.observe(self.agent_selection)["action_mask"]

    def state(self) -> np.ndarray:
        """The full state, for centralised critics: privileged (it shows every
        hand and the stock, which no seat may see). Every seat's observation
        vector, seat 0 first, then the stock's faces as copies (its order is
        not shown)."""
        game = self._require_game()
        parts = [self.observation_layout.pack(self.fields(a), self.scaled) for a in self.possible_agents]
        stock = np.zeros(FACES, dtype=np.float32 if self.scaled else np.int32)
        for c in game.state.stock:
            stock[face_index(c)] += 1
        return np.concatenate([*parts, stock]).astype(self._state_space.dtype)

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    # ------------------------------------------------------------ stepping

    def step(self, action: Any) -> None:
        self._require_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = int(action)
        mask = self._legal_mask()
        if not 0 <= index < self.action_size or not mask[index]:
            raise ValueError(f"action {index} is not legal now (see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.compact is not None:
            plan = self.compact.plans(self.oracle, self.draft)[1][index]
            if plan.group is not None:
                self.draft.closed = [*self.draft.closed, plan.group]
            elif plan.face >= 0:
                self.draft.current = self.draft.current.add(plan.face)
            else:
                self.play_substep(plan.full)
        else:
            self.play_substep(index)
        self._substeps += 1
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
        self._clock()
        if game.state.phase == OVER:
            self._round_over()
        elif self.max_turns is not None and self._turns >= self.max_turns:
            for a in self.agents:
                self.truncations[a] = True
            self._set_infos("truncated")
        if not (all(self.terminations.values()) or all(self.truncations.values())):
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _clock(self) -> None:
        """The clock plays the timeout where the seat cannot or may no longer
        choose: no sub-step left (the engine's default turn is then its only
        move), or `turn_substeps` sub-steps played in this turn."""
        game = self._require_game()
        for _ in range(4 * self.players):  # each timeout ends a turn; a bound, not a loop
            s = game.state
            if s.phase == OVER:
                return
            if s.turn in self.external_seats:
                return
            stuck = self._substeps >= self.turn_substeps or not self._legal_mask().any()
            if not (stuck and self.oracle.timeout_accepted()):
                return
            self._apply(A.Timeout(s.turn))

    def _apply(self, action: A.Action) -> None:
        game = self._require_game()
        before = game.state.turn
        game.apply(action)
        self.draft.clear()
        if game.state.turn != before or game.state.phase == OVER:
            self._turns += 1
            self._substeps = 0

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
        self._set_infos(s.round_end)
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
        self._substeps = 0
        self._round_start_scores = list(game.state.scores)
        self._clock()

    def _set_infos(self, end: str | None) -> None:
        """The round's outcome in every seat's info, at its end and on a
        truncation alike: how it ended ("truncated" when cut by max_turns),
        the winner (None when cut), the penalties paid (when cut: what each
        hand holds, by the rules' card values), the scores."""
        game = self._require_game()
        s = game.state
        cut = end == "truncated"
        penalties = [game.rules.hand_value(h) for h in s.hands] if cut else list(s.penalties)
        for a in self.possible_agents:
            self.infos[a] = {
                "round_end": end,
                "winner": None if cut else s.winner,
                "penalties": penalties,
                "scores": list(s.scores),
                "round_no": s.round_no,
                "turns": self._turns,
                "game_over": False if cut else s.game_over,
                "game_winner": None if cut else s.game_winner,
            }

    # ------------------------------------------------------------ records

    def to_save(self) -> dict[str, Any]:
        """The game so far as a saved game (rami_core.players.savegame): `rami replay` reads it."""
        return to_save(self._require_game())

    def render(self) -> str | None:
        """PettingZoo's and Gymnasium's rule: "ansi" returns the text, "human"
        prints it and returns None, no render_mode renders nothing. The text
        is what the seat to play may see: its hand, its draft, the table, the
        discard top, the others' card counts, the scores."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: rl.env(..., render_mode='ansi')")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        from rami_core.cards import format_card

        game = self._require_game()
        s = game.state
        view = game.view(s.turn)

        def cards(cs) -> str:
            return " ".join(format_card(c) for c in cs) or "-"

        lines = [
            f"{self.profile.name}, round {s.round_no}: seat_{s.turn} to play ({s.phase}); scores {list(s.scores)}",
            f"  hand of seat_{s.turn}: {cards(sorted(view.hand, key=lambda c: (c.suit, c.rank)))}",
        ]
        if not self.draft.empty:
            groups = " | ".join(cards(g.written()) for g in self.draft.groups())
            lines.append(f"  draft: {groups}")
        others = ", ".join(f"seat_{i}: {n}" for i, n in enumerate(view.hand_sizes) if i != s.turn)
        lines.append(f"  cards in the other hands: {others}; stock {view.stock_size}")
        for k, m in enumerate(s.table):
            owner = "" if m.owner is None else f" (seat_{m.owner})"
            lines.append(f"  [{k}]{owner} {cards(m.cards)}")
        lines.append(f"  discard top: {format_card(s.discard[-1]) if s.discard else '-'}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def describe(self, index: int) -> str:
        """A short readable name of an index of this environment's action space."""
        if self.compact is not None:
            return self.compact.describe(index)
        return self.layout.describe(index)


__all__ = ["RamiEnv", "SubStep"]
