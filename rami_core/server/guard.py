"""The one door of every HTTP route: how a body is read, which requests may
change anything, and what any failure answers.

* :func:`json_body` is the only reader of a request's body: a size cap, then
  :func:`rami_core.files.userfiles.loads_json` (integers bounded in digits, no NaN
  or Infinity, no key twice in an object, nesting bounded), 413 or 400
  ``invalid_json`` otherwise.
* :class:`CrossSite` refuses a state-changing request (POST, PUT, PATCH,
  DELETE) another site's page could make a browser send: a body not declared
  ``application/json`` (415: a form or a ``text/plain`` fetch needs no
  preflight), an ``Origin`` that is not this server's own ``Host``, or
  ``Sec-Fetch-Site: cross-site`` (403).
* :class:`LastResort` turns any exception a route lets through into a JSON
  500 without a traceback; :data:`EXCEPTION_HANDLERS` answer ServerError,
  RuleError and Starlette's own 404/405 as the contract's error body, for the
  routes of every module (the puzzles' included).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rami_core.files.userfiles import loads_json
from rami_core.server.page_words import Words
from rami_core.server.protocol import ServerError
from rami_core.words.errors import RuleError
from rami_core.words.refusals import refusal_json

MAX_BODY = 2 * 1024 * 1024
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
log = logging.getLogger("rami.server")


def error_body(status: int, code: str, message: str, lang: str | None = None) -> JSONResponse:
    """The contract's error body; with the page's `lang`, also the refusal in its words."""
    body: dict[str, Any] = {"code": code, "message": message}
    if lang is not None:
        body["text"] = Words(lang).refusal(code, message)
    return JSONResponse({"error": body}, status_code=status)


async def json_body(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's body as JSON, read by the one reader of the server."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ServerError(413, "too_large", f"the request is over {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ServerError(413, "too_large", f"the request is over {limit} bytes")
    try:
        return loads_json(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise ServerError(400, "invalid_json", f"the body is not JSON: {e}") from None


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _foreign(scope: Any) -> ServerError | None:
    """Another site's page: `Sec-Fetch-Site: cross-site`, or an `Origin` not this server's `Host`."""
    fetch_site = _header(scope, b"sec-fetch-site")
    if fetch_site is not None and fetch_site.strip().lower() == "cross-site":
        return ServerError(403, "cross_site", "a request from another site's page changes nothing here")
    origin = _header(scope, b"origin")
    if origin is not None:
        host = (_header(scope, b"host") or "").strip().lower()
        try:
            theirs = urlsplit(origin.strip()).netloc.lower()
        except ValueError:
            theirs = ""
        if not theirs or theirs != host:
            return ServerError(403, "cross_site", "a request from another site's page changes nothing here")
    return None


def cross_site_refusal(scope: Any) -> ServerError | None:
    """Why a state-changing request (or a WebSocket, which plays moves) is
    refused as another site's, or None."""
    if scope["type"] == "websocket":
        return _foreign(scope)
    if scope["type"] != "http" or scope.get("method", "GET").upper() not in CHANGING:
        return None
    foreign = _foreign(scope)
    if foreign is not None:
        return foreign
    kind = _header(scope, b"content-type")
    length = _header(scope, b"content-length")
    bodiless = scope["method"].upper() == "DELETE" and kind is None and length in (None, "0")
    if not bodiless and (kind is None or kind.split(";")[0].strip().lower() != "application/json"):
        return ServerError(415, "not_json", "a request that changes something is sent as application/json")
    return None


class CrossSite:
    """ASGI middleware: :func:`cross_site_refusal` before any route runs."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        refusal = cross_site_refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            # The handshake refused before it is accepted: the browser sees a 403.
            await receive()
            await send({"type": "websocket.close", "code": 1008})
            return
        lang = Request(scope).query_params.get("lang")
        await error_body(refusal.status, refusal.code, refusal.message, lang)(scope, receive, send)


class LastResort:
    """ASGI middleware: an exception no route handled becomes a JSON 500 (logged
    here, never sent: a traceback tells a visitor how the server is built)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            response = error_body(500, "internal_error", "the server failed on this request")
            await response(scope, receive, send)


def _lang(request: Request) -> str | None:
    return request.query_params.get("lang")


async def _server_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServerError)
    return error_body(exc.status, exc.code, exc.message, _lang(request))


async def _rule_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RuleError)
    body = refusal_json(exc)
    lang = _lang(request)
    if lang is not None:
        body["text"] = Words(lang).refused(exc)
    return JSONResponse({"error": body}, status_code=409)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    response = error_body(exc.status_code, code, str(exc.detail), _lang(request))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ServerError: _server_error,
    RuleError: _rule_error,
    HTTPException: _http_error,
}
