"""How much one client, and everybody together, may hold of a server: tables
created, tables in all, WebSocket connections. A public server meets
strangers; each limit turns "one client creates 2,000 tables in 30 s" or
"opens 500 sockets" into a clean refusal instead of memory that only grows.

A client is its address as the server sees it (behind a reverse proxy on
the same machine, uvicorn takes it from the proxy's `X-Forwarded-For`), and
an IPv6 address is counted by its /64: one home or one server is given a
whole /64, and a client choosing among 2^64 addresses is still one client.
`client_key` is the one place an address becomes a client.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rami_core.server.protocol import ServerError

if TYPE_CHECKING:
    from rami_core.server.hub import Hub
    from rami_core.server.table import HostedTable

PUBLIC_TICKETS_PER_CLIENT = 4  # "play now" tickets one client may hold at once (waiting or in play)
PUBLIC_JOINS_PER_CLIENT = 30  # "play now" clicks one client may make in TABLES_WINDOW seconds
REQUESTS_PER_SECOND = 50.0  # repeatable requests (view, events, check, hint, ping, connect) a client ...
REQUESTS_BURST = 200  # ... may send on average, and at once
MAX_TABLES = 2000  # tables held by the server in all
TABLES_PER_CLIENT = 30  # tables one client may create ...
TABLES_WINDOW = 600.0  # ... in this many seconds
SOCKETS_PER_CLIENT = 32  # WebSockets one client may hold open at once
SOCKETS_PER_TABLE = 500  # WebSockets on one table (players and spectators)
WRONG_CODES_PER_CLIENT = 20  # seat codes (`/j/CODE`) one client may get wrong in TABLES_WINDOW seconds
TALK_BURST = 3  # quick messages one seat may send at once ...
TALK_PER_SECOND = 0.25  # ... and on average


def client_key(host: str | None) -> str:
    """The client an address belongs to: an IPv4 address as it is (an IPv4
    mapped into IPv6 as the IPv4 address), an IPv6 address by its /64 network,
    anything else (a test client's name, no address) as written."""
    if not host:
        return ""
    try:
        addr = ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return host[:100]
    if isinstance(addr, ipaddress.IPv6Address):
        mapped = addr.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((int(addr) >> 64 << 64, 64)))
    return str(addr)


def peer(conn: object) -> str:
    """The client key of a request or WebSocket (its `client`, a host and port)."""
    client = getattr(conn, "client", None)
    return client_key(client.host if client is not None else "")


@dataclass
class Limits:
    max_tables: int = MAX_TABLES
    tables_per_client: int = TABLES_PER_CLIENT
    tables_window: float = TABLES_WINDOW
    sockets_per_client: int = SOCKETS_PER_CLIENT
    sockets_per_table: int = SOCKETS_PER_TABLE
    public_tickets_per_client: int = PUBLIC_TICKETS_PER_CLIENT
    public_joins_per_client: int = PUBLIC_JOINS_PER_CLIENT
    _created: dict[str, deque[float]] = field(default_factory=dict)
    requests_per_second: float = REQUESTS_PER_SECOND
    requests_burst: int = REQUESTS_BURST
    _joins: dict[str, deque[float]] = field(default_factory=dict)
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _sockets: Counter[str] = field(default_factory=Counter)
    wrong_codes_per_client: int = WRONG_CODES_PER_CLIENT
    _wrong_codes: dict[str, deque[float]] = field(default_factory=dict)
    talk_burst: int = TALK_BURST
    talk_per_second: float = TALK_PER_SECOND
    _talk: dict[str, tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Each limit a whole number of at least 1 (the window: finite seconds
        above 0): NaN, an infinity or a negative would switch a limit off."""
        for name in (
            "max_tables",
            "tables_per_client",
            "sockets_per_client",
            "sockets_per_table",
            "public_tickets_per_client",
            "public_joins_per_client",
            "requests_burst",
            "wrong_codes_per_client",
            "talk_burst",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: a whole number of at least 1, not {value!r}")
        window = self.tables_window
        if (
            isinstance(window, bool)
            or not isinstance(window, int | float)
            or not math.isfinite(window)
            or window <= 0
        ):
            raise ValueError(f"tables_window: a finite number of seconds above 0, not {window!r}")

    def check_create(self, hub: Hub, client: str) -> None:
        """Refuse a creation over the limits (429 for this client, 503 for all)."""
        if len(hub.tables) >= self.max_tables:
            raise ServerError(
                503, "server_full", f"the server holds {self.max_tables} tables, its most: try again later"
            )
        recent = self._recent(client)
        if len(recent) >= self.tables_per_client:
            wait = int(recent[0] + self.tables_window - time.monotonic()) + 1
            raise ServerError(
                429,
                "too_many_tables",
                f"{self.tables_per_client} tables created from this address in "
                f"{int(self.tables_window)} s: try again in {wait} s",
            )

    def created(self, client: str) -> None:
        self._created[client] = self._recent(client)
        self._created[client].append(time.monotonic())

    def _recent(self, client: str, book: dict[str, deque[float]] | None = None) -> deque[float]:
        """This client's creations within the window (idle clients are forgotten)."""
        book = self._created if book is None else book
        q = book.pop(client, deque())
        while q and q[0] <= time.monotonic() - self.tables_window:
            q.popleft()
        if q:
            book[client] = q
        return q

    def spend(self, client: str) -> None:
        """One repeatable request of `client` (a view, the events, a check, a
        hint, a WebSocket ping or connection): a token bucket of
        `requests_burst` refilled at `requests_per_second`; 429
        too_many_requests when it is empty."""
        if not _take_token(self._buckets, client, self.requests_burst, self.requests_per_second):
            raise ServerError(
                429, "too_many_requests", "too many requests from this address: slow down, then try again"
            )

    def check_code(self, client: str) -> None:
        """Refuse a seat code from a client that got too many wrong (429):
        a code (2^39 of them) is guessed at most `wrong_codes_per_client`
        times a window from one client, a /64 for IPv6."""
        recent = self._recent(client, self._wrong_codes)
        if len(recent) >= self.wrong_codes_per_client:
            wait = int(recent[0] + self.tables_window - time.monotonic()) + 1
            raise ServerError(
                429,
                "too_many_codes",
                f"{self.wrong_codes_per_client} wrong seat codes from this address in "
                f"{int(self.tables_window)} s: try again in {wait} s",
            )

    def wrong_code(self, client: str) -> None:
        self._wrong_codes[client] = self._recent(client, self._wrong_codes)
        self._wrong_codes[client].append(time.monotonic())

    def talk(self, table: str, seat: int) -> None:
        """One quick message of a seat: a token bucket of `talk_burst`
        refilled at `talk_per_second`; 429 too_many_messages when empty."""
        if not _take_token(self._talk, f"{table}:{seat}", self.talk_burst, self.talk_per_second):
            raise ServerError(429, "too_many_messages", "too many messages from this seat: wait a moment")

    def check_public(self, client: str, held: int) -> None:
        """Refuse a "play now" click over this client's quotas (429): `held`
        tickets it holds now (waiting, or seated at a table in play), and its
        clicks within the window."""
        if held >= self.public_tickets_per_client:
            raise ServerError(
                429,
                "too_many_tickets",
                f"{self.public_tickets_per_client} public seats are held from this address, its most: "
                "leave one or finish a game first",
            )
        recent = self._recent(client, self._joins)
        if len(recent) >= self.public_joins_per_client:
            wait = int(recent[0] + self.tables_window - time.monotonic()) + 1
            raise ServerError(
                429,
                "too_many_tickets",
                f"{self.public_joins_per_client} public seats asked from this address in "
                f"{int(self.tables_window)} s: try again in {wait} s",
            )

    def joined_public(self, client: str) -> None:
        self._joins[client] = self._recent(client, self._joins)
        self._joins[client].append(time.monotonic())

    def refuse_connection(self, t: HostedTable, client: str) -> ServerError | None:
        """Why a new WebSocket is refused, or None."""
        if self._sockets[client] >= self.sockets_per_client:
            return ServerError(
                429,
                "too_many_connections",
                f"{self.sockets_per_client} connections are open from this address, its most",
            )
        if len(t.conns) >= self.sockets_per_table:
            return ServerError(
                429, "too_many_connections", f"this table has {self.sockets_per_table} connections, its most"
            )
        return None

    def opened(self, client: str) -> None:
        self._sockets[client] += 1

    def closed(self, client: str) -> None:
        self._sockets[client] -= 1
        if self._sockets[client] <= 0:
            del self._sockets[client]


def _take_token(book: dict[str, tuple[float, float]], key: str, burst: float, per_second: float) -> bool:
    """One token from `key`'s bucket of `burst` tokens refilled at
    `per_second` (False when it is empty). Past 50,000 keys, those whose
    bucket is full again are forgotten: a full bucket is what a new key gets."""
    now = time.monotonic()
    tokens, last = book.get(key, (float(burst), now))
    tokens = min(float(burst), tokens + (now - last) * per_second)
    if tokens < 1.0:
        book[key] = (tokens, now)
        return False
    book[key] = (tokens - 1.0, now)
    if len(book) > 50_000:
        for k in [k for k, (n, t) in book.items() if n + (now - t) * per_second >= burst]:
            del book[k]
    return True
