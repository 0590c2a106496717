"""Solving a puzzle at the terminal: ``rami puzzle play``.

The position is a real game (:func:`.prove.game_of`): seat 0, opened, in its
lay phase, the table and the hand of the puzzle. The session is the one of
``rami play`` (:class:`rami_core.terminal.Session`): the same screen, the
same table-editing commands (``r move 7C 1 2; split 3 9H; ...``, ``m``, ``l``),
the engine's refusals in the player's language, and undo. Two things differ:
the hint reveals one meld of the witness at a time (the solver's hint would
give the whole rebuild at once), and ``sol`` shows the solution as the
command to type. The session ends when the goal is reached, the turn ends,
or the player quits.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from rami_core.cards import Card
from rami_core.puzzles.format import Puzzle
from rami_core.puzzles.prove import Position, game_of
from rami_core.terminal import Seat, Session
from rami_core.terminal.prompts import QUIT_WORDS
from rami_core.terminal.session import ABANDON

SOLUTION_WORDS = ("sol", "solution")
LINE_CAP = 2000  # a scripted session that never ends stops here


class PuzzleSession(Session):
    """A one-turn session on a puzzle's position."""

    def __init__(self, puzzle: Puzzle, term, msg, style):
        self.puzzle = puzzle
        self.position = Position.of_puzzle(puzzle)
        game = game_of(self.position)
        seats = [Seat(True, msg("you"))] + [
            Seat(False, msg("bot_one", bot="greedy"), "greedy", None) for _ in range(game.state.players - 1)
        ]
        super().__init__(game, seats, term, msg, style, tell_from_start=False)
        self.hints = 0
        self.show_scores = False  # one turn, not a game: no score line

    def witness(self) -> list[list[Card]]:
        return self.puzzle.witness_cards()

    def solved(self) -> bool:
        s = self.game.state
        if s.round_over or not s.hands[0]:
            return True
        left = Counter(c.face for c in s.hands[0])
        laid = []
        for c in self.position.hand:
            if left[c.face] > 0:
                left[c.face] -= 1
            else:
                laid.append(c)
        return self.position.goal.kind != "all" and self.position.reaches(laid)

    def run(self) -> int:
        m = self.msg
        goal = self.puzzle.goal
        self.term.line(
            Text(m("puzzle_title", id=self.puzzle.id, difficulty=self.puzzle.difficulty), style="bold")
        )
        if goal.kind == "all":
            self.term.line(Text(m("puzzle_goal_all")))
        else:
            key = "puzzle_goal_cards" if goal.kind == "cards" else "puzzle_goal_points"
            self.term.line(Text(m.count(key, (goal.count if goal.kind == "cards" else goal.points) or 0)))
        self.term.line(Text(m("puzzle_help"), style="dim"))
        self.redraw(0, fresh=True)
        for _ in range(LINE_CAP):
            line = self.term.read(m("prompt"))
            if line is None or line.strip().lower() in QUIT_WORDS:
                self.term.line(Text(m("puzzle_given_up", solution=self.solution_text()), style="yellow"))
                return 1
            word = line.strip().lower()
            if word in SOLUTION_WORDS:
                self.term.line(Text(m("puzzle_solution", command=self.solution_text()), style="green"))
                continue
            if word in ("h", "hint", "conseil"):
                self.hint(0)
                continue
            if word in ("?", "help", "aide"):  # the puzzle's own commands, not the game's
                self.term.line(Text(m("puzzle_help"), style="dim"))
                continue
            if self.handle(0, line) == ABANDON:
                return 1
            if self.solved():
                self.term.line(
                    Text(m("puzzle_solved", moves=self.puzzle.proof.min_moves), style="bold green")
                )
                return 0
            if self.game.state.turn != 0:
                self.term.line(Text(m("puzzle_ended"), style="yellow"))
                return 1
        return 1

    def solution_text(self) -> str:
        melds = self.witness()
        return "r " + " | ".join(" ".join(self.style.name(c) for c in meld) for meld in melds)

    def hint(self, seat: int) -> None:
        """One more meld of the solution at each ask, among those not yet on the table."""
        melds = self.witness()
        on_table = Counter(tuple(sorted(c.face for c in m.cards)) for m in self.game.state.table)
        missing = []
        for meld in melds:
            key = tuple(sorted(c.face for c in meld))
            if on_table[key] > 0:
                on_table[key] -= 1
            else:
                missing.append(meld)
        if not missing:
            self.term.line(Text(self.msg("puzzle_hint_done"), style="green"))
            return
        meld = missing[min(self.hints, len(missing) - 1)]
        self.hints += 1
        self.term.line(
            Text(
                self.msg(
                    "puzzle_hint",
                    n=self.hints,  # the hints asked, numbered as the puzzle page numbers them
                    total=len(melds),
                    meld=" ".join(self.style.name(c) for c in meld),
                ),
                style="green",
            )
        )
