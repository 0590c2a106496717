"""The game loop of `rami play`: people at one screen and bots around a Game.

A human's screen is built from `Game.view(seat)` only. Bots get their seat's
view and answer one action at a time; each action they play is told in
words (rami_core.players.narration). A human's refused action shows the engine's
reason in the player's language and changes nothing; `undo` takes back the
human's moves of the current turn (terminal/undo.py). Where the turn clock is
on, a person's read ends by itself when time runs out (terminal/console.py) and
the engine plays the timeout at once.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from rami_core.cards import Card
from rami_core.cards.text import CardStyle
from rami_core.files.userfiles import visible
from rami_core.game import actions as A
from rami_core.game.events import Event, EventKind
from rami_core.game.state import OVER
from rami_core.players.narration import Teller, styled, tell
from rami_core.players.savegame import SaveError
from rami_core.referee.caps import ROUND_CAP, STEP_CAP, TURN_CAP, round_capped
from rami_core.referee.engine import Game
from rami_core.referee.legal import legal_moves
from rami_core.terminal import commands as C
from rami_core.terminal.commands import CommandError, Parser
from rami_core.terminal.console import TIMEOUT, Terminal
from rami_core.terminal.dispatch import command_text, to_action
from rami_core.terminal.prompts import Questions, default_save_path
from rami_core.terminal.saves import write_save
from rami_core.terminal.screen import Screen
from rami_core.terminal.undo import Entry, UndoStack
from rami_core.words.errors import RuleError
from rami_core.words.messages import Messages
from rami_core.words.problems import words

ABANDON = "abandon"
RECENT_LINES = 14


@dataclass
class Seat:
    human: bool
    name: str
    bot_name: str | None = None
    bot: Any = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"human": True} if self.human else {"bot": self.bot_name}
        out["name"] = self.name
        return out


class Session:
    def __init__(
        self,
        game: Game,
        seats: list[Seat],
        term: Terminal,
        msg: Messages,
        style: CardStyle,
        *,
        save_path: str | None = None,
        clock: int | None = None,
        tell_from_start: bool = True,
        offer_save: bool = False,
    ):
        self.game = game
        self.seats = seats
        self.term = term
        self.msg = msg
        self.style = style
        self.save_path = save_path
        self.clock = clock if clock and clock > 0 and term.can_time_out else None
        self.offer_save = offer_save
        self.parser = Parser(msg.lang)
        for s in seats:  # a name typed, passed with --names or read from a save: shown, never obeyed
            s.name = visible(s.name)
        self.screen = Screen(game.rules, [s.name for s in seats], style, msg)
        self.humans = [i for i, s in enumerate(seats) if s.human]
        self.shared_screen = len(self.humans) > 1
        self.shown = 0 if tell_from_start else len(game.events)
        self.recent: dict[int, list[Text]] = {h: [] for h in self.humans}
        self.undo = UndoStack()
        self.last_human: int | None = None
        self.deadline: float | None = None
        self.turn_recent: list[Text] = []
        self.ask = Questions(term, msg, self.say)
        self.show_scores = True

    # ------------------------------------------------------------------ text

    def teller(self, viewer: int | None) -> Teller:
        return Teller(
            self.msg,
            name=lambda seat: self.seats[seat].name,
            cards=self.style.codes,
            melds=self.style.code_melds,
            you=self.humans[0] if len(self.humans) == 1 else None,
            discard_enabled=self.game.rules.ends_with_discard,
        )

    def describe(self, e: Event, viewer: int | None) -> Text | None:
        return tell(self.teller(viewer), e)

    def narrate(self) -> list[Text]:
        """Tell the events since the last call; keep them for each human's next screen."""
        new = self.game.events[self.shown :]
        self.shown = len(self.game.events)
        printed: list[Text] = []
        for e in new:
            actor = e.seat if e.seat is not None and self.seats[e.seat].human else None
            line = self.describe(e.for_seat(actor), actor)
            if line is not None:
                printed.append(line)
            for h in self.humans:
                if h == actor:
                    continue
                mine = self.describe(e.for_seat(h), h)
                if mine is not None:
                    self.recent[h] = (self.recent[h] + [mine])[-RECENT_LINES:]
        return printed

    def say(self, key: str, style: str = "", **kw: Any) -> None:
        t = styled(self.msg, key, **kw)
        t.stylize(style)
        self.term.line(t)

    # ------------------------------------------------------------------ main loop

    def run(self) -> int:
        if not self.humans:
            self.say("watching", "dim", names=", ".join(s.name for s in self.seats))
        self.term.show(self.narrate())
        rounds = 0
        while True:
            s = self.game.state
            if not self.humans and (round_capped(s) or rounds >= ROUND_CAP):
                # Bots only: a round or a game that would never end stops where simulate stops it.
                self.say("bots_capped", "yellow", turns=TURN_CAP, rounds=ROUND_CAP)
                return self.abandon()
            if s.phase == OVER:
                rounds += 1
                if not self.round_end():
                    return self.abandon()
                if self.game.state.game_over:
                    self.autosave()
                    return 0
                continue
            seat = s.turn
            if self.seats[seat].human:
                if self.human_turn(seat) == ABANDON:
                    return self.abandon()
            else:
                self.bot_turn(seat)
            self.autosave()

    def abandon(self) -> int:
        self.autosave()
        if self.offer_save and not self.save_path and self.ask.yes_no("save_offer"):
            path = self.ask.save_path(default_save_path(self.game.profile.name))
            if path is not None:
                with contextlib.suppress(OSError):  # a folder that cannot be made: save() says why it fails
                    path.parent.mkdir(parents=True, exist_ok=True)
                self.save(str(path))
        self.say("abandoned", "bold")
        self.term.show(self.screen.score_sheet(self.game))
        return 0

    # ------------------------------------------------------------------ bots

    def bot_turn(self, seat: int) -> None:
        g = self.game
        bot = self.seats[seat].bot
        round_no = g.state.round_no
        if not self.humans and self.term.interactive:
            self.term.clear()
            self.term.show(self.screen.render(g.view(seat), viewer=None, show_hand=False))
        table_before = [m.cards for m in g.state.table]
        for _ in range(STEP_CAP):
            s = g.state
            if s.phase == OVER or s.turn != seat or s.round_no != round_no:
                break
            try:
                action = bot.choose(g.view(seat), g.rules)
                g.apply(action)
            except Exception as e:  # a bot's mistake never ends the game: the clock plays for it
                detail = f"{e.code}: {e.message}" if isinstance(e, RuleError) else f"{type(e).__name__}: {e}"
                self.say("bot_error", "red", name=self.seats[seat].name, detail=detail)
                g.apply(A.Timeout(seat))
            for line in self.narrate():
                self.term.line(Text("  ") + line)
                self.term.pause()
        else:
            g.apply(A.Timeout(seat))
            self.term.show(Text("  ") + line for line in self.narrate())
        if not self.humans and g.state.phase != OVER and [m.cards for m in g.state.table] != table_before:
            self.term.show(self.screen.table(g.view(seat)))

    # ------------------------------------------------------------------ people

    def human_turn(self, seat: int) -> str | None:
        g = self.game
        if self.shared_screen and self.last_human != seat:
            self.term.clear()
            self.term.line(
                self.screen.rule(self.msg("title", variant=visible(g.profile.name), round=g.state.round_no))
            )
            self.say("pass_to", "bold", name=self.seats[seat].name)
            if not self.ask.enter_or_quit("ready_prompt"):
                return ABANDON
        self.last_human = seat
        self.deadline = time.monotonic() + self.clock if self.clock else None
        self.undo.clear()
        round_no = g.state.round_no
        self.redraw(seat, fresh=True)
        while True:
            s = g.state
            if s.phase == OVER or s.turn != seat or s.round_no != round_no:
                if self.shared_screen and s.phase != OVER:
                    self.term.clear()  # the next person must not find this hand on the screen
                return None
            line = self.term.read(
                self.msg("prompt"),
                deadline=self.deadline,
                clock=(lambda left: self.msg("clock", limit=self.clock, left=left)) if self.clock else None,
            )
            if line is None:
                return ABANDON
            if line == TIMEOUT:
                self.time_out(seat)
                continue
            if self.handle(seat, line) == ABANDON:
                return ABANDON

    def time_out(self, seat: int) -> None:
        """The clock ran out: the engine ends the turn now, whatever was being typed."""
        self.say("timeout", "yellow", name=self.seats[seat].name)
        try:
            self.game.apply(A.Timeout(seat))
        except RuleError as e:  # pragma: no cover - the engine undoes the turn when it must
            self.refuse(e)
            self.deadline = None
            return
        self.term.show(self.narrate())

    def redraw(self, seat: int, fresh: bool = False) -> None:
        g = self.game
        view = g.view(seat)
        if fresh:
            # What happened since this seat's last turn: shown on a terminal,
            # where the screen is cleared (a script's output already holds it).
            self.turn_recent = self.recent.get(seat, [])
            self.recent[seat] = []
        recent = None
        if self.term.interactive:
            self.term.clear()
            recent = self.turn_recent[-RECENT_LINES:] or None
        opened = g.rules.may_lay_freely(g.state, seat)
        self.term.show(
            self.screen.render(
                view,
                viewer=seat,
                show_hand=True,
                opened=opened,
                recent=recent,
                legal=legal_moves(g, seat),
                scores=self.show_scores,
            )
        )

    def refuse(self, e: RuleError) -> None:
        self.term.line(Text(self.msg.refusal(e, self.style.code), style="bold red"))

    def command_error(self, e: CommandError) -> None:
        if e.key == "usage":
            detail = self.msg(e.kw["usage"])
        elif e.key == "card":
            err = e.kw["error"]
            detail = self.msg(err.key, **err.params)
        else:
            kw = {k: (self.style.name(v) if isinstance(v, Card) else v) for k, v in e.kw.items()}
            detail = self.msg(e.key, **kw)
        self.term.line(Text(self.msg("bad_command", detail=detail), style="red"))

    def handle(self, seat: int, line: str) -> str | None:
        if line.strip().lower() in C.NAMES["rearrange"]:
            return self.edit_table(seat)
        try:
            cmd = self.parser.parse(line)
        except CommandError as e:
            self.command_error(e)
            return None
        except Exception:  # any line runs or is "not understood", never a crash
            self.command_error(CommandError("unknown_command", cmd=visible(line.strip().partition(" ")[0])))
            return None
        try:
            return self.execute(seat, cmd)
        except CommandError as e:
            self.command_error(e)
        return None

    def edit_table(self, seat: int) -> str | None:
        """`r` alone: the table written as the command that lays it, to edit
        and send back on the next line (Enter alone leaves it as it is)."""
        table = " | ".join(" ".join(self.style.name(c) for c in m.cards) for m in self.game.state.table)
        self.say("edit_table_now", "dim", command=f"r {table}" if table else "r")
        self.say("edit_table_how", "dim")
        line = self.term.read(self.msg("edit_table_prompt"))
        if line is None or line == TIMEOUT or not line.strip():
            return None
        typed = line.strip()
        if typed.split()[0].lower() in C.NAMES["rearrange"]:
            typed = typed.split(None, 1)[1] if len(typed.split(None, 1)) > 1 else ""
        if not typed:
            return None
        return self.handle(seat, f"r {typed}")

    def execute(self, seat: int, cmd: C.Command) -> str | None:
        if isinstance(cmd, C.Quit):
            return ABANDON
        if isinstance(cmd, C.Show):
            self.redraw(seat)
        elif isinstance(cmd, C.Help):
            self.term.line(Text(self.msg("help")))
            g = self.game
            if g.state.turn == seat:  # what the engine offers now, after the list of commands
                opened = g.rules.may_lay_freely(g.state, seat)
                for line in self.screen.actions_now(g.view(seat), opened, legal_moves(g, seat)):
                    self.term.line(line)
        elif isinstance(cmd, C.Scores):
            self.term.show(self.screen.score_sheet(self.game))
        elif isinstance(cmd, C.Save):
            self.save(cmd.path)
        elif isinstance(cmd, C.Hint):
            self.hint(seat)
        elif isinstance(cmd, C.Undo):
            self.take_back(seat)
        else:
            action = to_action(seat, cmd, lambda: self.game.view(seat))
            if action is not None:
                self.act(seat, action)
        return None

    def act(self, seat: int, action: A.Action) -> None:
        g = self.game
        before = (
            g.checkpoint(),
            self.shown,
            {h: list(r) for h, r in self.recent.items()},
            list(self.turn_recent),
        )
        try:
            g.apply(action)
        except RuleError as e:
            self.refuse(e)
            return
        lines = self.narrate()
        if isinstance(action, A.Draw) and action.source == "stock":
            self.undo.clear()  # the card drawn has been seen: a stock draw stays drawn
        else:
            self.undo.push(Entry(*before, what=" / ".join(t.plain for t in lines)))
        self.turn_recent = (self.turn_recent + lines)[-RECENT_LINES:]
        self.term.show(lines)
        s = g.state
        if s.phase != OVER and s.turn == seat:
            self.redraw(seat)

    def take_back(self, seat: int) -> None:
        entry = self.undo.pop()
        if entry is None:
            self.say("nothing_to_undo", "yellow")
            return
        self.game.rollback(entry.checkpoint)
        self.shown = entry.shown
        self.recent = entry.recent
        self.turn_recent = entry.turn_recent
        self.say("undone", "yellow", what=entry.what)
        self.redraw(seat)

    # ------------------------------------------------------------------ hint

    def hint(self, seat: int) -> None:
        from rami_core.players.hint import hint_words

        ok, text = hint_words(
            self.game.view(seat),
            self.game.rules,
            self.msg,
            self.style.name,
            typed=lambda a: command_text(a, self.style.name),
        )
        self.term.line(Text(text, style="green" if ok else "red"))

    # ------------------------------------------------------------------ round end

    def round_end(self) -> bool:
        g = self.game
        ev = next((e for e in reversed(g.events) if e.kind == EventKind.ROUND_OVER), None)
        how = ev.data.get("how") if ev else None
        sec = bool(ev.data.get("rami_sec")) if ev else False
        self.term.show(self.narrate())
        viewer = self.humans[0] if self.humans else 0
        you = self.humans[0] if len(self.humans) == 1 else None
        self.term.show(self.screen.round_end(g.view(viewer), how, sec, you=you))
        self.term.show(self.screen.score_sheet(g))
        if g.state.game_over:
            return True
        if self.humans:
            self.say("continue", "dim")
            if not self.ask.enter_or_quit("continue_prompt"):
                return False
        g.next_round()
        self.last_human = None if self.shared_screen else self.last_human
        self.term.show(self.narrate())
        return True

    # ------------------------------------------------------------------ saving

    def save(self, path: str) -> None:
        try:
            write_save(self.game, path, [s.to_dict() for s in self.seats], self.msg.lang)
        except SaveError as e:
            self.say("save_failed", "red", path=visible(path), error=words(e.reason or e.said, self.msg.lang))
            return
        self.say("saved", "green", path=visible(path))

    def autosave(self) -> None:
        if self.save_path:
            try:
                write_save(self.game, self.save_path, [s.to_dict() for s in self.seats], self.msg.lang)
            except SaveError as e:
                self.say(
                    "save_failed",
                    "red",
                    path=visible(self.save_path),
                    error=words(e.reason or e.said, self.msg.lang),
                )
