"""The puzzle format: one JSON line per puzzle, a pydantic model.

A puzzle is a position and a goal (:class:`Puzzle`) with its proof
(:class:`Proof`): what was measured when it was proved, so that a reader can
trust it and ``rami puzzle check`` can prove it again. Cards are written in
rami's notation (``7H``, ``10D``, ``QS``, ``JK``), a meld as one string of
cards separated by spaces; the model checks the notation, the checks of the
rules (a valid table, cards the decks hold) are the prover's
(:mod:`rami_core.puzzles.prove`), which names the puzzle and the meld.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rami_core.cards import Card, CardError, format_card, parse_cards, sort_key
from rami_core.files.userfiles import FileRefused, read_regular_file
from rami_core.words.errors import RamiError
from rami_core.words.problems import Said, from_validation, said

FORMAT = "rami-puzzle/1"


class PuzzleError(RamiError, ValueError):
    """A puzzle file or line that cannot be read, or a puzzle whose position
    the rules refuse: the user's input, told in one located line."""


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as one string in rami's notation, sorted by suit then rank: the
    way every meld and hand of the format is written."""
    return " ".join(format_card(c) for c in sorted(cards, key=sort_key))


def meld_text(cards: Iterable[Card]) -> str:
    """A meld in its place order when it is a run (as it lies), else sorted."""
    return " ".join(format_card(c) for c in cards)


def _cards(value: str, what: Said) -> str:
    try:
        cards = parse_cards(value)
    except CardError as exc:
        raise ValueError(Said("at", where=what, detail=exc.said)) from None
    if not cards:
        raise ValueError(Said("puzzle_no_cards", where=what))
    return value.strip()


class Goal(BaseModel):
    """What the solver must reach in one turn: ``all`` (lay every hand card,
    the classic), ``cards`` (lay at least ``count`` hand cards) or ``points``
    (lay hand cards worth at least ``points`` under the profile's values)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["all", "cards", "points"] = Field("all", description="all, cards or points")
    count: int | None = Field(None, ge=1, description="for kind cards: the hand cards to lay")
    points: int | None = Field(None, ge=1, description="for kind points: the points to lay")

    def model_post_init(self, _context: object) -> None:
        if self.kind == "cards" and self.count is None:
            raise ValueError(Said("puzzle_goal_needs", kind="cards", field="count"))
        if self.kind == "points" and self.points is None:
            raise ValueError(Said("puzzle_goal_needs", kind="points", field="points"))


class Bots(BaseModel):
    """Whether each bot, handed the position, lays what the goal asks in one turn."""

    model_config = ConfigDict(extra="forbid")

    greedy: bool = Field(description="the greedy bot (its rebuild search: 2,000 states)")
    expert: bool = Field(description="the expert bot (its rebuild search: 30,000 states)")


class Proof(BaseModel):
    """The claims a puzzle carries, each re-proved by ``rami puzzle check``.

    ``witness`` is a final table reaching the goal (checked by the referee);
    ``solver_optimum`` the solver's proven most hand cards (or points) laid;
    ``lay_offs_best`` what laying off onto the melds as they lie and new melds
    from the hand reach at best (less than the goal: no shortcut);
    ``solutions`` the distinct final tables reaching the goal;
    ``min_moves`` the fewest table cards that leave their meld on the way to a
    solution, ``min_broken`` the fewest table melds broken; ``bots``;
    ``solver_effort`` the smallest state budget of the ladder 250, 500, 1000...
    under which the solver proves the goal reachable (recorded, not re-derived
    exactly: the solver's search may change between versions)."""

    model_config = ConfigDict(extra="forbid")

    witness: list[str] = Field(description="a final table reaching the goal, one meld per string")
    solver_optimum: int = Field(ge=0, description="the solver's proven best for the goal's measure")
    lay_offs_best: int = Field(ge=0, description="the best without rearranging, same measure")
    solutions: int = Field(ge=1, description="distinct final tables that reach the goal")
    solutions_capped: bool = Field(False, description="more solutions than counted")
    min_moves: int = Field(ge=0, description="fewest table cards moved to reach a solution")
    min_broken: int = Field(ge=0, description="fewest table melds broken to reach a solution")
    every_card_needed: bool = Field(description="goal all: no hand card can go, the depth kept")
    bots: Bots
    solver_effort: int = Field(ge=0, description="smallest state budget that proves the goal")

    @field_validator("witness")
    @classmethod
    def _witness(cls, v: list[str]) -> list[str]:
        return [_cards(m, Said("puzzle_where_witness_meld", n=i)) for i, m in enumerate(v, 1)]


class Puzzle(BaseModel):
    """One puzzle: a profile, a table of melds, a hand, a goal, its proof and grade."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"$id": "rami-puzzle/1"})

    format: Literal["rami-puzzle/1"] = Field("rami-puzzle/1", description="the format's name and version")
    id: str = Field(min_length=1, max_length=80, description="a name unique in its collection")
    variant: str = Field("voleur", description="the profile (preset, bundled house file or installed)")
    table: list[str] = Field(min_length=1, description="the melds on the table, one string each")
    hand: str = Field(description="the hand's cards, separated by spaces")
    goal: Goal = Field(default_factory=lambda: Goal(kind="all"))
    seed: int | None = Field(None, description="the generator's seed (rami puzzle new --seed)")
    difficulty: int = Field(ge=1, le=10, description="the grade, 1 to 10 (docs/puzzles.md)")
    proof: Proof

    @field_validator("table")
    @classmethod
    def _table(cls, v: list[str]) -> list[str]:
        return [_cards(m, Said("puzzle_where_table_meld", n=i)) for i, m in enumerate(v, 1)]

    @field_validator("hand")
    @classmethod
    def _hand(cls, v: str) -> str:
        return _cards(v, Said("puzzle_where_hand"))

    def table_cards(self) -> list[list[Card]]:
        """The table's melds as faces (copy 0)."""
        return [parse_cards(m) for m in self.table]

    def hand_cards(self) -> list[Card]:
        """The hand as faces (copy 0)."""
        return parse_cards(self.hand)

    def witness_cards(self) -> list[list[Card]]:
        return [parse_cards(m) for m in self.proof.witness]

    def line(self) -> str:
        """The puzzle as its one JSON line."""
        return json.dumps(self.model_dump(mode="json", exclude_none=True), ensure_ascii=False)


def _first_problem(exc: ValidationError) -> Said:
    """The first of pydantic's errors as a problem of the catalogue, from its
    type and context (a validator's own Said where it raised one), never its English."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "puzzle"
    raised = (err.get("ctx") or {}).get("error")
    if isinstance(raised, BaseException) and raised.args and isinstance(raised.args[0], Said):
        return Said("at", where=where, detail=raised.args[0])
    return Said("at", where=where, detail=from_validation(err))


def read_line(text: str, where: str) -> Puzzle:
    """One puzzle from its JSON line; ``where`` (file:line) locates a refusal."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # the json module's own phrase ("Expecting value"), quoted as it writes it
        detail = Said("text", text=exc.msg)
        raise PuzzleError(Said("puzzle_not_json", where=where, detail=detail, column=exc.colno)) from None
    if not isinstance(data, dict):
        raise PuzzleError(Said("puzzle_not_object", where=where))
    try:
        return Puzzle.model_validate(data)
    except ValidationError as exc:
        raise PuzzleError(Said("at", where=where, detail=_first_problem(exc))) from None


MAX_FILE_BYTES = 64 * 1024 * 1024


def read_lines(text: str, name: str) -> Iterator[tuple[int, Puzzle]]:
    """Every puzzle of a JSON-lines text with its line number (blank lines and
    lines starting with ``#`` skipped)."""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        yield n, read_line(line, f"{name}:{n}")


def read_file(path: str | Path) -> list[Puzzle]:
    """Every puzzle of a file (refused in one located line, never a traceback
    nor a hang: a FIFO, a device or a folder is refused before it is read)."""
    p = Path(path)
    try:
        text = read_regular_file(p, MAX_FILE_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise PuzzleError(Said("at", where=str(p), detail=said(exc.reason))) from None
    except UnicodeDecodeError as exc:
        raise PuzzleError(Said("at", where=str(p), detail=Said("not_utf8", byte=exc.start))) from None
    return [pz for _, pz in read_lines(text, str(p))]


def schema() -> dict:
    """The JSON Schema of one puzzle line (``rami schema --puzzle``)."""
    return Puzzle.model_json_schema()
