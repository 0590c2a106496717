"""When a table is forgotten without anyone asking: expiry and desertion.

A table nobody changes for `expire_after` seconds (a finished game, one
nobody plays) goes, so a server left running does not keep every game
ever started; a public table whose people never came, or all left, goes
sooner, so its slot serves the next people. Expiry only chooses and
paces: the removal itself (store, timers, goodbyes) is the hub's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from rami_core.server.protocol import ServerError
from rami_core.server.registry import Registry
from rami_core.server.table import HostedTable

EXPIRE_AFTER = 24 * 3600.0  # seconds a table may stay unchanged before it is forgotten (--expire-after)
SWEEP_SECONDS = 60.0  # the most between two looks for expired tables
PUBLIC_UNSEEN = 90.0  # seconds a public table waits for one of its people to connect, then ends
PUBLIC_ALONE = 300.0  # seconds a public table lasts once nobody is connected to any seat

# How a table is removed, saying why (the hub's `remove`; ServerError: not now).
Remove = Callable[[HostedTable, str], Awaitable[None]]


class Expiry:
    """Which tables of the registry are to go, and the loop that removes them."""

    def __init__(self, registry: Registry, expire_after: float | None = EXPIRE_AFTER):
        self.registry = registry
        # A table unchanged for this many seconds is deleted; None: tables
        # are kept until deleted.
        self.expire_after = expire_after
        # A public table whose seats nobody opened, or nobody holds any more,
        # ends after these many seconds (its slot goes to the next people).
        self.public_unseen = PUBLIC_UNSEEN
        self.public_alone = PUBLIC_ALONE

    def expired(self, now: float | None = None) -> list[HostedTable]:
        """The tables unchanged for longer than `expire_after` seconds."""
        if self.expire_after is None:
            return []
        now = time.monotonic() if now is None else now
        return [t for t in self.registry.tables.values() if now - t.touched > self.expire_after]

    def deserted(self, now: float | None = None) -> list[HostedTable]:
        """The public tables nobody holds: none of their people connected in
        `public_unseen` seconds from the start, or nobody connected for
        `public_alone` seconds since the last one left."""
        now = time.monotonic() if now is None else now
        out = []
        for t in self.registry.tables.values():
            if not t.public or t.alone_since is None or t.held():
                continue
            if now - t.alone_since > (self.public_alone if t.seen else self.public_unseen):
                out.append(t)
        return out

    async def sweep(self, remove: Remove) -> int:
        """Remove the expired tables and the deserted public ones; how many
        were (a busy store: the rest wait for the next sweep)."""
        n = 0
        for t, why in [
            *((t, f"expired after {self.expire_after:g} s unchanged") for t in self.expired()),
            *((t, "ended: nobody was connected to it") for t in self.deserted()),
        ]:
            if t.deleted:
                continue
            try:
                await remove(t, why)
            except ServerError:
                break
            n += 1
        return n

    def pause(self) -> float:
        """Between two sweeps: a quarter of the shortest wait, so a table goes
        at most a quarter late (never less than 0.05 s, never over SWEEP_SECONDS)."""
        pause = min(SWEEP_SECONDS, max(min(self.public_unseen, self.public_alone) / 4, 0.05))
        if self.expire_after is not None:
            pause = min(pause, max(self.expire_after / 4, 0.05))
        return pause

    async def sweep_forever(self, remove: Remove) -> None:
        pause = self.pause()
        while True:
            await asyncio.sleep(pause)
            with contextlib.suppress(Exception):  # never lose the sweeper to one table
                await self.sweep(remove)
