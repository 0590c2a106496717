"""A game's lifecycle: `Game` deals each round, applies the moves the handlers
judge, keeps the log and the events and tells them, undoes to a checkpoint,
and plays the clock's default turn; `deal` lays a round out from the seed.

What a move does to the table is judged on a state alone, by the handlers
(rami_core.referee.handlers) under the gates they share with the legal moves
(rami_core.referee.gates); what needs the game's history (the turn's start
for a timeout, the log, the listeners, the next round's first player) is
here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

from rami_core.cards import Card, build_deck, shuffled
from rami_core.game import actions as A
from rami_core.game.events import Event, events_for, round_dealt
from rami_core.game.state import DRAW, LAY, OVER, GameState
from rami_core.game.views import SeatView, view
from rami_core.profile.model import Profile, TimeoutAction
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.referee import handlers
from rami_core.referee.gates import DISCARD, STOCK, check_round_over, check_turn
from rami_core.referee.scoring import REPLAY, payments
from rami_core.referee.seeds import rng_for
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason


class Game:
    """One table: fixed rules, the current state, the log of accepted actions
    and the events they caused. Games share nothing: each has its own rules
    object and plugin manager, so any number can run in one process."""

    def __init__(
        self,
        profile: Profile,
        players: int,
        state: GameState,
        plugins: Sequence[object] = (),
        *,
        rules: Rules | None = None,
    ):
        self.profile = profile
        self.rules = rules if rules is not None else rules_for(profile, players, plugins)
        self.state = state
        self.log: list[A.Action | A.NextRound] = []
        self.events: list[Event] = []
        self._listeners: list[tuple[Callable[[Event], None], int | None]] = []
        self.listener_errors: list[tuple[Callable[[Event], None], Event, Exception]] = []
        self._turn_start = state.copy()

    # ------------------------------------------------------------ creation

    @classmethod
    def new(
        cls, profile: Profile, players: int, seed: int | None = 0, plugins: Sequence[object] = ()
    ) -> Game:
        """A fresh game: round 1 dealt from `seed` (fully deterministic)."""
        if not isinstance(profile, Profile):
            raise TypeError(
                f"profile must be a Profile (see rami_core.profile.loader.load_profile), got {type(profile).__name__}"
            )
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players must be an int, got {type(players).__name__} {players!r:.40}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {type(seed).__name__} {seed!r:.40}")
        if not profile.allows_players(players):
            raise ValueError(f"{profile.name} is not played by {players} players")
        rules = rules_for(profile, players, plugins)
        if rules.random_first_player:
            first = rng_for(seed, "first").randrange(players)
        else:
            first = 0
        state = deal(rules, seed, 1, first, [0] * rules.sides)
        game = cls(profile, players, state, rules=rules)
        game._emit([round_dealt(state)])
        return game

    def next_deal(self) -> tuple[int, int, int]:
        """The next round's number, first player and deal attempt, once this
        round is over: the first player rotates one seat where the profile says
        so (« la main tourne à chaque manche »); a round to replay keeps its
        number and its first player and is dealt afresh (the next attempt)."""
        s = self.state
        check_round_over(s)
        replay = s.round_end == REPLAY
        first = s.first_player
        if not replay and self.rules.rotate_first_player:
            first = (first + 1) % self.rules.players
        round_no = s.round_no if replay else s.round_no + 1
        return round_no, first, s.reshuffles + 1 if replay else 0

    def next_round(self, dealt: GameState | None = None) -> None:
        """Deal the next round once this one is over (see :meth:`next_deal`).
        `dealt`: the round's table given whole instead of dealt from the seed
        (a scenario's closed setup); it must carry the numbers next_deal gives."""
        round_no, first, attempt = self.next_deal()
        s = self.state
        if dealt is None:
            new = deal(self.rules, s.seed, round_no, first, list(s.scores), attempt=attempt)
        else:
            if (dealt.round_no, dealt.first_player, dealt.players) != (round_no, first, s.players):
                raise ValueError("a round given whole must carry the next round's number and first player")
            new = dealt
        self._emit([round_dealt(new)], before_commit=True)
        self.state = new
        self._turn_start = new.copy()
        self.log.append(A.NextRound())
        self.events.append(round_dealt(new))  # every round's deal is in the event list, not only the first
        self._notify(self.events[-1:])

    # ------------------------------------------------------------ reading

    def view(self, seat: int) -> SeatView:
        """What `seat` may know, and nothing more: what bots and interfaces get."""
        return view(self.state, seat, teams=self.rules.teams)

    def subscribe(self, listener: Callable[[Event], None], seat: int | None = -1) -> None:
        """Call `listener` with every event from now on. `seat`: the seat whose
        private stream to follow (its own draws shown, others' hidden); None
        for a spectator's stream; -1 (default) for the full stream, hidden
        cards included (a referee's log).

        Listeners are told after a move is committed, so a listener that
        raises cannot undo or hide the move: its exception is kept in
        :attr:`listener_errors` (listener, event, exception), reported as a
        RuntimeWarning, and the other listeners are still told."""
        self._listeners.append((listener, seat))

    def checkpoint(self) -> tuple:
        """Everything apply() changes, for rollback(): an app's undo of moves
        already played (to judge a move without playing it, ask `played`)."""
        return (self.state.copy(), len(self.log), len(self.events), self._turn_start.copy())

    def rollback(self, checkpoint: tuple) -> None:
        """Go back to a checkpoint of this game (later actions and events are dropped)."""
        state, nlog, nev, turn_start = checkpoint
        self.state = state.copy()
        del self.log[nlog:]
        del self.events[nev:]
        self._turn_start = turn_start.copy()

    def events_for_seat(self, seat: int | None) -> list[Event]:
        """Every event of the game as `seat` may see it (None: a spectator), hidden cards masked."""
        return [e.for_seat(seat) for e in self.events]

    # ------------------------------------------------------------ actions

    def played(self, action: A.Action) -> GameState:
        """The state after `action`, on a copy; raise RuleError if it is
        illegal. Nothing is changed, told or logged: what `apply` would play,
        timeouts included (which need this game's turn start, unlike
        `play_on`)."""
        return self._played(action)[0]

    def _played(self, action: A.Action) -> tuple[GameState, bool]:
        """The state after `action` on a copy, and whether the seat's turn was
        undone first (a timeout that could not end the turn as it stood)."""
        if isinstance(action, A.Timeout):
            return self._timeout(action)
        return handlers.play_on(self.rules, self.state, action), False

    def apply(self, action: A.Action) -> None:
        """Play one action; raise RuleError (nothing changed) if it is illegal."""
        new, undone = self._played(action)
        # An undone turn is told from its start: the default draw and discard follow the undo.
        events = events_for(
            action,
            self._turn_start if undone else self.state,
            new,
            discard_enabled=self.rules.ends_with_discard,
            payments=payments(self.rules, new) if new.phase == OVER else None,
        )
        if undone:
            events[0] = Event(events[0].kind, events[0].seat, {"undone": True})
        # Plugins observe before the state is committed: one that fails leaves the game as it was.
        for e in events:
            self.rules.hooks.call_all("rami_event", rules=self.rules, event=e)
        if new.turn != self.state.turn or new.phase == OVER or new.round_no != self.state.round_no:
            self._turn_start = new.copy()
        self.state = new
        self.log.append(action)
        self.events.extend(events)
        self._notify(events)

    def _emit(self, events: list[Event], before_commit: bool = False) -> None:
        for e in events:
            self.rules.hooks.call_all("rami_event", rules=self.rules, event=e)
        if not before_commit:
            self.events.extend(events)
            self._notify(events)

    def _notify(self, events: list[Event]) -> None:
        for listener, seat in self._listeners:
            for e in events:
                try:
                    listener(e if seat == -1 else e.for_seat(seat))
                except Exception as exc:  # the move stands: see subscribe()
                    self.listener_errors.append((listener, e, exc))
                    warnings.warn(
                        f"a listener failed on event {e.kind} (the move stands): {type(exc).__name__}: {exc}",
                        RuntimeWarning,
                        stacklevel=3,
                    )

    def _timeout(self, action: A.Timeout) -> tuple[GameState, bool]:
        """The clock ran out: draw if the seat has not drawn, then end the turn
        (discarding the card drawn where the profile has a discard). If the
        turn cannot end as it stands (a joker or a taken discard still owed),
        what the seat did this turn is undone first."""
        s = self.state
        check_turn(s, action.seat)
        # turn.timeout names what the clock does; draw_then_pass is the one
        # default turn the profile format knows (a new value needs its branch here).
        if self.rules.timeout_action != TimeoutAction.draw_then_pass:
            raise ValueError(f"no timeout action {self.rules.timeout_action!r}")
        for undone, base in ((False, s), (True, self._turn_start)):
            new = base.copy()
            try:
                if new.phase == DRAW:
                    try:
                        handlers.draw(self.rules, new, A.Draw(action.seat, STOCK))
                    except RuleError:
                        if new.discard and self.rules.draw_from_discard:
                            handlers.draw(self.rules, new, A.Draw(action.seat, DISCARD))
                        else:
                            raise
                if new.phase != OVER:
                    if self.rules.ends_with_discard:
                        new = self._timeout_discard(new, action.seat)
                    else:
                        handlers.end_turn(self.rules, new, A.EndTurn(action.seat))
                self.rules.hooks.call_all("rami_timeout", rules=self.rules, state=new, seat=action.seat)
                return new, undone
            except RuleError:
                continue
        raise RuleError("wrong_phase", Reason("no_timeout"))

    def _timeout_discard(self, s: GameState, seat: int) -> GameState:
        """Discard the card drawn or, where a rule forbids it, the costliest card that may go."""
        hand = s.hands[seat]
        order = [hand[-1]] + sorted(hand[:-1], key=lambda c: -self.rules.hand_value([c]))
        for card in order:
            trial = s.copy()
            try:
                handlers.discard(self.rules, trial, A.Discard(seat, card))
                return trial
            except RuleError:
                pass
        # Every card is barred by a house rule on discards: the clock still ends
        # the turn, so the card drawn goes without asking the plugins.
        trial = s.copy()
        handlers.discard(self.rules, trial, A.Discard(seat, hand[-1]), house_rules=False)
        return trial


# ------------------------------------------------------------------ dealing


def deal(
    rules: Rules, seed: int | None, round_no: int, first: int, scores: list[int], attempt: int = 0
) -> GameState:
    n = rules.players
    stock = shuffled(build_deck(rules.decks, rules.deck_jokers), rng_for(seed, "deal", round_no, attempt))
    hands: list[list[Card]] = [[] for _ in range(n)]
    size = rules.hand_size
    for i in range(size * n):
        hands[(first + i) % n].append(stock.pop())
    phase = DRAW
    if rules.dealer_extra_card:
        hands[first].append(stock.pop())
        phase = LAY
    discard = [stock.pop()] if rules.upcard else []
    opened = [not rules.has_opening] * n
    state = GameState(
        players=n,
        hands=hands,
        stock=stock,
        discard=discard,
        table=[],
        opened=opened,
        laid_before=[False] * n,
        scores=scores,
        turn=first,
        phase=phase,
        round_no=round_no,
        first_player=first,
        seed=seed,
        reshuffles=attempt,
    )
    rules.hooks.call_all("rami_deal", rules=rules, state=state)
    return state


__all__ = ["Game", "deal"]
