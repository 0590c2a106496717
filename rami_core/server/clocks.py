"""What moves a table when no client does: the turn clock, the pause between
rounds, and the bots.

The turn clock is an asyncio timer that plays the profile's timeout whoever
is connected; each timer stands down when the turn it was started for has
passed. Bots think in their own pool of worker threads (`work`) on a copy
of their view, within a think budget, so one slow bot never holds up another
table, nor a view; the move they choose, and the clock's timeout, are played
by the engine in a worker thread too (`Driver.accept`).

What this module asks of whoever changes the tables is `Driver`, nothing
more: it never sees the hub, its store or its registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.referee.caps import ROUND_CAP, TURN_CAP, round_capped
from rami_core.server.protocol import ServerError
from rami_core.server.table import HostedTable
from rami_core.server.work import Work
from rami_core.words.errors import RuleError


class Driver(Protocol):
    """What a clock, a round timer or a bot needs: the two changes it plays
    (through the one path every change takes), the pace settings, the
    worker pools the bots think in, and whether the server still runs (a
    stopped one starts and retries nothing)."""

    @property
    def started(self) -> bool: ...
    @property
    def round_pause(self) -> float: ...  # seconds a round's end stays on screen at most
    @property
    def bot_delay(self) -> float: ...  # seconds before a bot plays, so a page can follow
    @property
    def think_budget(self) -> float: ...  # seconds a bot may think, then it plays the timeout
    @property
    def clock_scale(self) -> float: ...  # the profile's seconds, shrunk by tests
    @property
    def work(self) -> Work: ...

    async def accept(
        self,
        t: HostedTable,
        action: A.Action | Callable[[], A.Action],
        *,
        still: Callable[[], bool] | None = None,
    ) -> bool: ...

    async def next_round(self, t: HostedTable, *, still: Callable[[], bool] | None = None) -> bool: ...


def loop_time() -> float:
    """The event loop's clock; in a worker thread building a view, the same
    clock read directly (asyncio's loops keep time.monotonic())."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def capped(t: HostedTable) -> str | None:
    """Why a table stops where `rami play` and `rami simulate` stop a game
    (the same caps), or None while it may go on."""
    s = t.game.state
    if round_capped(s, TURN_CAP):
        return f"stopped: round {s.round_no} reached {TURN_CAP} turns without ending"
    if s.phase == OVER and not s.game_over and t.deals >= ROUND_CAP:
        return f"stopped: the game reached {ROUND_CAP} rounds without ending"
    return None


def schedule(driver: Driver, t: HostedTable) -> None:
    """Start what the table's new turn needs: its clock, its round timer, its bot.
    A table past the caps is stopped instead: nothing is started, and it says why."""
    g = t.game
    s = g.state
    if t.stopped is None:
        t.stopped = capped(t)
    if t.stopped is not None:
        return
    key = t.key()
    if key != t.turn_key:
        t.turn_key = key
        for name in ("clock_task", "round_task"):
            task = getattr(t, name)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            setattr(t, name, None)
        t.deadline = None
        t.next_round_at = None
        t.ready = set()
        if s.phase == OVER:
            if not s.game_over:
                t.next_round_at = loop_time() + driver.round_pause
                t.round_task = asyncio.create_task(round_timer(driver, t, key))
        else:
            limit = g.rules.turn_time_limit
            if limit:
                t.deadline = loop_time() + limit * driver.clock_scale
                t.clock_task = asyncio.create_task(clock(driver, t, key, limit * driver.clock_scale))
    if s.phase != OVER and t.seats[s.turn].bot is not None and t.bot_task is None:
        t.bot_task = asyncio.create_task(bot_turn(driver, t, len(g.log)))


RETRY_SECONDS = 0.5  # between two tries while the store is locked by another process
MAX_TRIES = 7200  # an hour of retries, then the task gives up (the next request reschedules it)


async def retrying(driver: Driver, do: Callable[[], Awaitable[object]]) -> None:
    """Run `do` (an accept); while the store is busy (503), wait and try
    again: a lock held by an admin's sqlite3 session delays a table, it never
    stops it for good."""
    for _ in range(MAX_TRIES):
        try:
            await do()
            return
        except ServerError as e:
            if e.code != "busy" or not driver.started:
                raise
        await asyncio.sleep(RETRY_SECONDS)


async def clock(driver: Driver, t: HostedTable, key: tuple, seconds: float) -> None:
    await asyncio.sleep(seconds)
    if t.key() == key:
        t.clock_task = None
        with contextlib.suppress(RuleError):  # nothing to do: the seat keeps its turn
            await retrying(
                driver,
                lambda: driver.accept(t, lambda: A.Timeout(t.game.state.turn), still=lambda: t.key() == key),
            )


async def round_timer(driver: Driver, t: HostedTable, key: tuple) -> None:
    """The round's end stays on screen for the round pause at most: then the
    next round is dealt, whoever has not clicked "continue"."""
    await asyncio.sleep(driver.round_pause)
    if t.key() == key:
        t.round_task = None
        with contextlib.suppress(RuleError):
            await retrying(driver, lambda: driver.next_round(t, still=lambda: t.key() == key))


async def bot_turn(driver: Driver, t: HostedTable, log_len: int) -> None:
    try:
        if driver.bot_delay:
            await asyncio.sleep(driver.bot_delay)
        g = t.game
        async with t.lock:  # what the bot sees is what the store holds
            if len(g.log) != log_len:
                return
            seat = g.state.turn
            bot = t.seats[seat].bot
            if bot is None or g.state.phase == OVER:
                return
            view = g.view(seat)
        try:
            action: A.Action = await asyncio.wait_for(
                driver.work.run(bot.choose, view, g.rules, bot=True), driver.think_budget
            )
        except TimeoutError:
            action = A.Timeout(seat)  # over its think budget: the clock's default for the seat
        except Exception:  # a bot's bug must not stall the table: it plays the clock's default
            action = A.Timeout(seat)
        if len(g.log) != log_len:
            return  # the game moved on while it thought (a timeout): think again from the new state

        def unmoved() -> bool:
            return len(g.log) == log_len  # else someone moved the game meanwhile: stand down

        async def play() -> None:
            if not unmoved():
                return
            t.bot_task = None  # so that the accept's schedule starts the next bot
            try:
                try:
                    await driver.accept(t, action, still=unmoved)
                except RuleError:
                    await driver.accept(t, A.Timeout(seat), still=unmoved)
            except ServerError:
                t.bot_task = asyncio.current_task()  # still this turn's bot, trying again
                raise

        await retrying(driver, play)
    finally:
        if t.bot_task is asyncio.current_task():
            t.bot_task = None
            if driver.started and len(t.game.log) != log_len:
                schedule(driver, t)
