"""One table of the server: its game, its seats (and their tokens), its
connections and its timers. The hub changes it; the views read it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from rami_core.game.state import OVER
from rami_core.players.bots import Bot
from rami_core.referee.engine import Game
from rami_core.server.protocol import ServerError

HUMAN = "human"
MAX_QUEUED = 2000  # messages waiting unread: then the connection is dropped


# A seat's code: CODE_LENGTH characters of an alphabet without the look-alikes
# (no 0/O, 1/I/L, U): 30^8, about 2^39.3 codes. Guessing one is bounded by
# the per-client limits (`Limits.wrong_code`: a few wrong codes a client in
# a window), not by the length alone.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def plain_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes between its groups) as stored."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[: CODE_LENGTH * 2]


def dumps(data: Any) -> str:
    """A message as sent on the wire (compact, UTF-8 text)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Seat:
    kind: str
    name: str
    token: str | None = None
    bot: Bot | None = None
    # The seat's short code (`/j/CODE` opens it, as its token does): said
    # aloud or typed on a phone. None for a bot, or a table stored before.
    code: str | None = None


@dataclass(eq=False)
class Conn:
    """One client connection (WebSocket) and its outgoing queue: messages
    (dicts, or text already written out and shared with other connections)."""

    seat: int | None
    lang: str = "en"  # the page's language: events come with their words in it
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=MAX_QUEUED)
    )
    closed: bool = False
    client: str = ""  # the client's address, for the per-client limits

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:  # a client that stopped reading is dropped, not buffered forever
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)


@dataclass(eq=False)
class HostedTable:
    """A table the server hosts: the game (whose `state.table` is the game's
    table, the melds laid) with its seats, connections, lock and caches."""

    id: str
    variant: str
    seed: int
    seats: list[Seat]
    game: Game
    undo: bool
    created: float
    conns: set[Conn] = field(default_factory=set)
    public: bool = False  # seated by "play now" (see `public`), not by links sent by hand
    # Held while a change is judged, written and told: one change at a time,
    # and no view shows a change the store has not yet kept.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    deals: int = 1  # rounds dealt so far (a replayed round too): part of the clock's turn key
    # Grows with every change, and across restarts (it starts from the clock
    # in microseconds), so a client can drop a view older than one it has.
    version: int = field(default_factory=lambda: time.time_ns() // 1000)
    # Grows with every change of the game itself (an action, an undo, a new
    # round): the legal moves are searched again only then (views.seat_legal).
    moved: int = 0
    # The views made for this version, by seat, and the legal moves for this
    # `moved`, by seat (views.build_view): a repeated read, a ping or a
    # reconnect is a look-up. Only the current version's are kept.
    view_cache: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    legal_cache: dict[tuple[int, int | None], Any] = field(default_factory=dict)
    undo_point: tuple | None = None
    turn_key: tuple = ()
    deadline: float | None = None  # loop time when the clock fires
    next_round_at: float | None = None
    # The people (human seats) who clicked "continue" at this round's end:
    # the next round is dealt once all have, or when the round pause ends.
    # Not stored: after a restart the pause starts again.
    ready: set[int] = field(default_factory=set)
    clock_task: asyncio.Task | None = None
    bot_task: asyncio.Task | None = None
    round_task: asyncio.Task | None = None
    # Why the table no longer moves (a round past TURN_CAP turns, a game past
    # ROUND_CAP rounds: a profile in which no hand goes out), or None.
    stopped: str | None = None
    # The creator's secret (the creation answer's `creator_token`): it alone
    # may delete the table. None for a public table, or one stored before.
    creator: str | None = None
    # When the table last changed (time.monotonic(); a restart counts as a
    # change): a table idle for the server's --expire-after is forgotten.
    touched: float = field(default_factory=time.monotonic)
    deleted: bool = False  # forgotten (expired, or deleted by its creator): nothing moves it again
    # A public table's people: whether any seat was ever opened by a socket,
    # and since when (time.monotonic()) no seat is (None: one is now). A
    # public table nobody holds ends (Hub.deserted): bots alone hold no slot.
    seen: bool = False
    alone_since: float | None = field(default_factory=time.monotonic)
    # "Play again" once the game is over: the new table of the same rules
    # and people (its id; each person who clicks gets their seat's token
    # there), made once whoever clicks first; None until then.
    rematch: str | None = None
    rematch_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token (a spectator). A wrong token is refused."""
        if token is None or token == "":
            return None
        given = token.encode("utf-8", "surrogatepass")  # compare_digest takes ASCII str or bytes only
        for i, s in enumerate(self.seats):
            if s.token is not None and secrets.compare_digest(s.token.encode("utf-8"), given):
                return i
        raise ServerError(403, "bad_token", "this link's token opens no seat at this table")

    def is_creator(self, token: str | None) -> bool:
        """Whether `token` is the creator's secret (compared in constant time, any text)."""
        if not token or self.creator is None:
            return False
        return secrets.compare_digest(self.creator.encode("utf-8"), token.encode("utf-8", "surrogatepass"))

    def held(self) -> bool:
        """Whether some seat is open in a socket now (spectators hold nothing)."""
        return any(c.seat is not None and not c.closed for c in self.conns)

    def connected(self) -> list[bool]:
        live = {c.seat for c in self.conns if not c.closed}
        return [s.kind != HUMAN or i in live for i, s in enumerate(self.seats)]

    def all_ready(self) -> bool:
        """Whether every person at the table asked for the next round (bots never wait)."""
        return all(s.kind != HUMAN or i in self.ready for i, s in enumerate(self.seats))

    def readiness(self) -> list[bool]:
        """Each seat's wish to go on at a round's end: a bot's always, a person's once they clicked."""
        return [s.kind != HUMAN or i in self.ready for i, s in enumerate(self.seats)]

    def key(self) -> tuple:
        """Which turn it is: the clock restarts, and a timer stands down, when this changes."""
        s = self.game.state
        return (self.deals, s.turns_played, s.turn, s.phase == OVER)
