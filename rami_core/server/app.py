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
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BOTS
from ..errors import ProfileError, RuleError
from ..resources import preset_names
from .hub import Hub
from .lobby import house_names
from .protocol import CLIENT_ADAPTER, CreateTable, ServerError, schemas, validation_message
from .puzzles import ROUTES as puzzle_routes
from .store import Store
from .table import Conn
from .views import summary

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2 * 1024 * 1024
MAX_WS_MESSAGE = 256 * 1024


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return _dumps(content).encode("utf-8")


def error(status: int, code: str, message: str) -> JSON:
    return JSON({"error": {"code": code, "message": message}}, status_code=status)


async def _json_body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ServerError(413, "too_large", f"the request is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ServerError(413, "too_large", f"the request is over {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise ServerError(400, "invalid_json", f"the body is not JSON: {e}") from None


def create_app(
    db: str | Path = "rami.sqlite",
    *,
    synchronous: str = "normal",
    round_pause: float = 4.0,
    bot_delay: float = 0.25,
    think_budget: float = 5.0,
    clock_scale: float = 1.0,
) -> Starlette:
    store = Store(db, synchronous=synchronous)
    hub = Hub(
        store,
        round_pause=round_pause,
        bot_delay=bot_delay,
        think_budget=think_budget,
        clock_scale=clock_scale,
    )
    hub.load()

    def guarded(handler):
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except ServerError as e:
                return error(e.status, e.code, e.message)
            except RuleError as e:
                return error(409, e.code, e.message)

        return run

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    @guarded
    async def meta(request: Request) -> Response:
        return JSON({"presets": preset_names(), "house": house_names(), "bots": list(BOTS)})

    @guarded
    async def protocol_schema(request: Request) -> Response:
        return JSON(schemas())

    @guarded
    async def create_table(request: Request) -> Response:
        data = await _json_body(request)
        try:
            req = CreateTable.model_validate(data)
        except ValidationError as e:
            return error(400, "invalid_request", validation_message(e))
        try:
            t = hub.create(req)
        except ProfileError as e:
            return error(400, "profile_invalid", e.format())
        seats = [
            {"seat": i, "kind": s.kind, "name": s.name, **({"token": s.token} if s.token else {})}
            for i, s in enumerate(t.seats)
        ]
        url = f"/t/{t.id}"
        links = [f"{url}?token={s.token}" if s.token else None for s in t.seats]
        return JSON({"table": t.id, "seats": seats, "url": url, "links": links}, status_code=201)

    @guarded
    async def list_tables(request: Request) -> Response:
        return JSON([summary(t) for t in hub.tables.values()])

    @guarded
    async def table_info(request: Request) -> Response:
        return JSON(summary(hub.get(request.path_params["id"])))

    @guarded
    async def view(request: Request) -> Response:
        t = hub.get(request.path_params["id"])
        seat = t.seat_of(request.query_params.get("token"))
        return JSON(hub.view(t, seat))

    @guarded
    async def act(request: Request) -> Response:
        t = hub.get(request.path_params["id"])
        seat = t.seat_of(request.query_params.get("token"))
        data = await _json_body(request)
        hub.act(t, seat, data)
        return JSON(hub.view(t, seat))

    @guarded
    async def export(request: Request) -> Response:
        """The game in the save format, once it is over (before, the seed would tell the stock)."""
        t = hub.get(request.path_params["id"])
        if not t.game.state.game_over:
            raise ServerError(403, "game_not_over", "a game is exported once it is over (it holds the seed)")
        return JSON(hub.save(t))

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            t = hub.get(websocket.path_params["id"])
            seat = t.seat_of(websocket.query_params.get("token"))
        except ServerError as e:
            await websocket.send_text(_dumps({"type": "error", "code": e.code, "message": e.message}))
            await websocket.close(code=4000 + e.status)
            return
        conn = Conn(seat)
        t.conns.add(conn)

        async def pump() -> None:
            while True:
                msg = await conn.queue.get()
                if msg is None:
                    break
                await websocket.send_text(_dumps(msg))
            with contextlib.suppress(Exception):
                await websocket.close()

        sender = asyncio.create_task(pump())
        hub.tell_all(t)  # the newcomer gets its view; the others see who is connected
        try:
            while True:
                text = await websocket.receive_text()
                if len(text) > MAX_WS_MESSAGE:
                    conn.send({"type": "error", "code": "too_large", "message": "message too large"})
                    continue
                try:
                    msg = CLIENT_ADAPTER.validate_json(text)
                except ValidationError as e:
                    conn.send({"type": "error", "code": "invalid_message", "message": validation_message(e)})
                    continue
                if msg.type == "ping":
                    conn.send({"type": "view", "view": hub.view(t, seat)})
                    continue
                try:
                    hub.act(t, seat, msg.action.model_dump(by_alias=True, exclude_none=True))
                except ServerError as e:
                    conn.send({"type": "error", "code": e.code, "message": e.message})
                except RuleError as e:
                    conn.send({"type": "error", "code": e.code, "message": e.message})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            t.conns.discard(conn)
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            if hub.started:
                hub.tell_all(t)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    routes = [
        Route("/", lobby),
        Route("/t/{id}", table_page),
        Route("/api/meta", meta),
        Route("/api/schema", protocol_schema),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{id}", table_info),
        Route("/api/tables/{id}/view", view),
        Route("/api/tables/{id}/actions", act, methods=["POST"]),
        Route("/api/tables/{id}/save", export),
        WebSocketRoute("/ws/tables/{id}", ws),
        *puzzle_routes,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
