"""Telling a table's connections: each change's events and views, who came
and went, quick messages, and the goodbye of a table that is gone.

Every message is queued on a connection (`Conn.send`) and written out by
its own socket's task, so one slow reader never holds up the table. What is
told is only ever what the store holds: every call here runs under the
table's lock, after the write (the hub's `accept`, `undo`, `remove`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, Protocol

from rami_core.game.events import Event
from rami_core.server.page_words import Words, event_message
from rami_core.server.registry import gone
from rami_core.server.table import Conn, HostedTable, dumps


class Host(Protocol):
    """What telling needs from the one who changes the tables (the hub):
    whether it runs, its worker threads, the views, and what a new version
    starts (its turn's clock, round timer and bot)."""

    @property
    def started(self) -> bool: ...
    async def think(
        self, fn: Callable[..., Any], *args: Any, client: str | None = None, table: str | None = None
    ) -> Any: ...
    def view(self, t: HostedTable, seat: int | None) -> dict[str, Any]: ...
    def kept_view(self, t: HostedTable, seat: int | None) -> dict[str, Any] | None: ...
    def moved(self, t: HostedTable) -> None: ...


def close(conn: Conn) -> None:
    """No more messages for this connection: its socket's task ends."""
    conn.closed = True
    with contextlib.suppress(asyncio.QueueFull):
        conn.queue.put_nowait(None)


class Broadcast:
    """The messages of the tables' connections. Handed to a hub, which binds
    itself as the `Host`."""

    def __init__(self) -> None:
        self._host: Host | None = None

    def bind(self, host: Host) -> None:
        self._host = host

    @property
    def host(self) -> Host:
        assert self._host is not None, "a Broadcast tells nothing before a hub binds it"
        return self._host

    async def changed(self, t: HostedTable, events: list[Event]) -> None:
        """A change is stored: a new version, and every connection is told
        (its events, then its view). Under the table's lock; the views and
        the messages are made in a worker thread, the loop only queues them."""
        t.version += 1
        t.touched = time.monotonic()
        # Before the views are made: a new turn's clock (its deadline) and
        # round timer are part of what every seat is told.
        self.host.moved(t)
        conns = [c for c in t.conns if not c.closed]
        if not conns:
            return
        job = asyncio.ensure_future(self.host.think(self.messages, t, events, conns))
        try:
            told = await asyncio.shield(job)
        except asyncio.CancelledError:
            # The caller went away (a socket closing): the thread still reads
            # the game, so the lock is kept until it is done.
            with contextlib.suppress(BaseException):
                await job
            raise
        for c, msgs in zip(conns, told, strict=True):
            for m in msgs:
                c.send(m)

    def messages(self, t: HostedTable, events: list[Event], conns: list[Conn]) -> list[list[str]]:
        """What each connection is told of a change: its events and its view.
        Each message is made and written out once per seat (and language),
        then shared by every connection that sees it the same way: 500
        spectators cost one spectator view, and a queue holds references."""
        views: dict[int | None, str] = {}
        told: dict[tuple[int, int | None, str], str] = {}
        out = []
        for c in conns:
            msgs = []
            for i, e in enumerate(events):
                k = (i, c.seat, c.lang)
                if k not in told:
                    told[k] = dumps(event_message(t, e, c.seat, c.lang))
                msgs.append(told[k])
            if c.seat not in views:
                views[c.seat] = dumps({"type": "view", "view": self.host.view(t, c.seat)})
            msgs.append(views[c.seat])
            out.append(msgs)
        return out

    async def tell_all(self, t: HostedTable) -> None:
        """Send every connection its view, once no change is being written:
        nobody sees what is not yet stored."""
        async with t.lock:
            await self.changed(t, [])

    async def joined(self, t: HostedTable, conn: Conn) -> None:
        """A connection came: it gets its view; the others only when the
        seat it holds was not connected before (a spectator, a second tab
        or a reconnect tells nobody else: no all-to-all resend)."""
        async with t.lock:
            if t.deleted:  # deleted while the socket opened
                conn.send(dumps({"type": "error", "code": "no_such_table", "message": gone(t.id).message}))
                close(conn)
                return
            before = t.connected()
            t.conns.add(conn)
            if conn.seat is not None:
                t.seen = True
                t.alone_since = None
            if t.connected() != before:
                await self.changed(t, [])
            else:
                view = self.host.kept_view(t, conn.seat) or await self.host.think(
                    self.host.view, t, conn.seat
                )
                conn.send(dumps({"type": "view", "view": view}))

    async def left(self, t: HostedTable, conn: Conn) -> None:
        """A connection went: the others are told only if its seat is now unheld."""
        async with t.lock:
            before = t.connected()
            t.conns.discard(conn)
            if not t.held() and t.alone_since is None:
                t.alone_since = time.monotonic()
            if self.host.started and t.connected() != before:
                await self.changed(t, [])

    def talk(self, t: HostedTable, seat: int, phrase: str) -> None:
        """A quick message, told to every connection at the table."""
        msg = dumps({"type": "talk", "seat": seat, "phrase": phrase})
        for c in list(t.conns):
            c.send(msg)

    def farewell(self, t: HostedTable, why: str) -> None:
        """The table is gone: each connection is told why (`no_such_table`,
        in its words), then closed."""
        gone_text = gone(t.id)
        for c in list(t.conns):
            c.send(
                dumps(
                    {
                        "type": "error",
                        "code": gone_text.code,
                        "message": f"table {t.id} was {why}",
                        "text": Words(c.lang).refusal(gone_text.code, f"table {t.id} was {why}"),
                    }
                )
            )
            close(c)

    def hang_up(self, t: HostedTable) -> None:
        """The server stops: every connection's socket task ends."""
        for c in list(t.conns):
            close(c)
