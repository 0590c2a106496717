"""The table hub: what changes the tables of one server, and in what order.

Every change to a game happens on the event loop's thread, one at a time, in
the same order: the engine judges the action, the store commits it, and only
then does any client hear of it (a store that fails takes the action back).
The hub coordinates and holds no part of its own: it is handed the tables
(`registry`), the store (`storage.TableStore`), the telling (`broadcast`)
and the forgetting (`expiry`). What moves a table on its own (clock, round
pause, bots) is in `clocks`; what a client sees is in `views`; a pasted
profile is read in `lobby`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any, TypeAlias

from pydantic import ValidationError

from rami_core.cards import CardError
from rami_core.game import actions as A
from rami_core.game.events import Event, EventKind
from rami_core.game.state import LAY, OVER
from rami_core.players.bots import BOTS, make_bot
from rami_core.players.savegame import to_save
from rami_core.profile.model import Profile
from rami_core.referee.engine import Game
from rami_core.server.broadcast import Broadcast
from rami_core.server.client_view import build_view, cached_view
from rami_core.server.clocks import schedule
from rami_core.server.expiry import EXPIRE_AFTER, Expiry
from rami_core.server.lobby import profile_from_request
from rami_core.server.page_words import default_name
from rami_core.server.protocol import (
    ACTION_ADAPTER,
    ACTION_MODELS,
    MAX_NAME,
    CreateTable,
    ServerError,
    plain_text,
    validation_message,
    wire_parts,
)
from rami_core.server.registry import Registry, gone
from rami_core.server.storage import TableStore
from rami_core.server.store import StoreBusy, StoredTable, Writer
from rami_core.server.table import HUMAN, Conn, HostedTable, Seat
from rami_core.server.work import Work
from rami_core.words.errors import RuleError
from rami_core.words.refusals import Reason

# What accept plays: an action, or a function of the table's state giving it
# (called under the table's lock: a timeout names the seat then to play).
Change: TypeAlias = "A.Action | A.NextRound | Callable[[], A.Action | A.NextRound]"


def busy() -> ServerError:
    """The answer while another process holds the store's write lock: nothing
    changed, try again (the bots, clocks and round timers do, by themselves)."""
    return ServerError(503, "busy", "the game store is locked by another process: nothing changed, try again")


class Hub:
    """What changes the tables of one server: it is handed its parts (each
    made here when not given, as `rami serve --export` and the tests want)."""

    def __init__(
        self,
        store: TableStore,
        *,
        registry: Registry | None = None,
        broadcast: Broadcast | None = None,
        expiry: Expiry | None = None,
        round_pause: float = 30.0,
        bot_delay: float = 0.25,
        think_budget: float = 5.0,
        clock_scale: float = 1.0,
        expire_after: float | None = EXPIRE_AFTER,
        reproducible_seeds: bool = False,
    ):
        self.store = store
        self.registry = registry if registry is not None else Registry()
        self.broadcast = broadcast if broadcast is not None else Broadcast()
        self.broadcast.bind(self)
        # `expire_after` is read only when no expiry is handed over.
        self.expiry = expiry if expiry is not None else Expiry(self.registry, expire_after)
        # A seed chosen by the creator of a table of several people is mixed
        # with this process's secret and the table's id (see `deal_seed`):
        # the creator holds no key to the others' hands. Tests that replay a
        # game offline turn it off (`reproducible_seeds`).
        self.seed_secret = secrets.token_bytes(32)
        self.reproducible_seeds = reproducible_seeds
        self.sweeper: asyncio.Task | None = None
        self.round_pause = round_pause
        self.bot_delay = bot_delay
        self.think_budget = think_budget
        self.clock_scale = clock_scale  # tests shrink the profile's seconds
        self.on_accept: Callable[[HostedTable, float], None] | None = None  # benchmarks: latency probe
        self.started = False
        # The worker pools (views, actions, hints, checks; bots) and the
        # bounds on what each client and table has queued there (`work`).
        self.work = Work()
        # The store's writer thread, from start() on: no write waits on the loop.
        # Without it (a hub that only loads, an export) a write runs in place.
        self.writer: Writer | None = None

    @property
    def tables(self) -> dict[str, HostedTable]:
        return self.registry.tables

    @property
    def codes(self) -> dict[str, tuple[str, int]]:
        return self.registry.codes

    # The expiry's settings, read and set where they always were (tests shorten them).
    @property
    def expire_after(self) -> float | None:
        return self.expiry.expire_after

    @expire_after.setter
    def expire_after(self, seconds: float | None) -> None:
        self.expiry.expire_after = seconds

    @property
    def public_unseen(self) -> float:
        return self.expiry.public_unseen

    @public_unseen.setter
    def public_unseen(self, seconds: float) -> None:
        self.expiry.public_unseen = seconds

    @property
    def public_alone(self) -> float:
        return self.expiry.public_alone

    @public_alone.setter
    def public_alone(self, seconds: float) -> None:
        self.expiry.public_alone = seconds

    # ------------------------------------------------------------ start and stop

    def load(self) -> None:
        """Rebuild every stored table by replaying its log through the engine."""
        stored = self.store.tables()
        for tid, reason in self.store.damaged:
            print(f"rami serve: table {tid} left out: {reason}", file=sys.stderr)
        for st in stored:
            try:
                t = self._build(st)
                for entry in st.log:
                    self._replay(t, entry)
            except Exception as e:  # one table this version cannot replay must not keep the others down
                print(f"rami serve: table {st.id} left out: it does not replay ({e})", file=sys.stderr)
                continue
            t.seen = True  # its people may come back: the longer wait
            self.registry.add(t)
            first = st.options.get("rematch_of")
            if isinstance(first, str) and first in self.tables:
                self.tables[first].rematch = t.id

    def start(self) -> None:
        """Start the clocks, bots and round timers (needs a running event loop)."""
        self.started = True
        if self.work.closed:
            self.work = Work(
                self.work.threads, self.work.bot_threads, self.work.per_client, self.work.per_table
            )
        if self.writer is None:
            self.writer = Writer(self.store)
        for t in self.tables.values():
            t.turn_key = ()
            schedule(self, t)
        self.sweeper = asyncio.create_task(self.expiry.sweep_forever(self.remove))

    async def stop(self) -> None:
        self.started = False  # nothing may schedule a new timer or bot turn from here on
        tasks = []
        if self.sweeper is not None:
            self.sweeper.cancel()
            tasks.append(self.sweeper)
            self.sweeper = None
        for t in self.tables.values():
            for task in (t.clock_task, t.bot_task, t.round_task):
                if task is not None:
                    task.cancel()
                    tasks.append(task)
            self.broadcast.hang_up(t)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.writer is not None:
            await asyncio.to_thread(self.writer.close)  # the writes handed over are finished first
            self.writer = None
        self.work.close()

    async def write(self, fn: Callable[..., None], *args: Any) -> None:
        """One store write, in the writer thread (StoreBusy: refused, nothing written)."""
        if self.writer is None:
            fn(*args)
        else:
            await self.writer.call(fn, *args)

    def _build(self, st: StoredTable) -> HostedTable:
        profile = Profile.model_validate(st.profile)
        game = Game.new(profile, st.players, seed=st.seed)
        seats = []
        for i, s in enumerate(st.seats):
            bot = make_bot(s["kind"], seed=st.seed * 16 + i) if s["kind"] != HUMAN else None
            code = s.get("code") if isinstance(s.get("code"), str) else None
            seats.append(Seat(s["kind"], s["name"], s.get("token"), bot, code))
        return HostedTable(
            id=st.id,
            variant=st.variant,
            seed=st.seed,
            seats=seats,
            game=game,
            undo=bool(st.options.get("undo", True)),
            created=st.created,
            public=bool(st.options.get("public", False)),
            creator=st.options.get("creator") if isinstance(st.options.get("creator"), str) else None,
        )

    # ------------------------------------------------------------ creation

    def by_code(self, code: str) -> tuple[HostedTable, int] | None:
        """The table and seat a seat's code opens, or None."""
        return self.registry.by_code(code)

    async def create(
        self,
        req: CreateTable,
        read: tuple[str, Profile] | None = None,
        *,
        public: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> HostedTable:
        """A new table. `read` is the request's profile already read (the app
        reads it in a worker thread, off the loop); without it, read here.
        `public`: a table of strangers seated by "play now" (`public`), who
        get no codes (their seats come by ticket). `extra`: more options
        stored with the table (`rematch_of`)."""
        variant, profile = read if read is not None else profile_from_request(req)
        n = len(req.seats)
        if not profile.allows_players(n):
            counts = ", ".join(map(str, profile.player_counts()))
            raise ServerError(
                400,
                "invalid_request",
                f"seats: {profile.name} is played by {counts} players, not {n}",
            )
        bots = list(BOTS)
        for i, kind in enumerate(req.seats):
            if kind != HUMAN and kind not in bots:
                raise ServerError(
                    400,
                    "invalid_request",
                    f"seats.{i}: {kind!r} is neither 'human' nor a bot ({', '.join(bots)})",
                )
        names = list(req.names or [])
        if len(names) > n:
            raise ServerError(400, "invalid_request", f"names: {len(names)} names for {n} seats")
        table_id = self.registry.new_id()
        seed = self.deal_seed(req, table_id)
        seats = []
        for i, kind in enumerate(req.seats):
            name = (plain_text(names[i], MAX_NAME) if i < len(names) else "") or default_name(
                kind, i, req.lang
            )
            seat: dict[str, Any] = {
                "kind": kind,
                "name": name,
                "token": secrets.token_urlsafe(18) if kind == HUMAN else None,
            }
            if kind == HUMAN and not public:
                seat["code"] = self.registry.new_code()
            seats.append(seat)
        st = StoredTable(
            id=table_id,
            created=time.time(),
            variant=variant,
            profile=profile.model_dump(mode="json"),
            players=n,
            seed=seed,
            seats=seats,
            options={
                "undo": req.undo,
                **({"public": True} if public else {"creator": secrets.token_urlsafe(18)}),
                **(extra or {}),
            },
            log=[],
        )
        t = self._build(st)  # deals: a profile the engine cannot play fails here, before anything is stored
        try:
            await self.write(self.store.create_table, st)
        except StoreBusy:
            raise busy() from None
        self.registry.add(t)
        if self.started:
            schedule(self, t)
        return t

    def deal_seed(self, req: CreateTable, table_id: str) -> int:
        """The seed a new table is dealt with. None given: drawn at random.
        Given, at a table of one person (with bots) or none: as given, so a
        deal can be played again. Given, at a table of several people: mixed
        with the server's secret and the table's id, so that the creator, who
        chose it, cannot rebuild another person's hand, the stock or a bot's
        hand offline (nor deal two tables alike and watch one through the
        other). The seed dealt is what the store keeps: a restart replays it."""
        if req.seed is None:
            return secrets.randbelow(2**62)
        if self.reproducible_seeds or sum(1 for k in req.seats if k == HUMAN) <= 1:
            return req.seed
        mixed = hashlib.blake2b(
            f"{table_id}:{req.seed}".encode(), key=self.seed_secret, digest_size=8, person=b"rami-deal"
        ).digest()
        return int.from_bytes(mixed, "big") >> 2  # 62 bits, as a drawn seed

    def get(self, table_id: str) -> HostedTable:
        return self.registry.get(table_id)

    # ------------------------------------------------------------ deletion and expiry

    async def delete(self, t: HostedTable, token: str | None) -> None:
        """The creator's delete (403 bad_token for any other token, public tables included)."""
        if not t.is_creator(token):
            raise ServerError(403, "bad_token", "only the creator's token (creator_token) deletes a table")
        await self.remove(t, "deleted by its creator")

    async def remove(self, t: HostedTable, why: str) -> None:
        """Forget a table: its rows, its timers, its connections (each told
        why, as `no_such_table`). Under its lock: a change being written is
        finished first, none comes after. StoreBusy: 503, nothing forgotten."""
        async with t.lock:
            if t.deleted:
                return
            try:
                await self.write(self.store.delete_table, t.id)
            except StoreBusy:
                raise busy() from None
            t.deleted = True
            t.stopped = why
            self.registry.discard(t)
            for task in (t.clock_task, t.bot_task, t.round_task):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            self.broadcast.farewell(t, why)

    async def sweep(self) -> int:
        """Remove the expired tables and the deserted public ones (`expiry`); how many were."""
        return await self.expiry.sweep(self.remove)

    # ------------------------------------------------------------ actions

    def parse_action(self, t: HostedTable, seat: int, data: Any) -> A.Action | str:
        """A client's action, validated against the protocol: an engine action,
        or 'undo' / 'next_round' (the server's own two). `data` is the body's
        JSON, or an action model a client message was validated into already:
        its shape is checked once (the protocol's model), its cards read once
        (the codec's `action_from_parts`), with no dict in between."""
        if isinstance(data, ACTION_MODELS):
            model = data
        else:
            try:
                model = ACTION_ADAPTER.validate_python(data)
            except ValidationError as e:
                raise ServerError(400, "invalid_action", validation_message(e)) from None
        player = model.player
        if player is not None and player != seat:
            raise ServerError(
                400, "invalid_action", f"player: this token plays seat {seat}, not seat {player}"
            )
        key, value = wire_parts(model)
        if key in ("undo", "next_round"):
            return key
        try:
            return A.action_from_parts(seat, key, value)
        except (A.ActionFormatError, CardError) as e:
            raise ServerError(400, "invalid_action", str(e)) from None

    async def act(self, t: HostedTable, seat: int | None, data: Any, client: str | None = None) -> None:
        """Play one client action for `seat` (raises ServerError or RuleError,
        nothing changed). `client`: the visitor's address, whose bounds on
        queued work the engine's judging counts against (`work`)."""
        if seat is None:
            raise ServerError(403, "spectator", "a spectator cannot play: join with a seat's link")
        if t.deleted:
            raise gone(t.id)
        if t.stopped is not None:
            raise ServerError(409, "table_stopped", t.stopped)
        action = self.parse_action(t, seat, data)
        if action == "undo":
            await self.undo(t, seat)
        elif action == "next_round":
            await self.next_round(t, seat)
        else:
            assert not isinstance(action, str)
            self.work.admit(client, t.id)  # over its bounds: 429 before the table is waited for
            await self.accept(t, action, client=client)

    async def accept(
        self,
        t: HostedTable,
        action: Change,
        *,
        still: Callable[[], bool] | None = None,
        client: str | None = None,
    ) -> bool:
        """Judge, store, then tell: the one path every change takes, one at a
        time per table (under its lock, while the store writes off the loop).
        `still`, asked under the lock, lets a clock or bot whose turn has
        passed stand down (False: nothing done). Shielded: a caller that goes
        away mid-write leaves the change to finish (told) or to be taken back."""
        return await asyncio.shield(self._accept(t, action, still, client))

    async def _accept(
        self, t: HostedTable, action: Change, still: Callable[[], bool] | None, client: str | None = None
    ) -> bool:
        async with t.lock:
            return await self._accept_locked(t, action, still, client)

    async def _accept_locked(
        self, t: HostedTable, action: Change, still: Callable[[], bool] | None, client: str | None = None
    ) -> bool:
        if still is not None and not still():
            return False
        if t.deleted:
            raise gone(t.id)
        if t.stopped is not None:
            raise ServerError(409, "table_stopped", t.stopped)
        if callable(action):
            action = action()
        started = time.perf_counter()
        g = t.game
        before_events = len(g.events)
        before_phase = g.state.phase
        cp = g.checkpoint()
        # The engine judges and plays in a worker thread (the largest action
        # the protocol lets through costs tenths of a second); the lock keeps
        # every other change and view of this table waiting meanwhile.
        if isinstance(action, A.NextRound):
            await self.think(g.next_round)
        else:
            await self.think(g.apply, action, client=client, table=t.id)  # RuleError: nothing changed
        try:
            await self.write(self.store.append, t.id, len(g.log) - 1, A.action_to_dict(action))
        except StoreBusy:
            g.rollback(cp)
            raise busy() from None
        except BaseException:
            g.rollback(cp)
            raise
        if isinstance(action, A.NextRound):
            t.deals += 1
        t.moved += 1
        self._track_undo(t, before_phase)
        await self.broadcast.changed(t, g.events[before_events:])
        if self.on_accept is not None:
            self.on_accept(t, time.perf_counter() - started)
        return True

    def _replay(self, t: HostedTable, entry: dict[str, Any]) -> None:
        before_phase = t.game.state.phase
        if entry == {"next_round": True}:
            t.game.next_round()
            t.deals += 1
        else:
            t.game.apply(A.action_from_dict(entry))
        self._track_undo(t, before_phase)

    def _track_undo(self, t: HostedTable, before_phase: str) -> None:
        """Where an undo goes back to: just after this turn's draw (a card
        seen cannot be unseen); nowhere once the turn has ended."""
        s = t.game.state
        if s.phase == LAY and before_phase != LAY:
            t.undo_point = t.game.checkpoint()
        elif s.phase != LAY:
            t.undo_point = None

    def undo_available(self, t: HostedTable, seat: int | None) -> bool:
        return (
            t.undo
            and seat is not None
            and t.undo_point is not None
            and t.game.state.turn == seat
            and t.game.state.phase == LAY
            and len(t.game.log) > t.undo_point[1]
        )

    async def undo(self, t: HostedTable, seat: int) -> None:
        await asyncio.shield(self._undo(t, seat))

    async def _undo(self, t: HostedTable, seat: int) -> None:
        async with t.lock:
            if t.deleted:
                raise gone(t.id)
            if not t.undo:
                raise ServerError(409, "undo_forbidden", "this table was created without undo")
            if t.game.state.turn != seat or t.game.state.phase == OVER:
                raise RuleError("not_your_turn", Reason("undo_own_turn"))
            if not self.undo_available(t, seat):
                raise ServerError(
                    409, "undo_forbidden", "nothing to take back: the draw stays, lays can go back"
                )
            assert t.undo_point is not None
            n = t.undo_point[1]
            try:
                await self.write(self.store.truncate, t.id, n)
            except StoreBusy:
                raise busy() from None
            t.game.rollback(t.undo_point)
            t.moved += 1
            t.undo_point = t.game.checkpoint()
            await self.broadcast.changed(t, [Event(EventKind.UNDONE, seat)])

    async def next_round(
        self, t: HostedTable, seat: int | None = None, *, still: Callable[[], bool] | None = None
    ) -> bool:
        """A person's "continue" at a round's end (`seat`), or the round pause's
        end (no seat). The server deals the next round once every person at
        the table has continued (bots never wait), or when the pause ends.
        True when a round was dealt."""
        return await asyncio.shield(self._next_round(t, seat, still))

    async def _next_round(self, t: HostedTable, seat: int | None, still: Callable[[], bool] | None) -> bool:
        async with t.lock:
            if still is not None and not still():
                return False
            if t.deleted:
                raise gone(t.id)
            s = t.game.state
            if s.phase != OVER or s.game_over:
                raise RuleError("wrong_phase", Reason("round_not_over"))
            if seat is not None:
                if seat in t.ready:
                    return False  # asked twice: the first one counts
                t.ready.add(seat)
                if not t.all_ready():
                    await self.broadcast.changed(
                        t, []
                    )  # every page shows who is still reading the round's end
                    return False
            return await self._accept_locked(t, A.NextRound(), None)

    # ------------------------------------------------------------ after the game: talk and play again

    def talk(self, t: HostedTable, seat: int | None, phrase: str) -> None:
        """A quick message (`protocol.PHRASES`, by id: never free text) from
        a seat, told to every connection at the table; nothing is stored."""
        if seat is None:
            raise ServerError(403, "spectator", "a spectator cannot talk: join with a seat's link")
        self.broadcast.talk(t, seat, phrase)

    async def rematch(self, t: HostedTable, seat: int | None) -> HostedTable:
        """ "Play again": once the game is over, a new table of the same rules,
        seats (bots keep theirs) and names, made by the first person who
        asks; every person who asks after gets the same table. Every page
        at the old table is told (`rematch` in the view)."""
        if seat is None:
            raise ServerError(403, "spectator", "a spectator cannot play again: join with a seat's link")
        if not t.game.state.game_over:
            raise ServerError(409, "game_not_over", "a game is played again once it is over")
        async with t.rematch_lock:
            if t.rematch is not None:
                again = self.tables.get(t.rematch)
                if again is not None and not again.deleted:
                    return again
            req = CreateTable(
                variant=t.variant[:100],
                seats=[s.kind for s in t.seats],
                names=[s.name for s in t.seats],
                undo=t.undo,
            )
            again = await self.create(req, (t.variant, t.game.rules.profile), extra={"rematch_of": t.id})
            t.rematch = again.id
        await self.broadcast.tell_all(t)
        return again

    # ------------------------------------------------------------ telling

    async def think(
        self, fn: Callable[..., Any], *args: Any, client: str | None = None, table: str | None = None
    ) -> Any:
        """`fn(*args)` off the loop once the hub is started (`work`); before
        (a hub that only loads, an export), in place."""
        if not self.started:
            return fn(*args)
        return await self.work.run(fn, *args, client=client, table=table)

    def moved(self, t: HostedTable) -> None:
        """A table has a new version: once the hub runs, start what its turn
        needs (`clocks.schedule`), before any seat is told of it."""
        if self.started:
            schedule(self, t)

    async def tell_all(self, t: HostedTable) -> None:
        await self.broadcast.tell_all(t)

    async def joined(self, t: HostedTable, conn: Conn) -> None:
        await self.broadcast.joined(t, conn)

    async def left(self, t: HostedTable, conn: Conn) -> None:
        await self.broadcast.left(t, conn)

    async def current_view(
        self, t: HostedTable, seat: int | None, client: str | None = None
    ) -> dict[str, Any]:
        """The seat's view of the stored game (see tell_all). The view of the
        current version, when kept, is a look-up (no lock: it shows a stored
        game); else it is built in a worker thread (`work`: a large
        profile's legal moves cost tenths of a second, bounded by
        VIEW_STATES), the loop never waiting on it, under the table's lock,
        counted against `client`'s bounds (429 beyond)."""
        kept = self.kept_view(t, seat)
        if kept is not None:
            return kept
        self.work.admit(client, t.id)
        # Shielded: a visitor who hangs up leaves the view to finish under
        # the lock (the thread reads the game until it is done).
        return await asyncio.shield(self._build_view(t, seat, client))

    async def _build_view(self, t: HostedTable, seat: int | None, client: str | None) -> dict[str, Any]:
        async with t.lock:
            kept = self.kept_view(t, seat)  # made meanwhile (a push, another read)
            if kept is not None:
                return kept
            return await self.think(self.view, t, seat, client=client, table=t.id)

    def view(self, t: HostedTable, seat: int | None) -> dict[str, Any]:
        return build_view(self, t, seat)

    def kept_view(self, t: HostedTable, seat: int | None) -> dict[str, Any] | None:
        return cached_view(self, t, seat)

    # ------------------------------------------------------------ export

    def save(self, t: HostedTable) -> dict[str, Any]:
        """The stored game in the save format (`rami replay` reads it). It holds the seed."""
        seats = [{"seat": i, "kind": s.kind, "name": s.name} for i, s in enumerate(t.seats)]
        return to_save(t.game, seed=t.seed, extra={"server": {"table": t.id, "seats": seats}})
