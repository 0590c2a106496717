"""The casse-têtes in the browser: the puzzle page and its small JSON API.

A puzzle is solved in one turn and has no opponent to wait for, so it needs
no table of the hub: each try is played by the referee on a fresh game of
the puzzle's position (:func:`rami_core.puzzles.prove.game_of`), exactly as
``rami puzzle play`` does, and the answer says whether the table was
accepted (with the engine's refusal code and reason when not) and whether
the goal is reached. The witness is never sent with the puzzle: a hint
reveals one of its melds, the solution all of them, on request.

Routes: ``GET /puzzle`` (the page), ``GET /puzzles`` (the collection's
page), ``GET /api/puzzles`` (every bundled puzzle's id and grade, and the
day's puzzle), ``GET /api/puzzles/daily``,
``GET /api/puzzles/{id}``, ``POST /api/puzzles/{id}/try`` (body
``{"table": [["7S", "8S", "9S"], ...]}``, a refusal also in words with
``?lang=``), ``GET /api/puzzles/{id}/hint?n=K``
(the K-th meld of the solution, from 1), ``GET /api/puzzles/{id}/solution``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from rami_core.cards import CardError, parse_card
from rami_core.game import actions as A
from rami_core.puzzles import collection
from rami_core.puzzles.format import Puzzle, meld_text
from rami_core.puzzles.prove import Position, game_of
from rami_core.server.guard import json_body
from rami_core.server.page_words import Words
from rami_core.words.errors import RuleError
from rami_core.words.refusals import refusal_json

STATIC = Path(__file__).resolve().parent / "static"
MAX_MELDS = 60
MAX_CARDS = 200
MAX_BODY = 64 * 1024


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _public(pz: Puzzle) -> dict[str, Any]:
    """What the page shows: the position and the goal, never the witness."""
    return {
        "id": pz.id,
        "variant": pz.variant,
        "difficulty": pz.difficulty,
        "table": [m.split() for m in pz.table],
        "hand": pz.hand.split(),
        "goal": pz.goal.model_dump(exclude_none=True),
        "melds_in_solution": len(pz.proof.witness),
        "min_moves": pz.proof.min_moves,
    }


def _find(pid: str) -> Puzzle | None:
    return next((p for p in collection.bundled() if p.id == pid), None)


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "puzzle.html")


async def list_page(request: Request) -> Response:
    return FileResponse(STATIC / "puzzles.html")


async def listing(request: Request) -> Response:
    """Every bundled puzzle by its id and grade (the collection's order), and the day's."""
    return JSONResponse(
        {
            "daily": collection.daily().id,
            "puzzles": [{"id": p.id, "difficulty": p.difficulty} for p in collection.bundled()],
        }
    )


async def daily(request: Request) -> Response:
    return JSONResponse(_public(collection.daily()))


async def one(request: Request) -> Response:
    pz = _find(request.path_params["id"])
    if pz is None:
        return _error(404, "no_puzzle", "no such puzzle")
    return JSONResponse(_public(pz))


async def hint(request: Request) -> Response:
    pz = _find(request.path_params["id"])
    if pz is None:
        return _error(404, "no_puzzle", "no such puzzle")
    try:
        n = int(request.query_params.get("n", "1"))
    except ValueError:
        return _error(400, "invalid_request", "n is the number of the hint, from 1")
    melds = pz.proof.witness
    n = max(1, min(n, len(melds)))
    return JSONResponse({"n": n, "of": len(melds), "meld": melds[n - 1].split()})


async def solution(request: Request) -> Response:
    pz = _find(request.path_params["id"])
    if pz is None:
        return _error(404, "no_puzzle", "no such puzzle")
    return JSONResponse({"table": [m.split() for m in pz.proof.witness]})


async def attempt(request: Request) -> Response:
    pz = _find(request.path_params["id"])
    if pz is None:
        return _error(404, "no_puzzle", "no such puzzle")
    data = await json_body(request, MAX_BODY)  # the server's one reader: 413, 400 invalid_json
    try:
        table = data["table"]
        if not isinstance(table, list) or len(table) > MAX_MELDS:
            raise ValueError
        melds = tuple(tuple(parse_card(c) for c in m) for m in table if isinstance(m, list))
        if len(melds) != len(table) or sum(len(m) for m in melds) > MAX_CARDS:
            raise ValueError
    except (ValueError, KeyError, TypeError, CardError):
        return _error(400, "invalid_request", 'the body is {"table": [["7S", "8S", "9S"], ...]}')
    pos = Position.of_puzzle(pz)
    game = game_of(pos)
    try:
        game.apply(A.Rearrange(0, melds))
    except RuleError as e:
        # The refusal as a table's (reason, parameters, words in every
        # language) and, in the page's language, as the page shows it: cards
        # in its notation, melds numbered from 1 as the page numbers them.
        words = Words(request.query_params.get("lang") or "en")
        return JSONResponse({"accepted": False, "solved": False, **refusal_json(e), "text": words.refused(e)})
    left = Counter(c.face for c in game.state.hands[0])
    laid = []
    for c in pos.hand:
        if left[c.face] > 0:
            left[c.face] -= 1
        else:
            laid.append(c)
    return JSONResponse(
        {
            "accepted": True,
            "solved": pos.reaches(laid),
            "laid": [meld_text([c]) for c in laid],
            "left": [meld_text([c]) for c in game.state.hands[0]] if game.state.hands else [],
        }
    )


ROUTES = [
    Route("/puzzle", page),
    Route("/puzzles", list_page),
    Route("/api/puzzles", listing),
    Route("/api/puzzles/daily", daily),
    Route("/api/puzzles/{id}", one),
    Route("/api/puzzles/{id}/hint", hint),
    Route("/api/puzzles/{id}/solution", solution),
    Route("/api/puzzles/{id}/try", attempt, methods=["POST"]),
]
