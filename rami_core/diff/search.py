"""The search for situations where two referees rule differently.

States come from two sources: bot games played under A and under B (what
real tables reach), and setups aimed at the settings that differ
(:mod:`.generate`). From each, every candidate move is judged under both
profiles, a few moves deep (a draw, a lay, a discard: a turn); the first
move they part on ends that line. Each new kind of disagreement is shrunk
(:mod:`.shrink`) and then tied to the setting that causes it: the one that,
changed alone in A to B's value, makes A rule as B does.

Everything is drawn from one seeded generator and visited in a fixed
order, so a seed gives the same report each run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from rami_core.cards import format_card, parse_card
from rami_core.cards.melds import read_meld
from rami_core.diff.edge_setups import (
    Focus,
    aimed_setup,
    end_setup,
    focus_for,
    going_out_setup,
    opening_setup,
    random_setup,
)
from rami_core.diff.judged_moves import candidates
from rami_core.diff.settings import SettingChange, moved
from rami_core.diff.shrink import shrink
from rami_core.diff.situation import Disagreement, Referee, Situation, disagreement
from rami_core.game.actions import action_from_dict
from rami_core.game.state import OVER, GameState
from rami_core.referee.engine import Game
from rami_core.referee.handlers import play_on
from rami_core.words.errors import RuleError

DEFAULT_BUDGET = 300  # states tried: every preset pair finishes in seconds (benchmarks/bench_diff.py)
DEPTH = 3  # moves deep from each state: a draw, a lay, a discard
WIDTH = 4  # moves both accept that are followed further, per state
MAX_FOUND = 12  # situations reported, at least (one more per setting that differs beyond that)
AIM_SHARE = 3  # the first search's states: budget // AIM_SHARE; the rest for the settings still unexplained
EDGE_SHARE = 0.15  # setups at a round's end, and hands going out at once, each (where they matter)
AIMED_SHARE = (
    0.85  # setups at the edge of its setting, in a setting's own search (a random one may take 20 states)
)
AIM_LEAST = 8  # states each aimed search tries at least
AIM_OWN = 4  # a setting's own search: budget // AIM_OWN states a side, past the budget if need be
MAX_IDLE = 200  # setups in a row that start under neither side before a search gives up
MASKED_KEPT = 3  # situations kept where a setting alone parts the referees but A and B do not
# Settings the referee never reads on a move from a set-up state: the seat
# counts and the deal (the deal's summary shows them), and the turn clock
# (the table's, not the engine's).
NOT_AIMED = ("players.", "deal.", "turn.", "plugins.timeout_penalty")
MAX_TRIES = 10  # findings of one kind whose causes are weighed, before that kind is left alone


@dataclass
class Found:
    """A shrunk situation, how A and B part on it, and the settings that cause it."""

    situation: Situation
    how: Disagreement
    causes: list[str]


@dataclass
class SearchResult:
    found: list[Found] = field(default_factory=list)
    tried: int = 0
    # Per setting left without a situation: what its own search saw where
    # that setting alone parts two referees and A and B do not (the pair of
    # referees, the situation), for :mod:`.reasons` to say why.
    masked: dict[str, list[tuple[Referee, Referee, Situation]]] = field(default_factory=dict)
    own_tried: dict[str, int] = field(default_factory=dict)  # states each setting's own search tried


def setup_of(state: GameState) -> dict[str, Any]:
    """A state at the start of a turn as a scenario setup."""
    f = lambda c: format_card(c.face_card)  # noqa: E731
    setup: dict[str, Any] = {
        "hands": [[f(c) for c in h] for h in state.hands],
        "stock": [f(c) for c in reversed(state.stock)],
        "discard": [f(c) for c in state.discard],
        "table": [
            {"cards": [f(c) for c in m.cards], "owner": m.owner}
            if m.owner is not None
            else {"cards": [f(c) for c in m.cards]}
            for m in state.table
        ],
        "opened": list(state.opened),
        "turn": state.turn,
        "phase": state.phase,
    }
    if any(state.scores):
        setup["scores"] = list(state.scores)
    return setup


class Search:
    def __init__(
        self,
        a: Referee,
        b: Referee,
        changes: list[SettingChange],
        seed: int,
        budget: int,
        aimed: bool = True,
    ):
        self.a, self.b = a, b
        self.aimed = aimed  # whether settings left unexplained get a search of their own
        self.aim_path: str | None = None  # the setting a search of its own is aimed at
        # In a setting's own search, the pair it serves: only situations those
        # two part on too are kept (and shrunk so they still do).
        self.outer: tuple[Referee, Referee] | None = None
        self.changes = changes
        self.rng = random.Random(f"rami-diff:{seed}")
        self.seed = seed
        self.budget = budget
        self.limit = budget  # the states the search now under way stops at
        self.result = SearchResult()
        self.rearrange = any(
            r is not None and r.may_rearrange
            for ref in (a, b)
            for n in ref.profile.player_counts()
            if (r := ref.rules(n))
        )
        self.actions: dict[str, Any] = {}
        self.tries: dict[tuple[str, ...], int] = {}
        self.kinds: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        # A with one setting changed alone to B's value, and B with one put
        # back alone to A's: what tells a setting that matters only beside
        # another (set_swap beside a swap A forbids) apart.
        self.singles: dict[str, Referee] = {}
        self.backs: dict[str, Referee] = {}
        # For a setting's own search only: the same, with the fewest companions
        # it needs where it holds only together with another (voleur's jokers
        # move on the table only where the table is rearranged). Not asked for
        # the causes of other findings: a companion would be blamed for them.
        self.own: dict[str, tuple[Referee | None, Referee | None]] = {}
        for c in changes:
            ahead = moved(a.profile, c, changes, to_b=True)
            back = moved(b.profile, c, changes, to_b=False)
            if ahead is not None and not ahead[1]:
                self.singles[c.path] = Referee(ahead[0])
            if back is not None and not back[1]:
                self.backs[c.path] = Referee(back[0])
            self.own[c.path] = (
                self.singles.get(c.path) or (Referee(ahead[0]) if ahead else None),
                self.backs.get(c.path) or (Referee(back[0]) if back else None),
            )
        self.max_found = max(MAX_FOUND, len(changes) + 2)

    # -------------------------------------------------------------- driving

    def run(self) -> SearchResult:
        focus = focus_for(self.a.profile, self.b.profile, [c.path for c in self.changes])
        if focus is None or not self.changes:
            return self.result
        if not self.aimed:
            if self.outer is not None:
                focus = _within(focus, focus_for(self.outer[0].profile, self.outer[1].profile, []))
            if focus is not None:
                self._search(focus, [], self.budget)
            return self.result
        starts = self._played(focus)
        self._search(focus, starts, self.budget // AIM_SHARE)
        self._aim()
        self._search(focus, starts, self.budget)  # what the own searches left of the budget
        # A finding no single setting explains, where one that is explained parts the
        # referees the same way, says nothing more: it is left out.
        explained = {f.how.signature for f in self.result.found if f.causes}
        self.result.found = [f for f in self.result.found if f.causes or f.how.signature not in explained]
        return self.result

    def _search(self, focus: Focus, starts: list[dict[str, Any]], until: int) -> None:
        """States from bot games and aimed setups, judged under A and B, until `until` were tried."""
        self.limit = until
        idle = 0  # setups in a row that are no table of A or of B: a pair whose setups never start ends
        while self.result.tried < until and len(self.result.found) < self.max_found and idle < MAX_IDLE:
            if self._all_explained():
                return
            if starts and self.result.tried % 3 == 0:
                setup = starts.pop(0)
            else:
                setup = self._setup(focus)
            sit = Situation(setup, ())
            before = self.result.tried
            self._explore(sit, self.a.start(setup), self.b.start(setup), DEPTH)
            idle = 0 if self.result.tried > before else idle + 1

    def _setup(self, focus: Focus) -> dict[str, Any]:
        """An aimed setup: mostly a random one around the focus, sometimes a
        round one discard from its end (where scores or targets differ) or a
        hand that may go out at once (where an opening threshold is asked)."""
        roll = self.rng.random()
        if self.aim_path is not None and roll < AIMED_SHARE:
            setup = aimed_setup(self.aim_path, self.rng, focus, self._reader(focus))
            if setup is not None:
                return setup
            roll = self.rng.random()
        if focus.scores and roll < EDGE_SHARE:
            return end_setup(self.rng, focus)
        if focus.thresholds and roll > 1 - 2 * EDGE_SHARE:
            make = going_out_setup if roll > 1 - EDGE_SHARE else opening_setup
            setup = make(self.rng, focus, self._reader(focus))
            if setup is not None:
                return setup
        return random_setup(self.rng, focus, self._reader(focus))

    def _unexplained(self) -> list[SettingChange]:
        explained = {p for f in self.result.found for p in f.causes}
        return [c for c in self.changes if c.path not in explained]

    def _all_explained(self) -> bool:
        return not self._unexplained()

    def _aim(self) -> int:
        """For each setting no finding is tied to yet, a search of its own: A
        against A with that setting alone changed (then B with it put back
        against B), each situation they part on judged by A and B. A setting
        whose edge random setups rarely reach (a joker kept past the turn, a
        target crossed) is found where it alone differs, then shown where the
        whole files do. Each side gets budget // AIM_OWN states of its own,
        past the pair's budget where many settings are left: a pair far
        apart (eighteen settings) would otherwise leave each a handful. The
        states these searches tried."""
        if self.budget <= 0:
            return 0
        own = max(AIM_LEAST, self.budget // AIM_OWN)
        before = self.result.tried
        aimed = [c for c in self._unexplained() if not c.path.startswith(NOT_AIMED)]
        for change in aimed:
            if change not in self._unexplained():
                continue  # found by an earlier setting's search
            ahead, back = self.own[change.path]
            for x, y in ((self.a, ahead), (back, self.b)):
                if x is None or y is None:
                    continue
                sub = Search(x, y, [change], self.seed, own, aimed=False)
                sub.rng = random.Random(f"rami-diff:{self.seed}:{change.path}:{x is self.a}")
                sub.max_found = 3
                sub.aim_path = change.path
                sub.outer = (self.a, self.b)
                found = sub.run()
                self.result.tried += found.tried
                self.result.own_tried[change.path] = self.result.own_tried.get(change.path, 0) + found.tried
                for f in found.found:
                    self._keep(f.situation, (x, y, change.path))
                    if change.path in {p for f in self.result.found for p in f.causes}:
                        break  # one situation a setting: the first search floods, its own does not
                self.result.masked.setdefault(change.path, []).extend(found.masked.get(change.path, []))
                if change.path in {p for f in self.result.found for p in f.causes}:
                    break
        return self.result.tried - before

    def _reader(self, focus: Focus):
        rules = self.a.rules(focus.players[0])

        def read(cards: list[str]):
            """(kind, stands) with the face each card stands for in `cards`' own order."""
            if rules is None:
                return None
            parsed = [parse_card(c) for c in cards]
            r = read_meld(parsed, rules.melds)
            if r is None:
                return None
            # The reading's order is its own (a run's places, a set's suits):
            # each card's face taken back in the order given, jokers last.
            left = list(zip(r.cards, r.stands, strict=True))
            stands = []
            for c in parsed:
                k = next(k for k, (d, _) in enumerate(left) if d.face == c.face)
                stands.append(left.pop(k)[1])
            return (r.kind, stands)

        return read

    def _played(self, focus: Focus) -> list[dict[str, Any]]:
        """Turn starts of bot games under A and under B (a few turns apart)."""
        from rami_core.players.bots import make_bot

        out: list[dict[str, Any]] = []
        players = focus.players[0]
        for i, ref in enumerate((self.a, self.b)):
            rules = ref.rules(players)
            if rules is None:
                continue
            game = Game.new(ref.profile, players, seed=self.seed * 2 + i)
            bots = [make_bot("greedy", self.seed + k) for k in range(players)]
            seen = -1
            for _ in range(400):
                s = game.state
                if s.phase == OVER:
                    break
                if s.turns_played != seen:
                    seen = s.turns_played
                    if seen % 5 == 2 and not s.laid_this_turn and s.drew_from is None:
                        out.append(setup_of(s))
                try:
                    game.apply(bots[s.turn].choose(game.view(s.turn), rules))
                except RuleError:
                    break
        return out

    # -------------------------------------------------------------- one state

    def _explore(self, sit: Situation, sa: GameState | None, sb: GameState | None, depth: int) -> None:
        if self.result.tried >= self.limit or depth == 0:
            return
        if sa is None or sb is None or sa.phase == OVER:
            return
        self.result.tried += 1
        ra, rb = self.a.rules(sit.players), self.b.rules(sit.players)
        assert ra is not None and rb is not None
        # Followed first: draws (a turn goes on), joker swaps (what a swap
        # owes shows only on the moves after it) and melds that leave one card
        # (going out: a rami sec, a penalty); then a random few others.
        follow: list[tuple[Situation, GameState, GameState]] = []
        others: list[tuple[Situation, GameState, GameState]] = []
        for move in candidates(sa, rearrange=self.rearrange):
            key = repr(move)
            action = self.actions.get(key)
            if action is None:
                action = self.actions[key] = action_from_dict(move)
            na = nb = None
            ea = eb = None
            try:
                na = play_on(ra, sa, action)
            except RuleError as e:
                ea = e.code
            try:
                nb = play_on(rb, sb, action)
            except RuleError as e:
                eb = e.code
            longer = Situation(sit.setup, (*sit.steps, move))
            if ea != eb:
                self._keep(longer)
            elif na is not None and nb is not None:
                if _differs(na, nb):
                    self._keep(longer)
                elif "draw" in move or "swap" in move or ("meld" in move and len(na.hands[sa.turn]) <= 1):
                    follow.append((longer, na, nb))
                elif self.rng.random() < 0.2 and not (self.aim_path or "").startswith("opening."):
                    # An opening setting's own search follows only what its setups aim
                    # at (an opening is judged in the setup's turn): its few states go
                    # to more setups, not to the turns after a discard.
                    others.append((longer, na, nb))
        for nxt, na, nb in (follow + others)[:WIDTH]:
            self._explore(nxt, na, nb, depth - 1)

    # -------------------------------------------------------------- a finding

    def _causes(self, sit: Situation, how: Disagreement) -> list[str]:
        """The settings that, changed alone in A, make A rule as B does; where
        none does, those that, put back alone in B, make B rule otherwise
        (a setting that matters only beside another that differs too)."""
        ahead = [path for path, ref in self.singles.items() if _same(disagreement(self.a, ref, sit), how)]
        if ahead:
            return ahead
        return [path for path, ref in self.backs.items() if disagreement(ref, self.b, sit) is not None]

    def _keep(self, sit: Situation, aimed: tuple[Referee, Referee, str] | None = None) -> None:
        """Shrink and keep a situation A and B part on, with its causes.
        `aimed`: the two referees of one setting's own search and that
        setting, when the situation comes from it. The shrunk situation still
        parts those two, so the setting is among its causes: it alone
        changes the ruling there, and A and B rule differently there too."""
        if len(self.result.found) >= self.max_found and aimed is None:
            return  # a setting's own search keeps its one situation, however many the first found
        how = disagreement(self.a, self.b, sit)
        if how is None:
            return
        if self.outer is not None and disagreement(*self.outer, sit) is None:
            # This setting alone parts the referees here, the pair's files do
            # not: the evidence that another setting masks it (or that the pair
            # cannot set this table up), kept for the report's reason.
            masked = self.result.masked.setdefault(self.changes[0].path, [])
            if len(masked) < MASKED_KEPT:
                masked.append((self.a, self.b, sit))
            return
        # A setting's own search brings few findings, each the one its setting
        # has: weighed whatever the first search already spent on their kind.
        if aimed is None:
            if self.tries.get(how.signature, 0) >= MAX_TRIES:
                return
            self.tries[how.signature] = self.tries.get(how.signature, 0) + 1
        key = (how.signature, tuple(self._causes(sit, how)) + ((aimed[2],) if aimed else ()))
        if key in self.kinds:
            return
        self.kinds.add(key)

        def keeps(s: Situation) -> bool:
            if not _same(disagreement(self.a, self.b, s), how):
                return False
            if self.outer is not None and disagreement(*self.outer, s) is None:
                return False
            return aimed is None or disagreement(aimed[0], aimed[1], s) is not None

        small = shrink(sit, keeps)
        final = disagreement(self.a, self.b, small)
        assert final is not None  # the shrinker keeps only what still disagrees
        causes = self._causes(small, final)
        if aimed is not None and aimed[2] not in causes:
            order = [c.path for c in self.changes]
            causes = sorted([*causes, aimed[2]], key=order.index)
        if any(f.how.signature == final.signature and f.causes == causes for f in self.result.found):
            return  # shrunk, it is one already found
        self.result.found.append(Found(small, final, causes))


def _within(focus: Focus, outer: Focus | None) -> Focus | None:
    """`focus` kept to the cards and seat counts of the pair a setting's own
    search serves: a setup that pair cannot set up is no situation of theirs."""
    if outer is None:
        return None
    players = tuple(n for n in focus.players if n in outer.players)
    if not players:
        return None
    return replace(
        focus, players=players, decks=min(focus.decks, outer.decks), jokers=min(focus.jokers, outer.jokers)
    )


def _differs(x: GameState, y: GameState) -> bool:
    """Whether two states after the same accepted move part on anything a rule decides."""
    return (
        x.phase != y.phase
        or x.turn != y.turn
        or len(x.stock) != len(y.stock)
        or len(x.discard) != len(y.discard)
        or (x.penalties != y.penalties and len(x.penalties) == len(y.penalties))
        or (x.scores != y.scores and len(x.scores) == len(y.scores))
        or x.game_over != y.game_over
        or x.opened != y.opened
        or [len(h) for h in x.hands] != [len(h) for h in y.hands]
    )


def _same(got: Disagreement | None, want: Disagreement) -> bool:
    return got is not None and got.signature == want.signature
