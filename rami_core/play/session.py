"""The game loop of `rami play`: people at one screen and bots around a Game.

A human's screen is built from `Game.view(seat)` only. Bots get their seat's
view and answer one action at a time; each action they play is told in
words. A human's refused action shows the engine's reason and changes
nothing; `undo` takes back the human's moves of the current turn (never a
stock draw, whose card has been seen) by restoring the game as it was before
the move, log and events included, so a save made after an undo replays.
"""

from __future__ import annotations

import contextlib
import string
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from .. import actions as A
from ..cards import Card
from ..engine import Game, may_lay_freely
from ..errors import RuleError
from ..events import Event
from ..state import OVER
from ..userfiles import visible
from .cards import CardStyle
from .commands import Command, CommandError, apply_edits, parse
from .i18n import MESSAGES, Messages
from .screen import Screen

ABANDON = "abandon"
QUIT_WORDS = ("q", "quit", "exit", "quitter")
RECENT_LINES = 14


@dataclass
class Seat:
    human: bool
    name: str
    bot_name: str | None = None
    bot: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"human": True} if self.human else {"bot": self.bot_name}


class Terminal:
    """Where the game is shown and commands come from.

    With a terminal on stdin the player types at a prompt; otherwise commands
    are read line by line (a scripted game) and echoed after the prompt, so a
    transcript reads like a session at the keyboard."""

    def __init__(
        self,
        console: Console,
        *,
        interactive: bool,
        delay: float = 0.0,
        read_line: Callable[[], str] | None = None,
    ):
        self.console = console
        self.interactive = interactive
        self.delay = delay
        self._read_line = read_line or sys.stdin.readline

    def show(self, items) -> None:
        for item in items:
            self.console.print(item)
        self.flush()

    def line(self, item) -> None:
        self.console.print(item)
        self.flush()

    def flush(self) -> None:
        with contextlib.suppress(AttributeError, ValueError, OSError):
            self.console.file.flush()

    def clear(self) -> None:
        if self.interactive and self.console.is_terminal:
            self.console.clear()

    def pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    def read(self, prompt: str) -> str | None:
        """One line, or None at the end of input (or ^C / ^D at a terminal)."""
        if self.interactive:
            try:
                return self.console.input(Text(prompt, style="bold"))
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return None
        self.console.print(Text(prompt, style="bold"), end="")
        self.flush()
        try:
            line = self._read_line()
        except (KeyboardInterrupt, UnicodeDecodeError):
            line = ""
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        self.console.print(visible(line), markup=False, highlight=False, emoji=False)
        return line


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
        clock: bool = False,
        tell_from_start: bool = True,
    ):
        self.game = game
        self.seats = seats
        self.term = term
        self.msg = msg
        self.style = style
        self.save_path = save_path
        self.clock_enforced = clock
        self.screen = Screen(game.rules, [s.name for s in seats], style, msg)
        self.humans = [i for i, s in enumerate(seats) if s.human]
        self.shared_screen = len(self.humans) > 1
        self.shown = 0 if tell_from_start else len(game.events)
        self.recent: dict[int, list[Text]] = {h: [] for h in self.humans}
        self.undo: list[tuple[tuple, str]] = []
        self.last_human: int | None = None
        self.turn_started = time.monotonic()
        self.turn_recent: list[Text] = []

    # ------------------------------------------------------------------ text

    def fmt(self, key: str, **kw: Any) -> Text:
        """A message with cards (Text values) kept in their colours."""
        template = MESSAGES[self.msg.lang].get(key) or MESSAGES["en"][key]
        out = Text()
        for literal, field, spec, conv in string.Formatter().parse(template):
            out.append(literal)
            if field is None:
                continue
            value = kw[field]
            if isinstance(value, Text):
                out.append_text(value)
            else:
                out.append(format(repr(value) if conv == "r" else value, spec or ""))
        return out

    def cards(self, codes) -> Text:
        from ..cards import parse_card

        return self.style.cards([parse_card(c) for c in codes])

    def melds(self, melds) -> Text:
        from ..cards import parse_card

        return self.style.melds([[parse_card(c) for c in m] for m in melds])

    def describe(self, e: Event, viewer: int | None) -> Text | None:
        d = e.data
        k = e.kind
        you = e.seat is not None and e.seat == viewer and not self.shared_screen
        pre = "evy_" if you else "ev_"
        name = self.seats[e.seat].name if e.seat is not None else ""
        p = self.game.profile
        if k == "round_dealt":
            first = d["first_player"]
            if self.seats[first].human and not self.shared_screen:
                return self.fmt("evy_dealt", round=d["round"])
            return self.fmt("ev_dealt", round=d["round"], name=self.seats[first].name)
        if k == "drawn":
            card = d.get("card") or e.private.get("card")
            if d["source"] == "discard":
                return self.fmt(pre + "draw_discard", name=name, card=self.cards([card]) if card else "")
            if card:
                return self.fmt(pre + "draw_stock_card", name=name, card=self.cards([card]))
            return self.fmt(pre + "draw_stock", name=name)
        if k == "opened":
            return self.fmt(pre + "opened", name=name)
        if k == "laid":
            return self.fmt(pre + "laid", name=name, melds=self.melds(d["melds"]))
        if k == "laid_off":
            items = Text()
            for i, x in enumerate(d["cards"]):
                if i:
                    items.append(", ")
                items.append_text(self.fmt("ev_on_meld", card=self.cards([x["card"]]), n=x["to"] + 1))
            return self.fmt(pre + "laid_off", name=name, items=items)
        if k == "swapped":
            return self.fmt(pre + "swapped", name=name, cards=self.cards(d["given"]), n=d["meld"] + 1)
        if k == "rearranged":
            return self.fmt(pre + "rearranged", name=name, melds=self.melds(d["table"]))
        if k == "discarded":
            return self.fmt(pre + "discarded", name=name, card=self.cards([d["card"]]))
        if k == "turn_ended":
            return None if p.discard.enabled else self.fmt(pre + "turn_ended", name=name)
        if k == "timed_out":
            return self.fmt(pre + ("timed_out_undone" if d.get("undone") else "timed_out"), name=name)
        if k == "stock_rebuilt":
            return self.fmt("ev_rebuilt", n=d["stock_size"])
        return None  # round and game ends have their own screens

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
        t = self.fmt(key, **kw)
        t.stylize(style)
        self.term.line(t)

    # ------------------------------------------------------------------ main loop

    def run(self) -> int:
        if not self.humans:
            self.say("watching", "dim", names=", ".join(s.name for s in self.seats))
        self.term.show(self.narrate())
        while True:
            s = self.game.state
            if s.phase == OVER:
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
        self.say("abandoned", "bold")
        self.term.line(self.screen.scores(self.game.view(self.humans[0] if self.humans else 0)))
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
        for _ in range(300):
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
                self.screen.rule(self.msg("title", variant=g.profile.name, round=g.state.round_no))
            )
            self.say("pass_to", "bold", name=self.seats[seat].name)
            line = self.term.read(self.msg("ready_prompt"))
            if line is None or line.strip().lower() in QUIT_WORDS:
                return ABANDON
        self.last_human = seat
        self.turn_started = time.monotonic()
        self.undo = []
        round_no = g.state.round_no
        self.redraw(seat, fresh=True)
        while True:
            s = g.state
            if s.phase == OVER or s.turn != seat or s.round_no != round_no:
                if self.shared_screen and s.phase != OVER:
                    self.term.clear()  # the next person must not find this hand on the screen
                return None
            line = self.term.read(self.msg("prompt"))
            if line is None:
                return ABANDON
            if self.clock_enforced and self.time_left() <= 0:
                self.say("timeout", "yellow", name=self.seats[seat].name)
                try:
                    g.apply(A.Timeout(seat))
                except RuleError as e:  # pragma: no cover - the engine undoes the turn when it must
                    self.refuse(e)
                    self.turn_started = time.monotonic()
                    continue
                self.term.show(self.narrate())
                continue
            if self.handle(seat, line) == ABANDON:
                return ABANDON

    def time_left(self) -> int:
        limit = self.game.profile.turn.time_limit
        if not limit:
            return 1
        return int(limit - (time.monotonic() - self.turn_started))

    def redraw(self, seat: int, fresh: bool = False) -> None:
        g = self.game
        view = g.view(seat)
        limit = g.profile.turn.time_limit
        clock = None
        if limit:
            clock = (
                self.msg("clock", limit=limit, left=max(0, self.time_left()))
                if self.clock_enforced
                else self.msg("clock_off", limit=limit)
            )
        if fresh:
            # What happened since this seat's last turn: shown on a terminal,
            # where the screen is cleared (a script's output already holds it).
            self.turn_recent = self.recent.get(seat, [])
            self.recent[seat] = []
        recent = None
        if self.term.interactive:
            self.term.clear()
            recent = self.turn_recent[-RECENT_LINES:] or None
        opened = may_lay_freely(g.rules, g.state, seat)
        self.term.show(
            self.screen.render(view, viewer=seat, show_hand=True, opened=opened, recent=recent, clock=clock)
        )

    def refuse(self, e: RuleError) -> None:
        self.term.line(Text(self.msg.refusal(e.code, self.style.detail(e.message)), style="bold red"))

    def command_error(self, e: CommandError) -> None:
        if e.key == "usage":
            detail = self.msg(e.kw["usage"])
        else:
            kw = {k: (self.style.name(v) if isinstance(v, Card) else v) for k, v in e.kw.items()}
            detail = self.msg(e.key, **kw)
        self.term.line(Text(self.msg("bad_command", detail=detail), style="red"))

    def handle(self, seat: int, line: str) -> str | None:
        try:
            cmd = parse(line)
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

    def execute(self, seat: int, cmd: Command) -> str | None:
        g = self.game
        k = cmd.kind
        a = cmd.args
        if k == "quit":
            return ABANDON
        if k == "show":
            self.redraw(seat)
            return None
        if k == "help":
            self.term.line(Text(self.msg("help").replace("{fr}", self.msg("help_fr"))))
            return None
        if k == "save":
            self.save(a["path"])
            return None
        if k == "hint":
            self.hint(seat)
            return None
        if k == "undo":
            self.take_back(seat)
            return None
        if k == "draw":
            action: A.Action = A.Draw(seat, a["source"])
        elif k == "meld":
            action = A.Meld(seat, tuple(tuple(m) for m in a["melds"]))
        elif k == "layoff":
            action = A.LayOff(seat, tuple(A.LayOffItem(c, to, as_) for c, to, as_ in a["items"]))
        elif k == "swap":
            action = A.Swap(seat, tuple(a["cards"]), a["meld"])
        elif k == "rearrange":
            action = A.Rearrange(seat, tuple(tuple(m) for m in a["table"]))
        elif k == "rearrange_edits":
            table = [list(m.cards) for m in g.view(seat).table]
            action = A.Rearrange(seat, tuple(tuple(m) for m in apply_edits(table, a["edits"])))
        elif k == "discard":
            action = A.Discard(seat, a["card"])
        elif k == "end":
            action = A.EndTurn(seat)
        else:  # pragma: no cover - every parsed kind is handled above
            return None
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
            self.undo.append((before, " / ".join(t.plain for t in lines)))
        self.turn_recent = (self.turn_recent + lines)[-RECENT_LINES:]
        self.term.show(lines)
        s = g.state
        if s.phase != OVER and s.turn == seat:
            self.redraw(seat)

    def take_back(self, seat: int) -> None:
        g = self.game
        if not self.undo:
            self.say("nothing_to_undo", "yellow")
            return
        (checkpoint, shown, recent, turn_recent), what = self.undo.pop()
        g.rollback(checkpoint)
        self.shown = shown
        self.recent = recent
        self.turn_recent = turn_recent
        self.say("undone", "yellow", what=what)
        self.redraw(seat)

    # ------------------------------------------------------------------ hint

    def command_text(self, action: A.Action) -> str:
        n = self.style.name
        if isinstance(action, A.Meld):
            return "m " + " | ".join(" ".join(n(c) for c in m) for m in action.melds)
        if isinstance(action, A.Rearrange):
            return "r " + " | ".join(" ".join(n(c) for c in m) for m in action.melds)
        if isinstance(action, A.LayOff):
            parts = []
            for it in action.items:
                t = f"{n(it.card)} {it.to + 1}"
                if it.as_ is not None:
                    t += f" as {n(it.as_)}"
                parts.append(t)
            return "l " + " | ".join(parts)
        if isinstance(action, A.Swap):
            return "s " + " ".join(n(c) for c in action.cards) + f" {action.meld + 1}"
        return str(action)

    def hint(self, seat: int) -> None:
        from .hint import suggest

        g = self.game
        try:
            plan = suggest(g.view(seat), g.rules)
        except Exception as e:  # the hint is advice: never a reason to stop the game
            self.term.line(Text(f"hint unavailable: {type(e).__name__}: {e}", style="red"))
            return
        m = self.msg
        if "draw" in plan:
            text = (
                m("hint_draw_discard", card=self.style.name(plan["card"]))
                if plan["draw"] == "discard"
                else m("hint_draw_stock")
            )
            self.term.line(Text(m("hint", text=text), style="green"))
            return
        then = ""
        if plan["discard"] is not None:
            then = m(
                "hint_discard", card=self.style.name(plan["discard"]), code=self.style.name(plan["discard"])
            )
        elif plan["end"]:
            then = m("hint_end")
        steps = [self.command_text(a) for a in plan["actions"]]
        if steps:
            text = f", {m('hint_then')} ".join(steps + ([then] if then else []))
            self.term.line(Text(m("hint", text=text), style="green"))
        else:
            self.term.line(Text(m("hint_none", then=then or "-"), style="green"))

    # ------------------------------------------------------------------ round end

    def round_end(self) -> bool:
        g = self.game
        ev = next((e for e in reversed(g.events) if e.kind == "round_over"), None)
        how = ev.data.get("how") if ev else None
        sec = bool(ev.data.get("rami_sec")) if ev else False
        self.term.show(self.narrate())
        viewer = self.humans[0] if self.humans else 0
        self.term.show(self.screen.round_end(g.view(viewer), how, sec))
        if g.state.game_over:
            return True
        if self.humans:
            self.say("continue", "dim")
            line = self.term.read(self.msg("continue_prompt"))
            if line is None or line.strip().lower() in QUIT_WORDS:
                return False
        g.next_round()
        self.last_human = None if self.shared_screen else self.last_human
        self.term.show(self.narrate())
        return True

    # ------------------------------------------------------------------ saving

    def save(self, path: str) -> None:
        from ..savegame import SaveError

        try:
            write_save(self.game, path, self.seats, self.msg.lang)
        except SaveError as e:
            self.say("save_failed", "red", path=visible(path), error=e.reason or str(e))
            return
        self.say("saved", "green", path=visible(path))

    def autosave(self) -> None:
        from ..savegame import SaveError

        if self.save_path:
            try:
                write_save(self.game, self.save_path, self.seats, self.msg.lang)
            except SaveError as e:
                self.say("save_failed", "red", path=visible(self.save_path), error=e.reason or str(e))


def write_save(game: Game, path: str | Path, seats: list[Seat], lang: str) -> None:
    """A saved game (rami_core.savegame's format) that also names who sits where."""
    from ..savegame import save

    save(game, path, extra={"play": {"seats": [s.to_dict() for s in seats], "lang": lang}})


def read_save(path: str | Path) -> tuple[Game, dict[str, Any]]:
    """The game and its seating (empty if the save has none)."""
    from ..savegame import load_with_data

    game, data = load_with_data(path)
    play = data.get("play") if isinstance(data, dict) else None
    return game, play if isinstance(play, dict) else {}
