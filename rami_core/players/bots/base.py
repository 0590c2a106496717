"""What every bot shares: the interface, and legality checked by the engine.

A bot sees only its seat's view. To know whether an action it considers is
legal it does not re-implement the rules: it rebuilds a state from the view
(the unknown cards, other hands and stock, stand in as placeholders that no
check of the acting seat's move reads) and asks the engine, in the two steps
its legal-moves API (:mod:`rami_core.referee.legal`) judges a kind in: whether the
rules for the whole kind let the seat play it now (:func:`may`: the turn,
the phase, the profile's switches, the opening; and :func:`bounds`, what a lay
must meet), then each concrete move the bot prefers, played by the engine's
own turn machine with the game's plugins on that copy (:func:`try_action`).
So a bot never works out from the profile's switches what it is allowed to
do: where it did, house settings were misread (new melds planned where none
may go down after the opening turn, a discard left where a table that may be
rebuilt takes it although lay offs are switched off).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from rami_core.cards import Card
from rami_core.game import actions as A
from rami_core.game.state import GameState, TableMeld
from rami_core.game.views import MeldView, SeatView
from rami_core.profile.rules import Rules
from rami_core.referee.handlers import play_on
from rami_core.referee.legal import Bounds, kind_refusal, lay_bounds
from rami_core.words.errors import RuleError

PLACEHOLDER_SUIT = 5  # never a real suit: a card the seat cannot see


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView, rules: Rules) -> A.Action:
        """The next action for view.seat (only called when it is that seat's turn)."""
        ...


_PLACEHOLDERS: list[Card] = []  # Card(0, PLACEHOLDER_SUIT, i) for i = 0, 1, ...: built once, shared


def _placeholders(a: int, b: int) -> list[Card]:
    """Placeholder cards number a to b - 1 (a new list)."""
    if b > len(_PLACEHOLDERS):
        _PLACEHOLDERS.extend(Card(0, PLACEHOLDER_SUIT, i) for i in range(len(_PLACEHOLDERS), b))
    return _PLACEHOLDERS[a:b]


# The table meld a view's meld stands for, keyed by the view meld's id (kept
# alongside, so the id is not reused): views share their unchanged melds.
_TABLE_MELDS: dict[int, tuple[MeldView, TableMeld]] = {}


def _table_meld(m: MeldView) -> TableMeld:
    hit = _TABLE_MELDS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    if len(_TABLE_MELDS) >= 4096:
        _TABLE_MELDS.clear()
    tm = TableMeld(m.reading, m.owner)
    _TABLE_MELDS[id(m)] = (m, tm)
    return tm


def state_from_view(view: SeatView) -> GameState:
    """The state the engine judges the seat's own moves on: the true state
    but for the cards this seat cannot see (other hands and the stock stand
    in as placeholders, the seed is unknown) and which deck each card came
    from. Every public fact of the view is carried over, so that a plugin
    reading the turn counters, who has laid or the discard taken this turn
    judges the rebuilt state as it judges the true one."""
    hands = []
    k = 0
    own, owed = _own_hand(view)
    for i, n in enumerate(view.hand_sizes):
        if i == view.seat:
            hands.append(own)
        else:
            hands.append(_placeholders(k, k + n))
            k += n
    return GameState(
        players=view.players,
        hands=hands,
        stock=_placeholders(k, k + view.stock_size),
        discard=list(view.discard),
        table=_table(view),
        opened=list(view.opened),
        laid_before=list(view.laid_before) if view.laid_before else [True] * view.players,
        scores=list(view.scores),
        turn=view.turn,
        phase=view.phase,
        drew_from=view.drew_from,
        taken_discard=_taken_mark(view),
        laid_this_turn=view.laid_this_turn,
        opened_this_turn=view.opened_this_turn,
        jokers_to_replay=owed,
        stock_exhausted=view.stock_exhausted,
        round_no=view.round_no,
        first_player=view.first_player,
        turns_played=view.turns_played,
        reshuffles=view.reshuffles,
        penalties=list(view.penalties),
        winner=view.winner,
        round_end=view.round_end,
        rami_sec=view.rami_sec,
        game_over=view.game_over,
        game_winner=view.game_winner,
    )


# The deck mark the rebuilt state gives the card taken from the discard pile:
# one no other card of the rebuilt state carries (public cards have 0, the
# taken card's twins in hand 1, 2, ...), so that "is that very card still in
# the hand" reads the same as in the true state, wherever its twins lie.
TAKEN_MARK = 15


def _taken_mark(view: SeatView) -> Card | None:
    taken = view.taken_discard
    return None if taken is None else Card(taken.rank, taken.suit, TAKEN_MARK)


def _table(view: SeatView) -> list[TableMeld]:
    table = [_table_meld(m) for m in view.table]
    at = view.taken_discard_at
    mark = _taken_mark(view)
    if at is not None and mark is not None and 0 <= at[0] < len(table):
        m = table[at[0]]
        cards = list(m.reading.cards)
        if 0 <= at[1] < len(cards):
            cards[at[1]] = mark
            table[at[0]] = TableMeld(replace(m.reading, cards=tuple(cards)), m.owner)
    return table


# Deck marks the rebuilt state gives the jokers owed to the table (freed by a
# swap this turn), one each, apart from every other card's.
OWED_MARK = 20


def _own_hand(view: SeatView) -> tuple[list[Card], list[Card]]:
    """The seat's hand, and the jokers it owes to the table as cards of that
    hand. The view shows the hand without deck marks, but the engine tells
    identical cards apart by public facts: it lays the jokers owed and the
    card taken from the discard pile before their other copies, and asks
    whether *that card* is still in hand. So those cards get marks of their
    own (the taken card :data:`TAKEN_MARK`, the owed jokers from
    :data:`OWED_MARK`), and the other copies of their faces marks 1, 2, ...;
    the engine then picks the same cards as on the true state."""
    hand = list(view.hand)
    owed_faces = list(view.jokers_to_replay)
    if view.turn != view.seat:
        return hand, owed_faces  # the owed jokers are another seat's
    taken = view.taken_discard
    taken_card = None
    if taken is not None and view.taken_discard_in_hand and taken in hand:
        taken_card = Card(taken.rank, taken.suit, TAKEN_MARK)
    owed: list[Card] = []
    if taken_card is not None and view.taken_discard_to_replay and taken in owed_faces:
        owed.append(taken_card)
        owed_faces.remove(taken)
    owed += [Card(f.rank, f.suit, OWED_MARK + i) for i, f in enumerate(owed_faces)]
    special = owed + ([taken_card] if taken_card is not None and taken_card not in owed else [])
    if not special:
        return hand, owed  # most turns: no card to tell apart from its twins
    # the other copies of the faces marked
    left = list(hand)
    for c in special:
        left.remove(Card(c.rank, c.suit, 0))  # the view's hand holds every card owed
    faces = {c[:2] for c in special}
    rest = [c for c in left if c[:2] not in faces]
    twins = [c for c in left if c[:2] in faces]
    seen: dict[tuple[int, int], int] = {}
    marked = []
    for c in twins:
        seen[c.face] = seen.get(c.face, 0) + 1
        marked.append(Card(c.rank, c.suit, seen[c.face]))
    return rest + marked + special, owed


def try_action(rules: Rules, state: GameState, action: A.Action) -> GameState | None:
    """The state after `action`, or None if the engine refuses it: the
    engine's `play_on` (the one place a move is played on a copy), its
    refusal said as None for the bots' searches."""
    try:
        return play_on(rules, state, action)
    except RuleError:
        return None


def may(rules: Rules, state: GameState, seat: int, kind: str) -> bool:
    """Whether the seat may play moves of `kind` (one of ``legal.KINDS``) now,
    as far as the rules for the whole kind go; its moves are then judged one
    by one. Asked before a bot spends a search on a kind's candidates."""
    return kind_refusal(rules, state, seat, kind) is None


def bounds(rules: Rules, state: GameState, seat: int) -> Bounds:
    """What the seat's lays must meet now (``legal.Bounds``): the opening
    need where its next lay is judged as an opening (None once it lays
    freely), the cards a going-out lay keeps in hand."""
    return lay_bounds(rules, state, seat)


def legal(rules: Rules, view: SeatView, action: A.Action) -> bool:
    return try_action(rules, state_from_view(view), action) is not None


BotFactory = Callable[[random.Random], Bot]


class BotRegistry:
    def __init__(self) -> None:
        self._factories: dict[str, BotFactory] = {}

    def register(self, name: str, factory: BotFactory) -> None:
        self._factories[name] = factory

    def names(self) -> list[str]:
        return sorted(self._factories)

    def make(self, name: str, seed: int = 0) -> Bot:
        if name not in self._factories:
            raise ValueError(f"no bot named {name!r}; bots: {', '.join(self.names())}")
        return self._factories[name](random.Random(f"rami-bot:{name}:{seed}"))


_REGISTRY = BotRegistry()
register_bot = _REGISTRY.register


def make_bot(name: str, seed: int = 0) -> Bot:
    _load_builtin()
    return _REGISTRY.make(name, seed)


def _load_builtin() -> None:
    """Import the bundled bots once (each module registers itself)."""
    import importlib
    import pkgutil
    from pathlib import Path

    # The bots' package, found from this module rather than imported (it imports us).
    package = __name__.rpartition(".")[0]
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name not in ("base",) and not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")


class _Names:
    def __iter__(self):
        _load_builtin()
        return iter(_REGISTRY.names())

    def __contains__(self, name: object) -> bool:
        _load_builtin()
        return name in _REGISTRY.names()

    def __repr__(self) -> str:
        return repr(list(self))


BOTS = _Names()
