"""Public tables ("jouer maintenant"): strangers seated together in a click.

A person clicks "play now" for an offer (every preset, and the house files the
operator lists with `rami serve --public-house FILE`) and a table size; they
wait with the other people who clicked the same, and the table is made when
its seats are all taken, or when the wait (`--public-wait`) ends, bots then
taking the seats left. A public table has a turn clock (the profile's, else
PUBLIC_TURN_SECONDS), so a person who leaves is played by the timeout and the
others never wait for good; the seat's token, kept by the browser, opens it
again.

The waiting lists are in memory only: a restart loses who was waiting (no
game was started; the page joins again), never a table, which the hub stores
as any other. Everything here is bounded: one waiting list per offer and size,
at most MAX_PUBLIC_TABLES public tables in play at once, and the tickets are
forgotten with their tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rami_core.files.resources import preset_names
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.server.clocks import loop_time, retrying
from rami_core.server.protocol import (
    MAX_NAME,
    MAX_VARIANT_NAME,
    CreateTable,
    PublicJoin,
    ServerError,
    plain_description,
    plain_text,
)
from rami_core.server.table import HUMAN
from rami_core.words.refusals import LANGS

if TYPE_CHECKING:
    from rami_core.server.hub import Hub
    from rami_core.server.limits import Limits

PUBLIC_BOT = "greedy"  # who takes a seat nobody came for
PUBLIC_TURN_SECONDS = 120  # Ramio's public games: 120 s a turn
MAX_PUBLIC_TABLES = 100  # public tables in play at once; a click beyond is refused (503 public_full)
TICKET_SECONDS = 6 * 3600  # a seated ticket is forgotten after this, or with its table


@dataclass
class Offer:
    name: str
    profile: Profile
    counts: list[int]

    @property
    def default(self) -> int:
        return 2 if 2 in self.counts else self.counts[0]


@dataclass(eq=False)
class Ticket:
    """One click on "play now": waiting, then a seat at a table."""

    id: str
    name: str
    lang: str
    offer: str
    players: int
    made: float = field(default_factory=time.time)
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    waiting: Waiting | None = None  # the list it waits in (kept while its table is being made)
    client: str = ""  # who clicked (limits.client_key): the per-client quota counts its tickets


@dataclass(eq=False)
class Waiting:
    """The next public table of one offer and size, before it is made."""

    offer: str
    players: int
    deadline: float  # loop time when bots take the seats left
    tickets: list[Ticket] = field(default_factory=list)
    task: asyncio.Task | None = None


def turn_seconds(profile: Profile) -> int | None:
    """The profile's own turn clock, as `Rules` reads it (None: no clock)."""
    return rules_for(profile, profile.player_counts()[0]).turn_time_limit


def clocked(source: str | Path) -> Profile:
    """The profile a public table is played with: its own turn clock, or
    PUBLIC_TURN_SECONDS, so that a person who leaves is played by the timeout
    (the clock put on as any `--set` is, by the loader)."""
    from rami_core.profile.loader import load_profile

    profile = load_profile(source)
    if turn_seconds(profile):
        return profile
    return load_profile(source, [f"turn.time_limit={PUBLIC_TURN_SECONDS}"])


def preset_offers() -> dict[str, Offer]:

    offers: dict[str, Offer] = {}
    for name in preset_names():
        p = clocked(name)
        offers[name] = Offer(name, p, p.player_counts())
    return offers


def load_offers(house_files: list[str | Path]) -> dict[str, Offer]:
    """The operator's house files, read when the server starts (ProfileError
    for a bad file: `rami serve` says where, and does not start)."""

    offers: dict[str, Offer] = {}
    for path in house_files:
        p = clocked(Path(path))
        clean = {
            "name": plain_text(p.name, MAX_VARIANT_NAME) or Path(path).stem,
            "description": plain_description(p.description, 400),
            "source": plain_text(p.source, 400),
        }
        p = p.model_copy(update=clean)
        offers[p.name] = Offer(p.name, p, p.player_counts())
    return offers


class PublicRoom:
    """The offers, the waiting lists and the tickets of one server."""

    def __init__(self, hub: Hub, house: dict[str, Offer], wait: float):
        self.hub = hub
        self.house = house
        self._offers: dict[str, Offer] | None = None
        self.wait = wait
        self.waiting: dict[tuple[str, int], Waiting] = {}
        self.tickets: dict[str, Ticket] = {}

    # ------------------------------------------------------------ what is offered

    @property
    def offers(self) -> dict[str, Offer]:
        """The presets (read at the first question: most servers never get
        one) and the operator's house files, which a preset name cannot hide."""
        if self._offers is None:
            self._offers = {**preset_offers(), **self.house}
        return self._offers

    def listing(self) -> dict[str, Any]:
        out = []
        for o in self.offers.values():
            waiting = {str(n): len(w.tickets) for (name, n), w in self.waiting.items() if name == o.name}
            out.append(
                {
                    "name": o.name,
                    "description": o.profile.description_in("en"),
                    "descriptions": {lang: o.profile.description_in(lang) for lang in LANGS},
                    "players": o.counts,
                    "default": o.default,
                    "turn_seconds": turn_seconds(o.profile),
                    "waiting": waiting,
                }
            )
        return {"wait": self.wait, "offers": out}

    # ------------------------------------------------------------ play now

    def live_tables(self) -> int:
        return sum(
            1
            for t in self.hub.tables.values()
            if t.public and not t.game.state.game_over and t.stopped is None
        )

    def held(self, client: str) -> int:
        """The tickets `client` holds: waiting, or seated at a table still in play."""
        n = 0
        for tk in self.tickets.values():
            if tk.client != client:
                continue
            if tk.table is None:
                n += 1
                continue
            t = self.hub.tables.get(tk.table)
            if t is not None and not t.deleted and not t.game.state.game_over and t.stopped is None:
                n += 1
        return n

    async def join(self, req: PublicJoin, client: str = "", limits: Limits | None = None) -> Ticket:
        offer = self.offers.get(req.offer)
        if offer is None:
            known = ", ".join(self.offers)
            raise ServerError(
                404, "no_such_offer", f"offer: no public table of {req.offer!r} (offers: {known})"
            )
        players = req.players if req.players is not None else offer.default
        if players not in offer.counts:
            counts = ", ".join(map(str, offer.counts))
            raise ServerError(
                400, "invalid_request", f"players: {offer.name} is played by {counts} players, not {players}"
            )
        name = plain_text(req.name, MAX_NAME)
        if not name:
            raise ServerError(400, "invalid_request", "name: a name is needed to sit at a public table")
        self._forget_old()
        if limits is not None:
            limits.check_public(client, self.held(client))
        key = (offer.name, players)
        # A click joining a list already waiting makes no new table.
        if key not in self.waiting and self.live_tables() + len(self.waiting) >= MAX_PUBLIC_TABLES:
            raise ServerError(503, "public_full", "every public table is taken: try again in a while")
        w = self.waiting.get(key)
        if w is None:
            w = Waiting(offer.name, players, loop_time() + self.wait)
            self.waiting[key] = w
            if self.hub.started:
                w.task = asyncio.create_task(self._timer(w))
        ticket = Ticket(secrets.token_urlsafe(18), name, req.lang, offer.name, players, client=client)
        if limits is not None:
            limits.joined_public(client)
        self.tickets[ticket.id] = ticket
        w.tickets.append(ticket)
        ticket.waiting = w
        if len(w.tickets) == players:
            await self._make_table(w)  # every seat taken: no need to wait
        return ticket

    def leave(self, ticket_id: str) -> dict[str, Any]:
        tk = self._ticket(ticket_id)
        if tk.table is not None:
            raise ServerError(
                409, "already_seated", "the table is made: the seat is yours, the clock plays it"
            )
        w = self.waiting.get((tk.offer, tk.players))
        if w is not None and tk in w.tickets:
            w.tickets.remove(tk)
            if not w.tickets:
                self._drop(w)
        del self.tickets[tk.id]
        return {"ticket": tk.id, "state": "left"}

    async def status(self, ticket_id: str) -> dict[str, Any]:
        tk = self._ticket(ticket_id)
        if tk.table is None:
            w = self.waiting.get((tk.offer, tk.players))
            if w is not None and loop_time() >= w.deadline:
                with contextlib.suppress(ServerError):
                    await self._make_table(
                        w
                    )  # the timer is late (a busy store): the page's question is enough
        if tk.table is not None:
            return {
                "ticket": tk.id,
                "state": "seated",
                "offer": tk.offer,
                "table": tk.table,
                "seat": tk.seat,
                "token": tk.token,
                "url": f"/t/{tk.table}?token={tk.token}",
            }
        w = tk.waiting
        assert w is not None
        return {
            "ticket": tk.id,
            "state": "waiting",
            "offer": tk.offer,
            "players": tk.players,
            "names": [x.name for x in w.tickets],
            "bots_in": round(max(0.0, w.deadline - loop_time()), 1),
        }

    # ------------------------------------------------------------ making the table

    async def _timer(self, w: Waiting) -> None:
        await asyncio.sleep(max(0.0, w.deadline - loop_time()))
        if self.waiting.get((w.offer, w.players)) is w:
            w.task = None
            await retrying(self.hub, lambda: self._make_table(w))

    async def _make_table(self, w: Waiting) -> None:
        """The people who waited, bots in the seats left: a table of the hub."""
        offer = self.offers[w.offer]
        people = list(w.tickets)
        seats = [HUMAN] * len(people) + [PUBLIC_BOT] * (w.players - len(people))
        req = CreateTable(
            variant=offer.name,
            seats=seats,
            names=[tk.name for tk in people],
            lang="fr" if people and people[0].lang == "fr" else "en",
        )
        if self.waiting.get((w.offer, w.players)) is not w:
            return  # made meanwhile (the timer and a page's question at once)
        self._drop(w)  # before the wait for the store: no one joins a table being made
        try:
            t = await self.hub.create(req, (offer.name, offer.profile), public=True)
        except BaseException:
            self.waiting.setdefault((w.offer, w.players), w)  # not made: the people wait on
            raise
        for i, tk in enumerate(people):
            tk.table, tk.seat, tk.token = t.id, i, t.seats[i].token

    def _drop(self, w: Waiting) -> None:
        if self.waiting.get((w.offer, w.players)) is w:
            del self.waiting[(w.offer, w.players)]
        if w.task is not None and w.task is not asyncio.current_task():
            w.task.cancel()
        w.task = None

    def _ticket(self, ticket_id: str) -> Ticket:
        tk = self.tickets.get(ticket_id)
        if tk is None:
            raise ServerError(
                404, "no_such_ticket", "this ticket is unknown here (the server restarted?): join again"
            )
        return tk

    def _forget_old(self) -> None:
        now = time.time()
        for tid, tk in list(self.tickets.items()):
            if tk.table is None:
                continue
            t = self.hub.tables.get(tk.table)
            if t is None or t.deleted or t.game.state.game_over or now - tk.made > TICKET_SECONDS:
                del self.tickets[tid]

    async def stop(self) -> None:
        for w in list(self.waiting.values()):
            if w.task is not None:
                w.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await w.task
