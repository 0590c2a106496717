"""The tables a server holds: each game, its seats, its clock, its bots.

Every change to a game happens on the event loop's thread, one at a time, in
the same order: the engine judges the action, the store commits it, and only
then does any client hear of it (a store that fails takes the action back).
Bots think in worker threads on a copy of their view, within a think budget,
so one slow bot never holds up another table; the turn clock is an asyncio
timer that plays the profile's timeout whoever is connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import actions as A
from ..bots import BOTS, Bot, make_bot
from ..cards import CardError
from ..engine import Game
from ..errors import Problem, ProfileError, RuleError
from ..events import Event, EventKind
from ..profile import Profile
from ..resources import house_dir, preset_names
from ..savegame import to_save
from ..state import LAY, OVER
from .protocol import ACTION_ADAPTER, CreateTable
from .store import Store, StoredTable

HUMAN = "human"


class ServerError(Exception):
    """A request the server refuses before (or instead of) the engine: HTTP status, code, message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def validation_message(e: ValidationError) -> str:
    parts = []
    for err in e.errors(include_url=False)[:5]:
        where = ".".join(str(x) for x in err["loc"])
        parts.append(f"{where}: {err['msg']}" if where else err["msg"])
    return "; ".join(parts)


# ---------------------------------------------------------------- profiles


def house_names() -> list[str]:
    folder = house_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def profile_from_request(req: CreateTable) -> tuple[str, Profile]:
    """The profile a table is created with: a preset or bundled house file by
    name (never a path), or a pasted YAML text read by the same loader, its
    errors located in the text (`rules:LINE: key: message`)."""
    from ..loader import load_profile

    if req.variant is not None:
        name = req.variant.strip()
        if name in preset_names():
            return name, load_profile(name)
        if name in house_names():
            return name, load_profile(house_dir() / f"{name}.yaml")
        known = ", ".join(preset_names() + house_names())
        raise ProfileError(Problem("variant", None, None, "", f"no preset named {name!r} (known: {known})"))
    assert req.rules is not None
    with tempfile.TemporaryDirectory(prefix="rami-rules-") as tmp:
        path = Path(tmp) / "rules.yaml"
        path.write_text(req.rules, encoding="utf-8")
        try:
            profile = load_profile(path)
        except ProfileError as e:
            # The file was ours, not the user's: name it after the request's key.
            root = str(Path(tmp).resolve())
            raise ProfileError(
                [
                    Problem(
                        "rules" if root in p.file or p.file.endswith("rules.yaml") else p.file,
                        p.line,
                        p.column,
                        p.key_path,
                        p.message.replace(root + "/", ""),
                        p.suggestion,
                    )
                    for p in e.problems
                ]
            ) from None
    return profile.name, profile


# ---------------------------------------------------------------- tables


@dataclass
class Seat:
    kind: str
    name: str
    token: str | None = None
    bot: Bot | None = None


@dataclass(eq=False)
class Conn:
    """One client connection (WebSocket) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(maxsize=2000))
    closed: bool = False

    def send(self, msg: dict[str, Any]) -> None:
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
class Table:
    id: str
    variant: str
    seed: int
    seats: list[Seat]
    game: Game
    undo: bool
    created: float
    conns: set[Conn] = field(default_factory=set)
    deals: int = 1  # rounds dealt so far (a replayed round too): part of the clock's turn key
    # Grows with every change, and across restarts (it starts from the clock
    # in microseconds), so a client can drop a view older than one it has.
    version: int = field(default_factory=lambda: time.time_ns() // 1000)
    undo_point: tuple | None = None
    turn_key: tuple = ()
    deadline: float | None = None  # loop time when the clock fires
    next_round_at: float | None = None
    clock_task: asyncio.Task | None = None
    bot_task: asyncio.Task | None = None
    round_task: asyncio.Task | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token (a spectator). A wrong token is refused."""
        if token is None or token == "":
            return None
        for i, s in enumerate(self.seats):
            if s.token is not None and secrets.compare_digest(s.token, token):
                return i
        raise ServerError(403, "bad_token", "this link's token opens no seat at this table")

    def connected(self) -> list[bool]:
        live = {c.seat for c in self.conns if not c.closed}
        return [s.kind != HUMAN or i in live for i, s in enumerate(self.seats)]

    def key(self) -> tuple:
        """Which turn it is: the clock restarts, and a timer stands down, when this changes."""
        s = self.game.state
        return (self.deals, s.turns_played, s.turn, s.phase == OVER)


class Hub:
    """All the tables of one server, and the store they are written to."""

    def __init__(
        self,
        store: Store,
        *,
        round_pause: float = 4.0,
        bot_delay: float = 0.25,
        think_budget: float = 5.0,
        clock_scale: float = 1.0,
    ):
        self.store = store
        self.tables: dict[str, Table] = {}
        self.round_pause = round_pause
        self.bot_delay = bot_delay
        self.think_budget = think_budget
        self.clock_scale = clock_scale  # tests shrink the profile's seconds
        self.on_accept: Callable[[Table, float], None] | None = None  # benchmarks: latency probe
        self.started = False

    # ------------------------------------------------------------ start and stop

    def load(self) -> None:
        """Rebuild every stored table by replaying its log through the engine."""
        for st in self.store.tables():
            try:
                t = self._build(st)
                for entry in st.log:
                    self._replay(t, entry)
            except Exception as e:  # one table this version cannot replay must not keep the others down
                print(f"rami serve: table {st.id} left out: it does not replay ({e})", file=sys.stderr)
                continue
            self.tables[t.id] = t

    def start(self) -> None:
        """Start the clocks, bots and round timers (needs a running event loop)."""
        self.started = True
        for t in self.tables.values():
            t.turn_key = ()
            self._schedule(t)

    async def stop(self) -> None:
        self.started = False  # nothing may schedule a new timer or bot turn from here on
        tasks = []
        for t in self.tables.values():
            for task in (t.clock_task, t.bot_task, t.round_task):
                if task is not None:
                    task.cancel()
                    tasks.append(task)
            for c in list(t.conns):
                c.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    c.queue.put_nowait(None)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _build(self, st: StoredTable) -> Table:
        profile = Profile.model_validate(st.profile)
        game = Game.new(profile, st.players, seed=st.seed)
        seats = []
        for i, s in enumerate(st.seats):
            bot = make_bot(s["kind"], seed=st.seed * 16 + i) if s["kind"] != HUMAN else None
            seats.append(Seat(s["kind"], s["name"], s.get("token"), bot))
        return Table(
            id=st.id,
            variant=st.variant,
            seed=st.seed,
            seats=seats,
            game=game,
            undo=bool(st.options.get("undo", True)),
            created=st.created,
        )

    # ------------------------------------------------------------ creation

    def create(self, req: CreateTable) -> Table:
        variant, profile = profile_from_request(req)
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
        seed = req.seed if req.seed is not None else secrets.randbelow(2**62)
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        seats = []
        for i, kind in enumerate(req.seats):
            name = (names[i].strip() if i < len(names) else "") or (
                f"Player {i + 1}" if kind == HUMAN else f"{kind} bot {i + 1}"
            )
            seats.append(
                {"kind": kind, "name": name, "token": secrets.token_urlsafe(18) if kind == HUMAN else None}
            )
        st = StoredTable(
            id=table_id,
            created=time.time(),
            variant=variant,
            profile=profile.model_dump(mode="json"),
            players=n,
            seed=seed,
            seats=seats,
            options={"undo": req.undo},
            log=[],
        )
        t = self._build(st)  # deals: a profile the engine cannot play fails here, before anything is stored
        self.store.create_table(st)
        self.tables[t.id] = t
        if self.started:
            self._schedule(t)
        return t

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise ServerError(404, "no_such_table", f"there is no table {table_id!r}")
        return t

    # ------------------------------------------------------------ actions

    def parse_action(self, t: Table, seat: int, data: Any) -> A.Action | str:
        """A client's action, validated against the protocol: an engine action,
        or 'undo' / 'next_round' (the server's own two)."""
        try:
            model = ACTION_ADAPTER.validate_python(data)
        except ValidationError as e:
            raise ServerError(400, "invalid_action", validation_message(e)) from None
        body = model.model_dump(by_alias=True, exclude_none=True)
        player = body.pop("player", None)
        if player is not None and player != seat:
            raise ServerError(
                400, "invalid_action", f"player: this token plays seat {seat}, not seat {player}"
            )
        if "undo" in body:
            return "undo"
        if "next_round" in body:
            return "next_round"
        try:
            return A.action_from_dict({"player": seat, **body})
        except (A.ActionFormatError, CardError) as e:
            raise ServerError(400, "invalid_action", str(e)) from None

    def act(self, t: Table, seat: int | None, data: Any) -> None:
        """Play one client action for `seat` (raises ServerError or RuleError, nothing changed)."""
        if seat is None:
            raise ServerError(403, "spectator", "a spectator cannot play: join with a seat's link")
        action = self.parse_action(t, seat, data)
        if action == "undo":
            self.undo(t, seat)
        elif action == "next_round":
            self.next_round(t)
        else:
            assert not isinstance(action, str)
            self.accept(t, action)

    def accept(self, t: Table, action: A.Action | A.NextRound) -> None:
        """Judge, store, then tell: the one path every change takes."""
        started = time.perf_counter()
        g = t.game
        before_events = len(g.events)
        before_phase = g.state.phase
        cp = g.checkpoint()
        if isinstance(action, A.NextRound):
            g.next_round()
        else:
            g.apply(action)  # RuleError: nothing changed
        try:
            self.store.append(t.id, len(g.log) - 1, A.action_to_dict(action))
        except Exception:
            g.rollback(cp)
            raise
        if isinstance(action, A.NextRound):
            t.deals += 1
        self._track_undo(t, before_phase)
        self._changed(t, g.events[before_events:])
        if self.on_accept is not None:
            self.on_accept(t, time.perf_counter() - started)

    def _replay(self, t: Table, entry: dict[str, Any]) -> None:
        before_phase = t.game.state.phase
        if entry == {"next_round": True}:
            t.game.next_round()
            t.deals += 1
        else:
            t.game.apply(A.action_from_dict(entry))
        self._track_undo(t, before_phase)

    def _track_undo(self, t: Table, before_phase: str) -> None:
        """Where an undo goes back to: just after this turn's draw (a card
        seen cannot be unseen); nowhere once the turn has ended."""
        s = t.game.state
        if s.phase == LAY and before_phase != LAY:
            t.undo_point = t.game.checkpoint()
        elif s.phase != LAY:
            t.undo_point = None

    def undo_available(self, t: Table, seat: int | None) -> bool:
        return (
            t.undo
            and seat is not None
            and t.undo_point is not None
            and t.game.state.turn == seat
            and t.game.state.phase == LAY
            and len(t.game.log) > t.undo_point[1]
        )

    def undo(self, t: Table, seat: int) -> None:
        if not t.undo:
            raise ServerError(409, "undo_forbidden", "this table was created without undo")
        if t.game.state.turn != seat or t.game.state.phase == OVER:
            raise RuleError("not_your_turn", "undo takes back only your own turn")
        if not self.undo_available(t, seat):
            raise ServerError(409, "undo_forbidden", "nothing to take back: the draw stays, lays can go back")
        assert t.undo_point is not None
        n = t.undo_point[1]
        self.store.truncate(t.id, n)
        t.game.rollback(t.undo_point)
        t.undo_point = t.game.checkpoint()
        self._changed(t, [Event(EventKind.UNDONE, seat)])

    def next_round(self, t: Table) -> None:
        s = t.game.state
        if s.phase != OVER or s.game_over:
            raise RuleError("wrong_phase", "the round is not over, or the game is")
        self.accept(t, A.NextRound())

    # ------------------------------------------------------------ telling

    def _changed(self, t: Table, events: list[Event]) -> None:
        t.version += 1
        for c in list(t.conns):
            for e in events:
                c.send({"type": "event", "event": e.for_seat(c.seat).to_dict()})
            c.send({"type": "view", "view": self.view(t, c.seat)})
        if self.started:
            self._schedule(t)

    def tell_all(self, t: Table) -> None:
        """Send every connection its view (someone came or went)."""
        self._changed(t, [])

    def view(self, t: Table, seat: int | None) -> dict[str, Any]:
        return build_view(self, t, seat)

    # ------------------------------------------------------------ clock, bots, rounds

    def _loop_time(self) -> float:
        return asyncio.get_running_loop().time()

    def _schedule(self, t: Table) -> None:
        g = t.game
        s = g.state
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
            if s.phase == OVER:
                if not s.game_over:
                    t.next_round_at = self._loop_time() + self.round_pause
                    t.round_task = asyncio.create_task(self._round_timer(t, key))
            else:
                limit = g.rules.turn_time_limit
                if limit:
                    t.deadline = self._loop_time() + limit * self.clock_scale
                    t.clock_task = asyncio.create_task(self._clock(t, key, limit * self.clock_scale))
        if s.phase != OVER and t.seats[s.turn].bot is not None and t.bot_task is None:
            t.bot_task = asyncio.create_task(self._bot_turn(t, len(g.log)))

    async def _clock(self, t: Table, key: tuple, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if t.key() == key:
            t.clock_task = None
            with contextlib.suppress(RuleError):  # nothing to do: the seat keeps its turn
                self.accept(t, A.Timeout(t.game.state.turn))

    async def _round_timer(self, t: Table, key: tuple) -> None:
        await asyncio.sleep(self.round_pause)
        if t.key() == key:
            t.round_task = None
            with contextlib.suppress(RuleError):
                self.next_round(t)

    async def _bot_turn(self, t: Table, log_len: int) -> None:
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            g = t.game
            seat = g.state.turn
            bot = t.seats[seat].bot
            if bot is None or g.state.phase == OVER:
                return
            view = g.view(seat)
            try:
                action: A.Action = await asyncio.wait_for(
                    asyncio.to_thread(bot.choose, view, g.rules), self.think_budget
                )
            except TimeoutError:
                action = A.Timeout(seat)  # over its think budget: the clock's default for the seat
            except Exception:  # a bot's bug must not stall the table: it plays the clock's default
                action = A.Timeout(seat)
            if len(g.log) != log_len:
                return  # the game moved on while it thought (a timeout): think again from the new state
            t.bot_task = None
            try:
                self.accept(t, action)
            except RuleError:
                self.accept(t, A.Timeout(seat))
        finally:
            if t.bot_task is asyncio.current_task():
                t.bot_task = None
                if self.started and len(t.game.log) != log_len:
                    self._schedule(t)

    # ------------------------------------------------------------ export

    def save(self, t: Table) -> dict[str, Any]:
        """The stored game in the save format (`rami replay` reads it). It holds the seed."""
        seats = [{"seat": i, "kind": s.kind, "name": s.name} for i, s in enumerate(t.seats)]
        return to_save(t.game, seed=t.seed, extra={"server": {"table": t.id, "seats": seats}})


# ---------------------------------------------------------------- views


def _may(hub: Hub, t: Table, seat: int | None) -> list[str]:
    s = t.game.state
    r = t.game.rules
    if seat is None:
        return []
    if s.phase == OVER:
        return ["next_round"] if not s.game_over else []
    if s.turn != seat:
        return []
    if s.phase != LAY:
        out = ["draw_stock"]
        if r.draw_from_discard and s.discard:
            out.append("draw_discard")
        return out
    out = ["meld"]
    if r.lay_offs_ever:
        out.append("layoff")
    if r.swaps_to_hand:
        out.append("swap")
    if r.may_rearrange:
        out.append("rearrange")
    out.append("discard" if r.ends_with_discard else "end_turn")
    if hub.undo_available(t, seat):
        out.append("undo")
    return out


def _score_sheet(t: Table) -> list[dict[str, Any]]:
    lines = []
    round_no = 1
    for e in t.game.events:
        if e.kind == "round_dealt":
            round_no = e.data["round"]
        elif e.kind == "round_over":
            d = e.data
            lines.append(
                {
                    "round": round_no,
                    "winner": d["winner"],
                    "how": d["how"],
                    "penalties": list(d["penalties"]),
                    "scores": list(d["scores"]),
                }
            )
    return lines


def build_view(hub: Hub, t: Table, seat: int | None) -> dict[str, Any]:
    """The protocol's view: the engine's seat view (every public fact and the
    seat's own hand; a spectator gets the same without a hand) plus what the
    table adds."""
    g = t.game
    d = g.view(0 if seat is None else seat).to_dict()
    if seat is None:
        d.update(seat=None, hand=None)
    melds = d.pop("table")
    d["table"] = [m["cards"] for m in melds]
    d["melds"] = [
        {"number": i, "cards": m["cards"], "owner": m["owner"], "kind": g.state.table[i].reading.kind}
        for i, m in enumerate(melds)
    ]
    d["discard_top"] = d["discard"][-1] if d["discard"] else None
    r = g.rules
    clock = None
    if r.turn_time_limit and t.deadline is not None and g.state.phase != OVER:
        left = max(0.0, t.deadline - hub._loop_time()) / hub.clock_scale
        clock = {"limit": r.turn_time_limit, "remaining": round(left, 1)}
    nxt = None
    if t.next_round_at is not None and g.state.phase == OVER and not g.state.game_over:
        nxt = round(max(0.0, t.next_round_at - hub._loop_time()), 1)
    d.update(
        table_id=t.id,
        version=t.version,
        variant=t.variant,
        names=[s.name for s in t.seats],
        kinds=[s.kind for s in t.seats],
        connected=t.connected(),
        may=_may(hub, t, seat),
        undo_available=hub.undo_available(t, seat),
        clock=clock,
        score_sheet=_score_sheet(t),
        rules={
            "discard": r.ends_with_discard,
            "draw_from_discard": r.draw_from_discard,
            "lay_off": r.lay_offs_ever,
            "rearrange": r.may_rearrange,
            "swap": r.swaps_to_hand,
            "undo": t.undo,
        },
        next_round_in=nxt,
    )
    return d


def summary(t: Table) -> dict[str, Any]:
    s = t.game.state
    connected = t.connected()
    seats = [
        {"seat": i, "kind": x.kind, "name": x.name, "connected": connected[i]} for i, x in enumerate(t.seats)
    ]
    return {
        "table": t.id,
        "id": t.id,
        "variant": t.variant,
        "players": t.players,
        "seats": seats,
        "humans": sum(1 for x in t.seats if x.kind == HUMAN),
        "seats_taken": sum(connected),
        "round_no": s.round_no,
        "phase": s.phase,
        "game_over": s.game_over,
        "actions": len(t.game.log),
    }
