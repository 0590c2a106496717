"""A situation and how each profile's referee rules on it.

A situation is written as a conformance scenario is: a closed setup (every
hand, the stock, the discard pile, the table) and the moves of one turn, the
last of them the move the two referees judge differently. Keeping it in the
scenario's own form means the shrinker's result is already the club's test:
nothing is translated between what was found and what is written.

The rulings come from the engine (:func:`rami_core.referee.handlers.play_on`) under
each profile, with the rules built once per profile and seat count: the
shrinker judges hundreds of variants of one situation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rami_core.cards import CardError
from rami_core.game.actions import ActionFormatError, action_from_dict
from rami_core.game.state import GameState
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.referee.engine import Game
from rami_core.referee.handlers import play_on
from rami_core.referee.position import SetupInvalid, closed_state, observe
from rami_core.words.errors import RuleError

# What a move's result is compared on when both referees accept it: the
# expect keys of docs/scenarios.md that a rule can change (the round's
# number, its turns and its dealer follow from the setup alone).
OUTCOME_KEYS = (
    "round_end",
    "winner",
    "rami_sec",
    "penalties",
    "scores",
    "game_over",
    "game_winner",
    "game_loser",
    "phase",
    "turn",
    "hand_sizes",
    "stock_size",
    "discard_size",
    "discard_top",
    "opened",
    "table",
    "hands",
)


MEMO = 4096  # rulings a referee remembers (then it starts afresh)


@dataclass(frozen=True)
class Situation:
    """A closed setup and the moves played from it, in the scenario format's dict forms."""

    setup: dict[str, Any]
    steps: tuple[dict[str, Any], ...]

    @property
    def players(self) -> int:
        return len(self.setup["hands"])


@dataclass
class Ruling:
    """What one referee did with one move: the refusal, or the state after it."""

    error: RuleError | None = None
    state: GameState | None = None

    @property
    def key(self) -> str:
        return "accepted" if self.error is None else self.error.code


@dataclass
class Referee:
    """One profile's referee, its rules built once per seat count."""

    profile: Profile
    _rules: dict[int, Rules | None] = field(default_factory=dict)
    # The last rulings, by situation: the search asks one referee about one
    # situation many times (against each single setting changed, while
    # shrinking), and a ruling never changes (play_on works on a copy).
    _rulings: dict[str, list[Ruling] | None] = field(default_factory=dict)
    _starts: dict[str, GameState | None] = field(default_factory=dict)

    def rules(self, players: int) -> Rules | None:
        if players not in self._rules:
            ok = self.profile.allows_players(players)
            self._rules[players] = rules_for(self.profile, players) if ok else None
        return self._rules[players]

    def start(self, setup: dict[str, Any]) -> GameState | None:
        """The setup's state under this profile, or None where it is no setup
        of this profile (a card its deck lacks, a meld it does not know...)."""
        key = repr(setup)
        if key not in self._starts:
            if len(self._starts) >= MEMO:
                self._starts.clear()
            self._starts[key] = self._start(setup)
        return self._starts[key]

    def _start(self, setup: dict[str, Any]) -> GameState | None:
        hands = setup.get("hands")
        if not isinstance(hands, list) or not hands:
            return None
        rules = self.rules(len(hands))
        if rules is None:
            return None
        try:
            return closed_state(rules, setup)
        except (SetupInvalid, CardError, ValueError):
            return None

    def rulings(self, situation: Situation) -> list[Ruling] | None:
        """The ruling on each move up to the first refused one; None if the setup is not one of this profile."""
        key = repr((situation.setup, situation.steps))
        if key in self._rulings:
            return self._rulings[key]
        if len(self._rulings) >= MEMO:
            self._rulings.clear()
        out = self._rulings[key] = self._judge(situation)
        return out

    def _judge(self, situation: Situation) -> list[Ruling] | None:
        state = self.start(situation.setup)
        if state is None:
            return None
        rules = self.rules(situation.players)
        assert rules is not None  # start() built them
        out: list[Ruling] = []
        for step in situation.steps:
            try:
                action = action_from_dict(step)
            except (ActionFormatError, CardError):
                return None
            try:
                state = play_on(rules, state, action)
            except RuleError as e:
                out.append(Ruling(error=e))
                return out
            out.append(Ruling(state=state))
        return out

    def observed(self, state: GameState, players: int) -> dict[str, Any]:
        """The state as a scenario's `expect` keys see it."""
        rules = self.rules(players)
        assert rules is not None
        return observe(Game(self.profile, players, state, rules=rules))


@dataclass(frozen=True)
class Disagreement:
    """How two referees part on a situation: on the verdict of its last move
    (`a` and `b` the code or "accepted"), or, both accepting every move, on
    what the last one leads to (`keys` the expect keys that differ)."""

    kind: str  # "verdict" | "outcome"
    a: str = ""
    b: str = ""
    keys: tuple[str, ...] = ()

    @property
    def signature(self) -> tuple[str, ...]:
        """What a smaller situation must keep to show the same difference."""
        return (self.kind, self.a, self.b) if self.kind == "verdict" else (self.kind, self.keys[0])


def disagreement(ra: Referee, rb: Referee, situation: Situation) -> Disagreement | None:
    """How A and B part on `situation`, or None when they rule alike (or
    it is not a situation of both)."""
    la, lb = ra.rulings(situation), rb.rulings(situation)
    n = len(situation.steps)
    if la is None or lb is None or len(la) != n or len(lb) != n:
        return None  # not a setup of both, or a move before the last refused (a ruling stops there)
    x, y = la[-1], lb[-1]
    if x.key != y.key:
        return Disagreement("verdict", x.key, y.key)
    if x.error is not None:
        return None  # refused alike
    assert x.state is not None and y.state is not None
    oa, ob = ra.observed(x.state, situation.players), rb.observed(y.state, situation.players)
    keys = tuple(k for k in OUTCOME_KEYS if oa[k] != ob[k] and not _shape_only(oa[k], ob[k]))
    return Disagreement("outcome", keys=keys) if keys else None


def _shape_only(x: Any, y: Any) -> bool:
    """Lists of different lengths: scores per team against scores per seat,
    the same round counted by sides that differ (the teams row of the settings says it)."""
    return isinstance(x, list) and isinstance(y, list) and len(x) != len(y)
