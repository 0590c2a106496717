"""How much one client, and everybody together, may hold of a server: tables
created, tables in all, WebSocket connections. A public server meets
strangers; each limit turns "one client creates 2,000 tables in 30 s" or
"opens 500 sockets" into a clean refusal instead of memory that only grows.

A client is its address as the server sees it: behind a reverse proxy on the
same machine, uvicorn takes it from the proxy's `X-Forwarded-For`.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .protocol import ServerError

if TYPE_CHECKING:
    from .hub import Hub
    from .table import Table

MAX_TABLES = 2000  # tables held by the server in all
TABLES_PER_CLIENT = 30  # tables one client may create ...
TABLES_WINDOW = 600.0  # ... in this many seconds
SOCKETS_PER_CLIENT = 32  # WebSockets one client may hold open at once
SOCKETS_PER_TABLE = 500  # WebSockets on one table (players and spectators)


@dataclass
class Limits:
    max_tables: int = MAX_TABLES
    tables_per_client: int = TABLES_PER_CLIENT
    tables_window: float = TABLES_WINDOW
    sockets_per_client: int = SOCKETS_PER_CLIENT
    sockets_per_table: int = SOCKETS_PER_TABLE
    _created: dict[str, deque[float]] = field(default_factory=dict)
    _sockets: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        """Each limit a whole number of at least 1 (the window: finite seconds
        above 0): NaN, an infinity or a negative would switch a limit off."""
        for name in ("max_tables", "tables_per_client", "sockets_per_client", "sockets_per_table"):
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

    def _recent(self, client: str) -> deque[float]:
        """This client's creations within the window (idle clients are forgotten)."""
        q = self._created.pop(client, deque())
        while q and q[0] <= time.monotonic() - self.tables_window:
            q.popleft()
        if q:
            self._created[client] = q
        return q

    def refuse_connection(self, t: Table, client: str) -> ServerError | None:
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
