"""The server's costly work, off the event loop: views (their legal-move
searches), the engine judging an action, hints and checks run in a small
pool of worker threads shared by every table, and the bots think in a pool
of their own (a bot's search never holds up a view, nor a view a bot).

What a visitor has queued there is bounded: per client (`per_client` jobs
waiting or running) and per table (`per_table`); one asking beyond gets 429
too_many_requests at once, and nothing else waits behind it. What the server
does by itself (the views pushed after a change, a bot's turn, the clock's
timeout) is never refused: it comes one change at a time per table, under
the table's lock.

A job's place is given back when its thread is done, not when the request
that asked it goes away: a visitor who hangs up mid-search cannot queue
more behind the searches still running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from rami_core.server.protocol import ServerError

T = TypeVar("T")

WORK_THREADS = 2  # views, actions, hints and checks thought at once (all tables together)
BOT_THREADS = 2  # bots thinking at once (all tables together)
WORK_PER_CLIENT = 4  # jobs one client may have waiting or running at once
WORK_PER_TABLE = 8  # jobs visitors may have waiting or running for one table at once


class Work:
    """The worker pools and what each client and table has queued in them."""

    def __init__(
        self,
        threads: int = WORK_THREADS,
        bot_threads: int = BOT_THREADS,
        per_client: int = WORK_PER_CLIENT,
        per_table: int = WORK_PER_TABLE,
    ):
        self.threads, self.bot_threads = threads, bot_threads
        self.closed = False
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="rami-work")
        self.bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="rami-bot")
        self.per_client = per_client
        self.per_table = per_table
        self.clients: Counter[str] = Counter()
        self.tables: Counter[str] = Counter()

    def queued(self, client: str | None = None, table: str | None = None) -> int:
        """The jobs a client (or a table) has waiting or running now."""
        if client is not None:
            return self.clients[client]
        return self.tables[table] if table is not None else 0

    def admit(self, client: str | None, table: str | None) -> None:
        """Refuse (429) a visitor's job beyond its bounds."""
        if client is not None and self.clients[client] >= self.per_client:
            raise ServerError(
                429,
                "too_many_requests",
                f"{self.per_client} requests from this address are being worked on: wait for their answers",
            )
        if client is not None and table is not None and self.tables[table] >= self.per_table:
            raise ServerError(
                429,
                "too_many_requests",
                f"{self.per_table} requests for this table are being worked on: wait for their answers",
            )

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        client: str | None = None,
        table: str | None = None,
        bot: bool = False,
    ) -> T:
        """`fn(*args)` in a worker thread. With a `client` (a visitor's
        request), counted against its bounds (429 beyond); without, the
        server's own work, never refused."""
        self.admit(client, table)
        loop = asyncio.get_running_loop()
        counted = client is not None
        if counted:
            self.clients[client] += 1  # type: ignore[index]
            if table is not None:
                self.tables[table] += 1

        def release(_: Future[Any]) -> None:
            if counted:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(self._release, client, table)

        try:
            fut = (self.bot_pool if bot else self.pool).submit(fn, *args)
        except RuntimeError:  # shut down: the server is stopping
            if counted:
                self._release(client, table)
            raise ServerError(503, "busy", "the server is stopping") from None
        fut.add_done_callback(release)
        return await asyncio.wrap_future(fut)

    def _release(self, client: str | None, table: str | None) -> None:
        if client is not None:
            self.clients[client] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]
            if table is not None:
                self.tables[table] -= 1
                if self.tables[table] <= 0:
                    del self.tables[table]

    def close(self) -> None:
        """Drop the jobs not started; the running ones finish on their own."""
        self.closed = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
