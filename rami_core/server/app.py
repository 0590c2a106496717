"""The HTTP and WebSocket face of the table server (a Starlette app).

Starlette rather than FastAPI: the protocol's models already exist as pydantic
classes and are validated explicitly (with the contract's own error bodies,
not a framework's), the app has a dozen routes and one WebSocket, and
Starlette is the small piece both would run on anyway, with its test client
for the protocol tests. uvicorn serves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rami_core.files.resources import preset_names
from rami_core.files.userfiles import loads_json
from rami_core.players.bots import BOTS
from rami_core.server.advice import check_action, hint_of, hint_view, table_rules
from rami_core.server.broadcast import Broadcast
from rami_core.server.client_view import summary
from rami_core.server.expiry import EXPIRE_AFTER, Expiry
from rami_core.server.guard import EXCEPTION_HANDLERS, CrossSite, LastResort, json_body
from rami_core.server.hub import Hub
from rami_core.server.limits import Limits, peer
from rami_core.server.lobby import described, house_names, profile_and_warnings
from rami_core.server.page_words import Words, code_words, page_lang, table_events
from rami_core.server.protocol import (
    CLIENT_ADAPTER,
    CreateTable,
    PublicJoin,
    ServerError,
    schemas,
    validation_message,
)
from rami_core.server.public import PublicRoom, load_offers
from rami_core.server.puzzle_pages import ROUTES as puzzle_routes
from rami_core.server.registry import Registry
from rami_core.server.store import Store
from rami_core.server.table import Conn
from rami_core.words.errors import Problem, ProfileError, RuleError
from rami_core.words.refusals import refusal_json

STATIC = Path(__file__).resolve().parent / "static"
MAX_WS_MESSAGE = 256 * 1024
PROFILE_SECONDS = 10.0  # the longest a creation waits for its pasted profile to be read
SEND_SECONDS = 30.0  # the longest one message may wait for a WebSocket reader
ADVICE_SECONDS = 10.0  # the longest a hint or a check waits for its turn to be thought


# Sent with every HTTP answer. The pages load their scripts and styles from
# /static only, so no inline script (an injected one included) ever runs; no
# referrer leaves a page (a table page's URL may hold a seat's token); no
# other site may frame the pages or sniff a JSON answer into a script.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware putting SECURITY_HEADERS on every HTTP answer."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def ws_error(code: str, message: str, lang: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "text": Words(lang).refusal(code, message)}


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return _dumps(content).encode("utf-8")


def error(status: int, code: str, message: str, lang: str | None = None) -> JSON:
    """The contract's error body; with the page's `lang`, also the refusal in its words."""
    body: dict[str, Any] = {"code": code, "message": message}
    if lang is not None:
        body["text"] = Words(lang).refusal(code, message)
    return JSON({"error": body}, status_code=status)


def profile_refused(e: ProfileError, lang: str) -> JSON:
    """A refused profile (400 profile_invalid): the loader's located message in
    English (the contract's `message`), in every language (`messages`, what the
    lobby shows in its reader's language), each problem as data (`problems`:
    location, code, parameters) and `text` in the request's language."""
    body: dict[str, Any] = {
        "code": "profile_invalid",
        "message": e.format(),
        "messages": e.messages(),
        "problems": [p.to_json() for p in e.problems],
        "text": Words(lang).profile_refused(e),
    }
    return JSON({"error": body}, status_code=400)


# ------------------------------------------------------------ what the routes share

# Each route is a function of the request alone: what it works on (the hub,
# the limits, the public room, the two queues of costly work) is the app's
# state, set once by `create_app`. A ServerError or RuleError a route raises
# is answered by guard's EXCEPTION_HANDLERS (the contract's error body).


def _hub(request: HTTPConnection) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _limits(request: HTTPConnection) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def _public(request: HTTPConnection) -> PublicRoom:
    public: PublicRoom = request.app.state.public
    return public


async def read_profile(request: Request, req: CreateTable) -> tuple[tuple[str, Any], list[Problem]]:
    """Reading a pasted profile (YAML, extends, validation, suggestions) is
    the one costly thing a visitor can ask for: it runs in a worker thread,
    one at a time (the app's `parsing`), so the loop (clocks, bots, every
    socket) never waits on it. The loader's own caps (1 MiB,
    MAX_PROFILE_VALUES values, 20 problems in words) bound each read;
    PROFILE_SECONDS bounds the wait."""
    if req.variant is not None:  # a bundled file by name: small, but still files read off the loop
        return await asyncio.to_thread(profile_and_warnings, req)
    try:
        async with asyncio.timeout(PROFILE_SECONDS):
            async with request.app.state.parsing:
                return await asyncio.to_thread(profile_and_warnings, req)
    except TimeoutError:
        raise ServerError(503, "busy", "the server is reading other house files: try again") from None


async def advise(request: Request, client: str, t: Any, fn: Any, *args: Any) -> Any:
    """A hint (the terminal's planner) or a check (the engine on a copy, every
    meld read) costs up to a few tenths of a second for the largest action
    the protocol lets through: thought in the hub's worker threads (`work`),
    one at a time (the app's `advising`), from a copy taken under the
    table's lock, so the loop never waits on it. What one client has queued
    there is bounded (429 beyond); ADVICE_SECONDS bounds the wait for the
    turn (503)."""
    hub = _hub(request)
    advising: asyncio.Semaphore = request.app.state.advising
    hub.work.admit(client, t.id)
    try:
        async with asyncio.timeout(ADVICE_SECONDS):
            await advising.acquire()
    except TimeoutError:
        raise ServerError(503, "busy", "the server is checking other moves: try again") from None
    try:
        return await hub.work.run(fn, *args, client=client, table=t.id)
    finally:
        advising.release()


def seated(t: Any) -> dict[str, Any]:
    """A new table's seats with their tokens and codes (the creation
    answer: the only message that ever holds them)."""
    seats = [
        {
            "seat": i,
            "kind": s.kind,
            "name": s.name,
            **({"token": s.token} if s.token else {}),
            **({"code": s.code} if s.code else {}),
        }
        for i, s in enumerate(t.seats)
    ]
    url = f"/t/{t.id}"
    return {
        "table": t.id,
        "seats": seats,
        "url": url,
        "links": [f"{url}?token={s.token}" if s.token else None for s in t.seats],
        "joins": [f"/j/{s.code}" if s.code else None for s in t.seats],
        "creator_seat": next((i for i, s in enumerate(t.seats) if s.token), None),
    }


# ------------------------------------------------------------ the pages


async def lobby(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def table_page(request: Request) -> Response:
    return FileResponse(STATIC / "table.html")


async def join_code(request: Request) -> Response:
    """`/j/CODE`: a seat's short code opens its page (a redirect to its
    link); a wrong code goes back to the lobby, which says so. Wrong
    codes are counted per client (`Limits.check_code`)."""
    limits = _limits(request)
    client = peer(request)
    lang = page_lang(request.query_params.get("lang"))
    try:
        limits.spend(client)
        limits.check_code(client)
    except ServerError:
        return RedirectResponse(f"/?lang={lang}&join=limited", status_code=303)
    found = _hub(request).by_code(request.path_params["code"])
    if found is None:
        limits.wrong_code(client)
        return RedirectResponse(f"/?lang={lang}&join=unknown", status_code=303)
    t, i = found
    return RedirectResponse(f"/t/{t.id}?token={t.seats[i].token}&lang={lang}", status_code=303)


# ------------------------------------------------------------ the API


async def codes(request: Request) -> Response:
    return JSON(code_words())


async def meta(request: Request) -> Response:
    # Two folders listed: off the loop, as every file call of the server is.
    def listed() -> tuple[list[str], list[str], dict[str, dict[str, str]]]:
        presets, house = preset_names(), house_names()
        return presets, house, {n: described(n) for n in presets + house}

    presets, house, descriptions = await asyncio.to_thread(listed)
    return JSON({"presets": presets, "house": house, "bots": list(BOTS), "descriptions": descriptions})


async def protocol_schema(request: Request) -> Response:
    return JSON(schemas())


async def create_table(request: Request) -> Response:
    hub, limits = _hub(request), _limits(request)
    data = await json_body(request)
    try:
        req = CreateTable.model_validate(data)
    except ValidationError as e:
        return error(400, "invalid_request", validation_message(e))
    client = peer(request)
    limits.check_create(hub, client)
    try:
        read, warnings = await read_profile(request, req)
        t = await hub.create(req, read)
        limits.created(client)
    except ProfileError as e:
        return profile_refused(e, page_lang(request.query_params.get("lang") or req.lang))
    return JSON(
        {
            **seated(t),
            "creator_token": t.creator,
            "warnings": [w.to_json() for w in warnings],
        },
        status_code=201,
    )


async def rematch(request: Request) -> Response:
    """ "Play again" (`POST /api/tables/ID/rematch?token=SECRET`): the new
    table of the same rules and people, and this seat's place there."""
    hub, limits = _hub(request), _limits(request)
    await json_body(request)  # read as every changing route's is (`{}`: nothing in it is used)
    t = hub.get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    client = peer(request)
    limits.spend(client)
    fresh = t.rematch is None
    if fresh:
        limits.check_create(hub, client)
    again = await hub.rematch(t, seat)
    if fresh:
        limits.created(client)
    assert seat is not None
    token = again.seats[seat].token
    return JSON(
        {
            "table": again.id,
            "seat": seat,
            "token": token,
            "url": f"/t/{again.id}?token={token}" if token else f"/t/{again.id}",
        }
    )


async def delete_table(request: Request) -> Response:
    """The creator's delete: `DELETE /api/tables/ID?token=CREATOR_TOKEN`."""
    hub = _hub(request)
    t = hub.get(request.path_params["id"])
    await hub.delete(t, request.query_params.get("token"))
    return JSON({"table": t.id, "deleted": True})


async def public_offers(request: Request) -> Response:
    return JSON(_public(request).listing())


async def public_join(request: Request) -> Response:
    """ "Play now": a ticket, then a seat at the next public table (`public`)."""
    public = _public(request)
    data = await json_body(request)
    try:
        req = PublicJoin.model_validate(data)
    except ValidationError as e:
        return error(400, "invalid_request", validation_message(e), request.query_params.get("lang"))
    ticket = await public.join(req, peer(request), _limits(request))
    return JSON(await public.status(ticket.id), status_code=201)


async def public_ticket(request: Request) -> Response:
    public = _public(request)
    if request.method == "DELETE":
        return JSON(public.leave(request.path_params["ticket"]))
    return JSON(await public.status(request.path_params["ticket"]))


async def list_tables(request: Request) -> Response:
    return JSON([summary(t) for t in _hub(request).tables.values()])


async def table_info(request: Request) -> Response:
    return JSON(summary(_hub(request).get(request.path_params["id"])))


async def view(request: Request) -> Response:
    hub = _hub(request)
    client = peer(request)
    _limits(request).spend(client)
    t = hub.get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    return JSON(await hub.current_view(t, seat, client))


async def events(request: Request) -> Response:
    """The game's events so far as the seat sees them, with their words in
    `lang`: a page rebuilds its log from them when it opens."""
    _limits(request).spend(peer(request))
    t = _hub(request).get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    lang = page_lang(request.query_params.get("lang"))
    async with t.lock:  # nothing not yet stored
        return JSON({"version": t.version, "events": table_events(t, seat, lang)})


async def rules_of(request: Request) -> Response:
    """The table's title and its rules in words (the page's rules panel)."""
    t = _hub(request).get(request.path_params["id"])
    return JSON(table_rules(t, page_lang(request.query_params.get("lang"))))


async def hint(request: Request) -> Response:
    """The terminal's hint for the seat to play, in the page's language."""
    client = peer(request)
    _limits(request).spend(client)
    t = _hub(request).get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    async with t.lock:  # the view of the stored game, none half-written
        seen = hint_view(t, seat)
    lang = page_lang(request.query_params.get("lang"))
    return JSON(await advise(request, client, t, hint_of, seen, t, lang))


async def check(request: Request) -> Response:
    """Would this action be accepted now? Judged by the engine on a copy: nothing changes."""
    hub = _hub(request)
    client = peer(request)
    _limits(request).spend(client)
    t = hub.get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    data = await json_body(request)
    async with t.lock:
        state = t.game.state.copy()
    lang = page_lang(request.query_params.get("lang"))
    return JSON(await advise(request, client, t, check_action, hub, t, seat, data, lang, state))


async def act(request: Request) -> Response:
    hub = _hub(request)
    t = hub.get(request.path_params["id"])
    seat = t.seat_of(request.query_params.get("token"))
    data = await json_body(request)
    client = peer(request)
    await hub.act(t, seat, data, client)
    return JSON(await hub.current_view(t, seat))  # made already when the seat is connected


async def export(request: Request) -> Response:
    """The game in the save format, once it is over (before, the seed would tell the stock)."""
    hub = _hub(request)
    t = hub.get(request.path_params["id"])
    if not t.game.state.game_over:
        raise ServerError(403, "game_not_over", "a game is exported once it is over (it holds the seed)")
    return JSON(hub.save(t))


# ------------------------------------------------------------ the socket


async def ws(websocket: WebSocket) -> None:
    hub, limits = _hub(websocket), _limits(websocket)
    await websocket.accept()
    try:
        t = hub.get(websocket.path_params["id"])
        seat = t.seat_of(websocket.query_params.get("token"))
    except ServerError as e:
        words = Words(page_lang(websocket.query_params.get("lang")))
        await websocket.send_text(
            _dumps(
                {
                    "type": "error",
                    "code": e.code,
                    "message": e.message,
                    "text": words.refusal(e.code, e.message),
                }
            )
        )
        await websocket.close(code=4000 + e.status)
        return
    lang = page_lang(websocket.query_params.get("lang"))
    client = peer(websocket)
    refusal = limits.refuse_connection(t, client)
    if refusal is None:
        try:
            limits.spend(client)  # a reconnection is a repeatable request too
        except ServerError as e:
            refusal = e
    if refusal is not None:
        await websocket.send_text(_dumps({"type": "error", "code": refusal.code, "message": refusal.message}))
        await websocket.close(code=4000 + refusal.status)
        return
    conn = Conn(seat, lang, client=client)

    async def pump() -> None:
        try:
            while True:
                msg = await conn.queue.get()
                if msg is None:
                    break
                # A reader that takes no message in SEND_SECONDS is dropped: its
                # queue (MAX_QUEUED messages) is the most it pins meanwhile.
                async with asyncio.timeout(SEND_SECONDS):
                    await websocket.send_text(msg if isinstance(msg, str) else _dumps(msg))
        except TimeoutError:
            conn.closed = True
        with contextlib.suppress(Exception):
            await websocket.close()

    sender = asyncio.create_task(pump())
    limits.opened(client)
    await hub.joined(t, conn)  # the newcomer gets its view; the others only if its seat was unheld
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:  # a binary frame: the protocol is JSON text
                conn.send(
                    {
                        "type": "error",
                        "code": "invalid_message",
                        "message": "messages are JSON text frames",
                    }
                )
                continue
            if len(text) > MAX_WS_MESSAGE:
                conn.send({"type": "error", "code": "too_large", "message": "message too large"})
                continue
            try:
                data = loads_json(text)
            except ValueError as e:
                conn.send({"type": "error", "code": "invalid_message", "message": f"not JSON: {e}"})
                continue
            try:
                msg = CLIENT_ADAPTER.validate_python(data)
            except ValidationError as e:
                conn.send({"type": "error", "code": "invalid_message", "message": validation_message(e)})
                continue
            if msg.type == "talk":
                try:
                    if seat is not None:
                        limits.talk(t.id, seat)
                    hub.talk(t, seat, msg.phrase)
                except ServerError as e:
                    conn.send(ws_error(e.code, e.message, lang))
                continue
            if msg.type == "ping":
                try:
                    limits.spend(client)
                except ServerError as e:
                    conn.send(ws_error(e.code, e.message, lang))
                    continue
                try:
                    view = await hub.current_view(t, seat, client)
                except ServerError as e:
                    conn.send(ws_error(e.code, e.message, lang))
                    continue
                conn.send({"type": "view", "view": view})
                continue
            try:
                await hub.act(t, seat, msg.action, client)  # validated: parsed no further
            except ServerError as e:
                conn.send(ws_error(e.code, e.message, lang))
            except RuleError as e:
                conn.send({"type": "error", **refusal_json(e), "text": Words(lang).refused(e)})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        limits.closed(client)
        conn.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        await hub.left(t, conn)


# ------------------------------------------------------------ the app


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The hub's clocks, bots and sweeper run while the app is served; then
    the public room, the hub (its writes finished) and the store close."""
    app.state.hub.start()
    try:
        yield
    finally:
        await app.state.public.stop()
        await app.state.hub.stop()
        app.state.store.close()


ROUTES = [
    Route("/", lobby),
    Route("/t/{id}", table_page),
    Route("/j/{code}", join_code),
    Route("/api/meta", meta),
    Route("/api/schema", protocol_schema),
    Route("/api/codes", codes),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables/{id}", table_info, methods=["GET"]),
    Route("/api/tables/{id}", delete_table, methods=["DELETE"]),
    Route("/api/tables/{id}/view", view),
    Route("/api/tables/{id}/events", events),
    Route("/api/tables/{id}/actions", act, methods=["POST"]),
    Route("/api/tables/{id}/check", check, methods=["POST"]),
    Route("/api/tables/{id}/rules", rules_of),
    Route("/api/tables/{id}/hint", hint),
    Route("/api/tables/{id}/save", export),
    Route("/api/tables/{id}/rematch", rematch, methods=["POST"]),
    Route("/api/public", public_offers, methods=["GET"]),
    Route("/api/public", public_join, methods=["POST"]),
    Route("/api/public/tickets/{ticket}", public_ticket, methods=["GET", "DELETE"]),
    WebSocketRoute("/ws/tables/{id}", ws),
    *puzzle_routes,
    Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
]


def create_app(
    db: str | Path = "rami.sqlite",
    *,
    synchronous: str = "normal",
    round_pause: float = 30.0,
    bot_delay: float = 0.25,
    think_budget: float = 5.0,
    clock_scale: float = 1.0,
    limits_options: dict[str, Any] | None = None,
    public_house: Sequence[str | Path] = (),
    public_wait: float = 30.0,
    expire_after: float | None = EXPIRE_AFTER,
    reproducible_seeds: bool = False,
) -> Starlette:
    """The app. `public_house`: house files offered for "play now" beside the
    presets (a bad one raises ProfileError before anything starts);
    `public_wait`: the seconds a public table waits for people before bots
    take the seats left; `expire_after`: the seconds a table may stay
    unchanged before it is deleted (None: kept until its creator deletes it);
    `limits_options`: the fields of `Limits` (checked: ValueError);
    `reproducible_seeds`: a given seed deals as given at every table (tests
    that replay a game offline; never on a server strangers use)."""
    offers = load_offers(list(public_house))
    store = Store(db, synchronous=synchronous)
    registry = Registry()
    hub = Hub(
        store,
        registry=registry,
        broadcast=Broadcast(),
        expiry=Expiry(registry, expire_after),
        round_pause=round_pause,
        bot_delay=bot_delay,
        think_budget=think_budget,
        clock_scale=clock_scale,
        reproducible_seeds=reproducible_seeds,
    )
    limits = Limits(**(limits_options or {}))
    hub.load()
    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders), Middleware(LastResort), Middleware(CrossSite)],
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.hub = hub
    app.state.store = store
    app.state.limits = limits
    app.state.public = PublicRoom(hub, offers, public_wait)
    app.state.parsing = asyncio.Semaphore(1)  # one pasted profile read at a time
    app.state.advising = asyncio.Semaphore(1)  # one hint or check thought at a time
    return app
