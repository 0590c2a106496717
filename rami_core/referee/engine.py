"""The turn machine: draw, lay, discard or end the turn, as the profile says.

Every action runs on a copy of the state and replaces the state only if it
completes: a refused action raises one RuleError and leaves the game exactly
as it was, whatever it had checked or moved before failing. Checks run in the
order of `rami_core.words.errors.ERROR_CODES` so that, where several apply, the
first one listed there is the one reported. No variant is named here: every difference
between tables comes from the profile.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rami_core.cards import Card, build_deck, format_card, shuffled
from rami_core.cards.melds import Reading, lay_off_positional, read_meld, swap_positional, why_invalid
from rami_core.game import actions as A
from rami_core.game.events import Event, events_for, round_dealt
from rami_core.game.state import DRAW, LAY, OVER, GameState, TableMeld
from rami_core.game.views import SeatView, view
from rami_core.profile.model import EmptyStock, JokerSwap, Profile, TimeoutAction
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.referee.opening import opening_problem
from rami_core.referee.scoring import (
    EMPTY_NOBODY,
    OUT,
    REPLAY,
    check_game_over,
    finish_round,
    payments,
    round_over_on_empty_stock,
)
from rami_core.referee.table_jokers import joker_departure_refusal
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason

STOCK = "stock"
DISCARD = "discard"


def rng_for(seed: int | None, *parts: object) -> random.Random:
    """Every shuffle draws from Python's Mersenne Twister seeded with a string
    naming the game seed and the event, so a seed replays the same deals in
    later versions and a reshuffle never depends on what came before it."""
    return random.Random(":".join(["rami", str(seed if seed is not None else 0), *map(str, parts)]))


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
        return play_on(self.rules, self.state, action), False

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
                        _draw(self.rules, new, A.Draw(action.seat, STOCK))
                    except RuleError:
                        if new.discard and self.rules.draw_from_discard:
                            _draw(self.rules, new, A.Draw(action.seat, DISCARD))
                        else:
                            raise
                if new.phase != OVER:
                    if self.rules.ends_with_discard:
                        new = self._timeout_discard(new, action.seat)
                    else:
                        _end_turn(self.rules, new, A.EndTurn(action.seat))
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
                _discard(self.rules, trial, A.Discard(seat, card))
                return trial
            except RuleError:
                pass
        # Every card is barred by a house rule on discards: the clock still ends
        # the turn, so the card drawn goes without asking the plugins.
        trial = s.copy()
        _discard(self.rules, trial, A.Discard(seat, hand[-1]), house_rules=False)
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


# ------------------------------------------------------------------ shared checks


# Each rule below is one function, called by the action's handler at its
# place in the contract's order and by `rami_core.referee.legal` (what a seat may do
# now), so that what is offered and what is accepted are judged alike.


def check_turn(s: GameState, player: int) -> None:
    """The round is on and it is `player`'s turn."""
    if s.phase == OVER:
        raise RuleError("wrong_phase", Reason("round_is_over"))
    if player != s.turn:
        raise RuleError("not_your_turn", Reason("other_turn", turn=s.turn, seat=player))


def check_drawn(s: GameState, what: str) -> None:
    """The seat has drawn this turn (laying, discarding and ending come after the draw)."""
    if s.phase != LAY:
        raise RuleError("wrong_phase", Reason("draw_first", what=what))


def _owed_first(s: GameState) -> list[Card]:
    """The hand's cards a face names before its other copies, in order: the
    card taken from the discard pile if it is also a joker owed to the table,
    the jokers owed to the table (freed by a swap this turn, the last freed
    first), then the card taken from the discard pile. Identical cards differ
    only in these public facts, so a seat that rebuilds the state from its
    view picks the same cards and gets the same rulings."""
    t = s.taken_discard
    if t is None and not s.jokers_to_replay:
        return []  # the common case, asked per card by the legal moves' discards
    owed = [c for c in reversed(s.jokers_to_replay) if c != t]
    if t is None:
        return owed
    if t in s.jokers_to_replay:
        return [t, *owed]
    return [*owed, t]


def _take_from_hand(hand: list[Card], faces: Sequence[Card], first: Sequence[Card] = ()) -> list[Card]:
    """Remove the physical cards for these faces from `hand` (a working copy):
    the cards of ``first`` still in hand before any other copy of their face,
    else the copy the hand received last."""
    taken: list[Card] = []
    for face in faces:
        target = face.face
        for c in first:
            if c.face == target and c in hand:
                hand.remove(c)
                taken.append(c)
                break
        else:
            for i in range(len(hand) - 1, -1, -1):
                if hand[i].face == target:
                    taken.append(hand.pop(i))
                    break
            else:
                need = sum(1 for f in faces if f.face == target)
                raise RuleError(
                    "card_not_in_hand",
                    Reason("not_in_hand_n", card=format_card(face), n=need)
                    if need > 1
                    else Reason("not_in_hand", card=format_card(face)),
                )
    return taken


def _take_one(hand: list[Card], face: Card, first: Sequence[Card] = ()) -> Card:
    """`_take_from_hand(hand, [face], first)[0]` for one face (a discard),
    the same card taken and the same refusal."""
    rank, suit = face.rank, face.suit
    for c in first:
        if c.rank == rank and c.suit == suit and c in hand:
            hand.remove(c)
            return c
    for i in range(len(hand) - 1, -1, -1):
        c = hand[i]
        if c.rank == rank and c.suit == suit:
            return hand.pop(i)
    raise RuleError("card_not_in_hand", Reason("not_in_hand", card=format_card(face)))


def check_opened(rules: Rules, s: GameState, seat: int, what: str) -> None:
    """The seat (or its team) has opened, and not this very turn where the profile waits a turn."""
    if not rules.may_lay_freely(s, seat):
        raise RuleError("not_opened", Reason("open_first", what=what))
    if s.opened_this_turn and not rules.lay_in_opening_turn:
        raise RuleError("not_opened", Reason("next_turn", what=what))


def _check_keep_discard(rules: Rules, hand_after: list[Card]) -> None:
    """A lay leaves the cards the profile keeps for going out (a card to discard)."""
    if len(hand_after) < rules.kept_going_out:
        raise RuleError("must_keep_discard", Reason("keep_one"))


def _table_acceptable(
    rules: Rules, s: GameState, a: A.Action, old_table: list[TableMeld], given: Sequence[Card]
) -> None:
    """House rules about the table a lay leaves behind (rami_table_acceptable)."""
    rules.hooks.refuse_if(
        "rami_table_acceptable",
        rules=rules,
        state=s,
        seat=a.seat,
        old_table=old_table,
        new_table=list(s.table),
        given=list(given),
        action=a,
    )


def check_joker_departures(
    rules: Rules, old_table: Sequence[TableMeld], new_table: Sequence[TableMeld]
) -> None:
    """A joker leaves a set only as ``jokers.set_swap`` allows, and, where
    jokers are won back by the card they stand for (``jokers.swap: to_hand``),
    a run only when that card takes its place; whatever action took it
    (rami_core/referee/table_jokers.py judges the two tables)."""
    refusal = joker_departure_refusal(
        rules.set_swap_any,
        [m.reading for m in old_table],
        [m.reading for m in new_table],
        run_exact=rules.swaps_to_hand,
    )
    if refusal is not None:
        raise refusal


def _finish_lay(
    rules: Rules, s: GameState, a: A.Action, old_table: list[TableMeld], placed: Sequence[Card]
) -> None:
    """The end every lay shares: a card kept to discard, the house rules on
    the new table, then the bookkeeping (and going out)."""
    # joker_swap_forbidden comes before must_keep_discard in the codes' order
    check_joker_departures(rules, old_table, s.table)
    _check_keep_discard(rules, s.hands[a.seat])
    _table_acceptable(rules, s, a, old_table, placed)
    _after_lay(rules, s, a.seat, placed)


def _after_lay(rules: Rules, s: GameState, seat: int, placed: Sequence[Card]) -> None:
    """Bookkeeping shared by every action that puts hand cards on the table."""
    s.laid_this_turn = True
    for c in placed:
        if c in s.jokers_to_replay:
            s.jokers_to_replay.remove(c)
    if not s.hands[seat]:
        finish_round(rules, s, seat, OUT)


# ------------------------------------------------------------------ draw


def check_not_drawn(s: GameState) -> None:
    """One draw a turn."""
    if s.phase != DRAW:
        raise RuleError("wrong_phase", Reason("drawn_already"))


def check_discard_draw(rules: Rules, s: GameState, seat: int) -> None:
    """The discard pile's top may be taken now: the profile draws from it, the
    moment allows it (``draw.discard_before_opening``), there is one, and no
    house rule says no."""
    if not rules.draw_from_discard:
        raise RuleError("draw_forbidden", Reason("stock_only"))
    if not rules.discard_draw_before_opening and not rules.may_lay_freely(s, seat):
        raise RuleError("draw_forbidden", Reason("discard_after_opening"))
    if not s.discard:
        raise RuleError("draw_forbidden", Reason("discard_empty"))
    rules.hooks.refuse_if("rami_draw_allowed", rules=rules, state=s, seat=seat, source=DISCARD)


def _draw(rules: Rules, s: GameState, a: A.Draw) -> None:
    gate_draw(rules, s, a.seat)
    hand = s.hands[a.seat]
    if a.source == DISCARD:
        check_discard_draw(rules, s, a.seat)
        card = s.discard.pop()
        hand.append(card)
        s.taken_discard = card
        s.drew_from = DISCARD
        s.phase = LAY
        return
    if a.source != STOCK:
        raise RuleError("draw_forbidden", Reason("no_pile", pile=a.source))
    rules.hooks.refuse_if("rami_draw_allowed", rules=rules, state=s, seat=a.seat, source=STOCK)
    if not s.stock:
        mode = rules.empty_stock
        if mode == EmptyStock.reshuffle:
            if len(s.discard) <= 1:
                s.drew_from = STOCK
                finish_round(rules, s, None, EMPTY_NOBODY)
                return
            top = s.discard.pop()
            s.reshuffles += 1
            s.stock = shuffled(s.discard, rng_for(s.seed, "reshuffle", s.round_no, s.reshuffles))
            if rules.hooks.has("rami_reshuffle"):
                d = rules.hooks.decide("rami_reshuffle", rules=rules, state=s, cards=list(s.discard))
                if d is not None:
                    s.stock = list(d.value)
            s.discard = [top]
        elif mode == EmptyStock.turn_over:
            if not s.discard:
                s.drew_from = STOCK
                finish_round(rules, s, None, EMPTY_NOBODY)
                return
            s.stock = list(reversed(s.discard))
            s.discard = []
        else:
            raise RuleError("draw_forbidden", Reason("stock_empty"))
    hand.append(s.stock.pop())
    s.drew_from = STOCK
    s.phase = LAY
    if not s.stock and rules.empty_stock_ends_round:
        s.stock_exhausted = True


# ------------------------------------------------------------------ melds


def check_new_melds(rules: Rules, s: GameState, seat: int) -> None:
    """New melds may go down now: where the profile lays none after the
    opening turn, only in the turn the seat opens."""
    if (
        rules.may_lay_freely(s, seat)
        and s.opened[seat]
        and not rules.new_melds_after_opening
        and not rules.lays_all_at_once
        and not s.opened_this_turn
    ):
        raise RuleError("action_forbidden", Reason("no_new_meld"))


def check_meld_group(rules: Rules, cards: Sequence[Card]) -> Reading:
    """One group of a new lay reads as a meld under the profile, and no house rule refuses it."""
    r = read_meld(cards, rules.melds)
    if r is None:
        raise RuleError("invalid_meld", why_invalid(cards, rules.melds))
    rules.hooks.refuse_if("rami_meld_valid", rules=rules, cards=list(cards), reading=r)
    return r


def check_opening(
    rules: Rules, s: GameState, seat: int, readings: Sequence[Reading], going_out: bool
) -> None:
    """A lay judged as an opening (a seat that has not opened, or every lay
    where melds go down all at once) meets what the seat needs now."""
    if s.opened[seat] and not rules.lays_all_at_once:
        return
    problem = opening_problem(
        rules, readings, rules.opening_need(s, seat), going_out=going_out, taken_discard=s.taken_discard
    )
    if problem:
        raise RuleError("opening_requirement", problem)
    if not s.opened[seat]:
        rules.hooks.refuse_if(
            "rami_opening_met",
            rules=rules,
            state=s,
            seat=seat,
            readings=list(readings),
            going_out=going_out,
        )


def _meld(rules: Rules, s: GameState, a: A.Meld) -> None:
    seat = a.seat
    gate_meld(rules, s, seat)
    hand = s.hands[seat]
    flat = [c for m in a.melds for c in m]
    if not a.melds or any(not m for m in a.melds):
        raise RuleError("invalid_meld", Reason("lay_one_meld"))
    placed = _take_from_hand(hand, flat, _owed_first(s))
    # Physical cards, meld by meld, in the order written.
    groups: list[list[Card]] = []
    i = 0
    for m in a.melds:
        groups.append(placed[i : i + len(m)])
        i += len(m)
    readings = [check_meld_group(rules, g) for g in groups]
    going_out = len(hand) == rules.kept_going_out
    check_opening(rules, s, seat, readings, going_out)
    if not s.opened[seat]:
        s.opened[seat] = True
        s.opened_this_turn = True
    old_table = list(s.table)
    s.table.extend(TableMeld(r, seat) for r in readings)
    _finish_lay(rules, s, a, old_table, placed)


def check_lay_off_allowed(rules: Rules) -> None:
    """The profile adds cards to table melds at all (an all-at-once profile is
    refused later, as not opened: its seats open by going out)."""
    if not rules.lay_offs_ever and not rules.lays_all_at_once:
        raise RuleError("action_forbidden", Reason("no_lay_off"))


def check_lay_off_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may lay off now, as far as opening goes."""
    check_opened(rules, s, seat, "lay off")
    if not rules.lay_offs_ever:
        # Only all-at-once profiles get here (Simple): nothing is ever laid off,
        # even by a seat marked opened or covered by a partner.
        raise RuleError("not_opened", Reason("all_at_once_only"))


def _lay_off(rules: Rules, s: GameState, a: A.LayOff) -> None:
    seat = a.seat
    gate_lay_off(rules, s, seat)
    if not a.items:
        raise RuleError("invalid_meld", Reason("lay_off_one"))
    hand = s.hands[seat]
    placed = _take_from_hand(hand, [it.card for it in a.items], _owed_first(s))
    for it in a.items:
        if not 0 <= it.to < len(s.table):
            raise RuleError("no_such_meld", Reason("no_meld_range", meld=it.to, last=len(s.table) - 1))
    check_lay_off_opened(rules, s, seat)
    old_table = list(s.table)
    by_meld: dict[int, list[tuple[Card, A.LayOffItem]]] = {}
    for c, it in zip(placed, a.items):
        by_meld.setdefault(it.to, []).append((c, it))
    for idx, items in by_meld.items():
        old = s.table[idx]
        if rules.positional_jokers:
            nat = [c for c, _ in items if not c.is_joker]
            jok = [
                (c, (it.as_.rank, it.as_.suit) if it.as_ is not None else None)
                for c, it in items
                if c.is_joker
            ]
            laid = lay_off_positional(old.reading, nat, jok, rules.melds)
            if isinstance(laid, str):
                raise RuleError("invalid_meld", Reason("meld_reason", meld=idx, reason=laid))
            res = laid
        else:
            cards = list(old.cards) + [c for c, _ in items]
            read = read_meld(cards, rules.melds)
            if read is None:
                raise RuleError(
                    "invalid_meld", Reason("meld_reason", meld=idx, reason=why_invalid(cards, rules.melds))
                )
            res = read
        s.table[idx] = TableMeld(res, old.owner)
    _finish_lay(rules, s, a, old_table, placed)


def check_swap_allowed(rules: Rules) -> None:
    """A joker on the table may be won back into the hand in this profile."""
    if not rules.swaps_to_hand:
        how = Reason("swap_on_table" if rules.joker_swap == JokerSwap.on_table else "joker_stays")
        raise RuleError("joker_swap_forbidden", Reason("no_swap", how=how))


def check_swap_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may swap now, as far as opening goes (``jokers.who``)."""
    if rules.swap_needs_opening:
        check_opened(rules, s, seat, "swap a joker")


def _swap(rules: Rules, s: GameState, a: A.Swap) -> None:
    seat = a.seat
    gate_swap(rules, s, seat)
    hand = s.hands[seat]
    given = _take_from_hand(hand, list(a.cards), _owed_first(s))
    if not 0 <= a.meld < len(s.table):
        raise RuleError("no_such_meld", Reason("no_meld", meld=a.meld))
    check_swap_opened(rules, s, seat)
    old = s.table[a.meld]
    # Every table meld carries its reading (on a rearranged table too, read
    # as a new meld is: a run in written order, else a set, else any run), so
    # a swap gives exactly the card a joker stands for there, and a set's
    # joker follows jokers.set_swap (voleur_002: both missing cards free a
    # three-card set's joker).
    res = swap_positional(old.reading, given, rules.melds, set_any=rules.set_swap_any)
    if isinstance(res, str):
        raise RuleError("joker_swap_forbidden", Reason("meld_reason", meld=a.meld, reason=res))
    reading, joker = res
    old_table = list(s.table)
    s.table[a.meld] = TableMeld(reading, old.owner)
    hand.append(joker)
    if rules.freed_joker_same_turn:
        s.jokers_to_replay.append(joker)
    _finish_lay(rules, s, a, old_table, given)


def check_rearrange_allowed(rules: Rules) -> None:
    """The profile lets the table be rearranged."""
    if not rules.may_rearrange:
        raise RuleError("action_forbidden", Reason("no_rearrange"))


def check_rearrange_opened(rules: Rules, s: GameState, seat: int) -> None:
    """The seat may rearrange now, as far as opening goes."""
    check_opened(rules, s, seat, "rearrange the table")


def _rearrange(rules: Rules, s: GameState, a: A.Rearrange) -> None:
    seat = a.seat
    gate_rearrange(rules, s, seat)
    old_cards = [c for m in s.table for c in m.cards]
    new_faces = Counter(c.face for m in a.melds for c in m)
    old_faces = Counter(c.face for c in old_cards)
    added = new_faces - old_faces
    lost = old_faces - new_faces
    hand = s.hands[seat]
    from_hand = _take_from_hand(
        hand, [Card(r, su, 0) for (r, su), k in sorted(added.items()) for _ in range(k)], _owed_first(s)
    )
    check_rearrange_opened(rules, s, seat)
    if lost:
        names = " ".join(format_card(Card(r, su, 0)) for (r, su), k in sorted(lost.items()) for _ in range(k))
        raise RuleError("table_invalid", Reason("table_loses", cards=names))
    pool: dict[tuple[int, int], list[Card]] = {}
    for c in old_cards + from_hand:
        pool.setdefault(c.face, []).append(c)
    readings: list[Reading] = []
    for i, m in enumerate(a.melds):
        cards = [pool[c.face].pop(0) for c in m]
        r = read_meld(cards, rules.melds) if cards else None
        if r is None:
            raise RuleError(
                "table_invalid",
                Reason(
                    "new_meld_reason",
                    meld=i,
                    reason=why_invalid(cards, rules.melds) if cards else Reason("empty_meld"),
                ),
            )
        readings.append(r)
    if not from_hand:
        raise RuleError("no_card_from_hand", Reason("add_from_hand"))
    old_owner: dict[tuple[tuple[int, int], ...], int | None] = {}
    for tm in s.table:
        old_owner.setdefault(tuple(sorted(c.face for c in tm.cards)), tm.owner)
    old_table = list(s.table)
    s.table = [TableMeld(r, old_owner.get(tuple(sorted(c.face for c in r.cards)), seat)) for r in readings]
    _finish_lay(rules, s, a, old_table, from_hand)


# ------------------------------------------------------------------ end of turn


def _owes_taken_discard(rules: Rules, s: GameState) -> bool:
    """The card taken from the discard pile is still in hand where the profile says it must be laid."""
    return (
        rules.taken_discard_must_be_laid
        and s.taken_discard is not None
        and s.taken_discard in s.hands[s.turn]
    )


def check_turn_may_end(rules: Rules, s: GameState) -> None:
    """Nothing owed to the table: no freed joker, no card taken from the discard pile that must be laid."""
    if s.jokers_to_replay:
        raise RuleError("joker_not_reused", Reason("joker_back"))
    if _owes_taken_discard(rules, s):
        assert s.taken_discard is not None  # owed only when one was taken
        raise RuleError(
            "discard_not_laid",
            Reason("lay_taken_card", card=format_card(s.taken_discard)),
        )


def check_discard_allowed(rules: Rules) -> None:
    """The profile ends a turn with a discard."""
    if not rules.ends_with_discard:
        raise RuleError("discard_forbidden", Reason("no_discard"))


def check_end_turn_allowed(rules: Rules) -> None:
    """The profile ends a turn without a discard."""
    if rules.ends_with_discard:
        raise RuleError("wrong_phase", Reason("ends_with_discard"))


def check_round_over(s: GameState) -> None:
    """The round is over and the game is not: the next round may be dealt."""
    if s.phase != OVER or s.game_over:
        raise RuleError("wrong_phase", Reason("round_not_over"))


def _discard(rules: Rules, s: GameState, a: A.Discard, house_rules: bool = True) -> None:
    card = _discard_checks(rules, s, a, house_rules)
    s.discard.append(card)
    if not s.hands[a.seat]:
        finish_round(rules, s, a.seat, OUT)
        return
    _next_turn(rules, s)


def discard_refusal(rules: Rules, s: GameState, a: A.Discard) -> RuleError | None:
    """The engine's verdict on a discard now (None: accepted), `s` left as it
    was: the very checks of the discard handler, judged in place with the card
    taken out of the hand and put back, not on a copy of the whole state (the
    legal moves ask it of every face in the hand, at every lay step). What
    follows the checks (the pile, the next turn, the round's end) refuses
    nothing."""
    try:
        gate_discard(rules, s, a.seat)
    except RuleError as e:
        return e
    return discard_card_refusal(rules, s, a)


def discard_card_refusal(rules: Rules, s: GameState, a: A.Discard) -> RuleError | None:
    """`discard_refusal` once the kind's gate (``gate_discard``, the turn,
    the phase, the profile's switch) has let `a.seat` through in `s`: the
    checks on the card alone, in place (the legal moves run the gate once
    per state, then this per face of the hand)."""
    hand = s.hands[a.seat]
    held = list(hand)
    try:
        _discard_card_checks(rules, s, a, True)
    except RuleError as e:
        return e
    finally:
        hand[:] = held
    return None


def discards_unchecked(rules: Rules, s: GameState) -> bool:
    """Every card the seat to play holds passes `discard_card_refusal` in
    `s` (once the kind's gate has let it through), because each check on a
    card is vacuous: no joker freed this turn is owed to the table, the card
    taken from the discard pile (if any) may be thrown back and need not be
    laid, and no plugin judges discards. The legal moves then list every
    face held without asking the checks card by card (a random policy's
    every lay step asks them of the whole hand)."""
    if s.jokers_to_replay or rules.hooks.has("rami_discard_allowed"):
        return False
    return s.taken_discard is None or (rules.throw_back and not rules.taken_discard_must_be_laid)


def _discard_checks(rules: Rules, s: GameState, a: A.Discard, house_rules: bool) -> Card:
    """Every rule a discard must pass, in the order of the error codes; the
    card is taken out of the hand first (the last checks and the plugins see
    the hand without it). Returns the card taken."""
    gate_discard(rules, s, a.seat)
    return _discard_card_checks(rules, s, a, house_rules)


def _discard_card_checks(rules: Rules, s: GameState, a: A.Discard, house_rules: bool) -> Card:
    """The checks of `_discard_checks` after the kind's gate, in their order."""
    hand = s.hands[a.seat]
    card = _take_one(hand, a.card, _owed_first(s))
    if s.jokers_to_replay and card in s.jokers_to_replay:
        raise RuleError(
            "joker_not_reused",
            Reason("joker_back_discard"),
        )
    if rules.taken_discard_must_be_laid and card == s.taken_discard:
        raise RuleError("discard_not_laid", Reason("lay_taken"))
    if house_rules and rules.throw_back_forbidden(s, card):
        raise RuleError(
            "discard_forbidden",
            Reason("throw_back", card=format_card(card)),
        )
    check_turn_may_end(rules, s)
    if house_rules:
        rules.hooks.refuse_if("rami_discard_allowed", rules=rules, state=s, seat=a.seat, card=card)
    return card


def _end_turn(rules: Rules, s: GameState, a: A.EndTurn) -> None:
    gate_end_turn(rules, s, a.seat)
    check_turn_may_end(rules, s)
    _next_turn(rules, s)


def _next_turn(rules: Rules, s: GameState) -> None:
    seat = s.turn
    s.laid_before[seat] = s.laid_before[seat] or s.laid_this_turn
    s.turns_played += 1
    if s.stock_exhausted:
        finish_round(rules, s, None, round_over_on_empty_stock(rules))
        return
    if rules.end_on_empty_stock and not s.stock:
        from rami_core.referee.scoring import EMPTY_ALL_PAY

        finish_round(rules, s, None, EMPTY_ALL_PAY)
        return
    s.turn = (seat + 1) % rules.players
    s.phase = DRAW
    s.drew_from = None
    s.taken_discard = None
    s.laid_this_turn = False
    s.opened_this_turn = False
    s.jokers_to_replay = []


# ------------------------------------------------------------------ the gates of each kind

# The rules that hold for a whole action kind, before any card is looked at:
# each handler above calls its kind's gates, at their places in the order of
# the error codes, and `rami_core.referee.legal.kind_refusal` calls the same gates
# (:data:`KIND_GATES`) to say whether a kind is open, so the two cannot drift.
# A kind with two gates has checks on its cards between them (a lay off names
# a card held and a meld that exists before its opening is judged).


def gate_draw(rules: Rules, s: GameState, seat: int) -> None:
    """A draw (from either pile): the seat's turn, not drawn yet."""
    check_turn(s, seat)
    check_not_drawn(s)


def gate_meld(rules: Rules, s: GameState, seat: int) -> None:
    """New melds: the seat's turn, drawn, and new melds may go down now."""
    check_turn(s, seat)
    check_drawn(s, "laying")
    check_new_melds(rules, s, seat)


def gate_lay_off(rules: Rules, s: GameState, seat: int) -> None:
    """A lay off: the seat's turn, drawn, the profile lays off at all
    (then, once its cards are checked, :func:`check_lay_off_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "laying off")
    check_lay_off_allowed(rules)


def gate_swap(rules: Rules, s: GameState, seat: int) -> None:
    """A joker swap: the seat's turn, drawn, the profile swaps jokers into
    the hand (then, once its cards are checked, :func:`check_swap_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "swapping a joker")
    check_swap_allowed(rules)


def gate_rearrange(rules: Rules, s: GameState, seat: int) -> None:
    """A rearrangement: the seat's turn, drawn, the profile rearranges
    (then, once its cards are checked, :func:`check_rearrange_opened`)."""
    check_turn(s, seat)
    check_drawn(s, "rearranging the table")
    check_rearrange_allowed(rules)


def gate_discard(rules: Rules, s: GameState, seat: int) -> None:
    """A discard: the seat's turn, drawn, the profile ends turns with one."""
    check_turn(s, seat)
    check_drawn(s, "discarding")
    check_discard_allowed(rules)


def gate_end_turn(rules: Rules, s: GameState, seat: int) -> None:
    """Ending the turn without a discard: the seat's turn, drawn, the profile ends turns so."""
    check_turn(s, seat)
    check_drawn(s, "ending your turn")
    check_end_turn_allowed(rules)


def gate_next_round(rules: Rules, s: GameState, seat: int) -> None:
    """The next round: this one is over and the game is not."""
    check_round_over(s)


Gate = Callable[[Rules, GameState, int], None]

# Every gate of each kind, in the order its handler calls them.
KIND_GATES: dict[str, tuple[Gate, ...]] = {
    "draw_stock": (gate_draw,),
    "draw_discard": (gate_draw,),
    "meld": (gate_meld,),
    "layoff": (gate_lay_off, check_lay_off_opened),
    "swap": (gate_swap, check_swap_opened),
    "rearrange": (gate_rearrange, check_rearrange_opened),
    "discard": (gate_discard,),
    "end_turn": (gate_end_turn,),
    "next_round": (gate_next_round,),
}

# The profile's switch of each kind that has one: a check of the rules
# alone, called by that kind's gate (above), so a kind switched off is
# refused in every state and a client need not ask for it state by state.
KIND_SWITCHES: dict[str, Callable[[Rules], None]] = {
    "layoff": check_lay_off_allowed,
    "swap": check_swap_allowed,
    "rearrange": check_rearrange_allowed,
    "discard": check_discard_allowed,
    "end_turn": check_end_turn_allowed,
}


def play_on(rules: Rules, state: GameState, action: A.Action) -> GameState:
    """The state after a player's action, on a copy: `state` is never changed.
    Raises RuleError if the action is illegal. The one place a move is played
    on a copy: `Game.apply` commits what it returns, the bots'
    `try_action` and `legal.verdict` catch its refusal. (Timeouts need the
    game's turn history: `Game.played`.)"""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not a player's action: {action!r}")
    new = state.copy()
    handler(rules, new, action)
    return new


_HANDLERS: dict[type, Callable[[Rules, GameState, Any], None]] = {
    A.Draw: _draw,
    A.Meld: _meld,
    A.LayOff: _lay_off,
    A.Swap: _swap,
    A.Rearrange: _rearrange,
    A.Discard: _discard,
    A.EndTurn: _end_turn,
}

__all__ = [
    "Game",
    "check_game_over",
    "deal",
    "discard_card_refusal",
    "discard_refusal",
    "discards_unchecked",
    "play_on",
    "rng_for",
]
