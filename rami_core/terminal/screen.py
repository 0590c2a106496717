"""The screen of `rami play`, built from one seat's view and nothing else.

Every part of it (table, piles, the others' counts, scores, the hand and what
may be done now) is read from `Game.view(seat)`: another player's hand is
never shown, except at the end of a round when every hand is laid face up.
"""

from __future__ import annotations

from rich.rule import Rule
from rich.text import Text

from rami_core.cards import sort_key
from rami_core.cards.text import CardStyle
from rami_core.files.userfiles import visible
from rami_core.game.events import EventKind
from rami_core.game.state import DRAW, LAY
from rami_core.game.views import SeatView
from rami_core.players.rules_words import opening_words
from rami_core.profile.model import GameEnd, Profile
from rami_core.profile.rules import Rules
from rami_core.referee.engine import Game
from rami_core.referee.legal import LegalMoves
from rami_core.words.messages import Messages


class Screen:
    def __init__(self, rules: Rules, names: list[str], style: CardStyle, msg: Messages):
        self.rules = rules
        self.profile: Profile = rules.profile
        self.names = names
        self.style = style
        self.msg = msg
        self.colon = " : " if msg.lang == "fr" else ": "

    # ------------------------------------------------------------------ parts

    def rule(self, title: str):
        return Rule(Text(title, style="bold"), characters="-" if self.style.ascii else "─", style="dim")

    def side_name(self, side: int) -> str:
        if not self.rules.teams:
            return self.names[side]
        members = " & ".join(self.names[s] for s in range(self.rules.players) if s % 2 == side)
        return f"{self.msg('team', n=side + 1)} ({members})"

    def scores(self, view: SeatView) -> Text:
        t = Text(f"{self.msg('scores')}{self.colon}", style="bold")
        for i, sc in enumerate(view.scores):
            if i:
                t.append("  ·  " if not self.style.ascii else "  |  ")
            t.append(f"{self.side_name(i)} {sc}")
        end = self.rules.game_end
        if end == GameEnd.single_round:
            t.append(f"   ({self.msg('single_round')})", style="dim")
        elif end == GameEnd.target:
            t.append(f"   ({self.msg('target', target=self.rules.target)})", style="dim")
        return t

    def meld_line(self, i: int, meld) -> Text:
        t = Text(f"  {i + 1:>2}. ")
        r = meld.reading
        for k, c in enumerate(meld.cards):
            if k:
                t.append(" ")
            stands = r.stands[k] if c.is_joker and k < len(r.stands) else None
            t.append_text(self.style.text(c, stands))
        if meld.owner is not None:
            t.append(f"   {self.names[meld.owner]}", style="dim")
        return t

    def table(self, view: SeatView) -> list[Text]:
        if not view.table:
            return [Text(self.msg("table_empty"), style="bold")]
        out = [Text(f"{self.msg('table')}{self.colon.rstrip()}", style="bold")]
        out.extend(self.meld_line(i, m) for i, m in enumerate(view.table))
        return out

    def piles(self, view: SeatView) -> Text:
        t = Text()
        if self.rules.has_discard_pile:
            t.append(f"{self.msg('discard')}{self.colon}", style="bold")
            if view.discard_top is not None:
                t.append_text(self.style.text(view.discard_top))
                t.append(f" ({self._count(len(view.discard))})", style="dim")
            else:
                t.append(self.msg("discard_empty"), style="dim")
            t.append("    ")
        t.append(f"{self.msg('stock')}{self.colon}", style="bold")
        t.append(self._count(view.stock_size))
        return t

    def _count(self, n: int) -> str:
        return self.msg.count("cards", n)

    def others(self, view: SeatView, viewer: int | None) -> Text:
        t = Text(
            f"{self.msg('others') if viewer is not None else self.msg('players')}{self.colon}", style="bold"
        )
        first = True
        for s in range(view.players):
            if s == viewer:
                continue
            if not first:
                t.append("   ")
            first = False
            t.append(f"{self.names[s]} ")
            t.append(self._count(view.hand_sizes[s]))
            if self.rules.has_opening:
                t.append(
                    f" ({self.msg('opened') if view.opened[s] else self.msg('not_opened')})", style="dim"
                )
        return t

    def hand(self, cards, label: str) -> Text:
        t = Text(f"{label}{self.colon}", style="bold")
        cards = sorted(cards, key=sort_key)
        prev = None
        for c in cards:
            if prev is not None:
                t.append("   " if c.suit != prev else " ")
            t.append_text(self.style.text(c))
            prev = c.suit
        return t

    def opening_requirement(self) -> str:
        return opening_words(self.rules.opening, self.rules.keep_last, self.msg)

    def actions_now(self, view: SeatView, opened: bool, legal: LegalMoves) -> list[Text]:
        """What the seat may do now, as the engine offers it (`rami_core.referee.legal`)."""
        m = self.msg
        r = self.rules
        out: list[Text] = []
        if view.phase == DRAW:
            extra = ""
            if legal.may("draw_discard") and view.discard_top is not None:
                extra = m("can_draw_discard", card=self.style.name(view.discard_top))
            out.append(
                Text(
                    m("can_draw", discard=extra) + f"    {m('what_hint')}   {m('what_help')}",
                    style="bold cyan",
                )
            )
        elif view.phase == LAY:
            words = {
                "meld": "what_meld",
                "layoff": "what_layoff",
                "swap": "what_swap",
                "rearrange": "what_rearrange",
                "discard": "what_discard",
                "end_turn": "what_end",
            }
            what = [m(words[k]) for k in legal.allowed() if k in words]
            what += [m("what_undo"), m("what_hint"), m("what_help")]
            out.append(Text(m("can_lay", what=", ".join(what)), style="bold cyan"))
        if view.phase in (DRAW, LAY) and r.has_opening and not opened:
            out.append(Text(m("must_open", req=self.opening_requirement()), style="cyan"))
        if view.jokers_to_replay:
            out.append(
                Text(
                    m("owe_joker", cards=" ".join(self.style.name(c) for c in view.jokers_to_replay)),
                    style="yellow",
                )
            )
        if (
            view.taken_discard is not None
            and r.taken_discard_must_be_laid
            and view.taken_discard in view.hand
        ):
            out.append(Text(m("owe_discard", card=self.style.name(view.taken_discard)), style="yellow"))
        return out

    # ------------------------------------------------------------------ whole screens

    def render(
        self,
        view: SeatView,
        *,
        viewer: int | None,
        show_hand: bool,
        opened: bool = True,
        recent: list[Text] | None = None,
        legal: LegalMoves | None = None,
        scores: bool = True,
    ) -> list:
        """The screen for `viewer` (None: a spectator, no hand shown); `scores`
        false leaves out the game's scores (a puzzle is one turn, not a game)."""
        m = self.msg
        out: list = []
        who = self.names[view.turn]
        title = m("title", variant=visible(self.profile.name), round=view.round_no) + "  -  "
        title += (
            m("your_turn")
            if viewer is not None and view.turn == viewer and self.names[viewer] == m("you")
            else m("turn_of", name=who)
        )
        out.append(self.rule(title))
        if scores:
            out.append(self.scores(view))
        out.extend(self.table(view))
        out.append(self.piles(view))
        out.append(self.others(view, viewer))
        if recent:
            out.append(
                Text(
                    f"{m('since') if viewer is not None else m('recent')}{self.colon.rstrip()}", style="bold"
                )
            )
            out.extend(Text("  ") + line for line in recent)
        if viewer is not None:
            label = (
                m("your_hand", n=len(view.hand))
                if self.names[viewer] == m("you")
                else m("hand_of", name=self.names[viewer], n=len(view.hand))
            )
            if show_hand:
                out.append(self.hand(view.hand, label))
                if view.turn == viewer and legal is not None:
                    out.extend(self.actions_now(view, opened, legal))
            else:
                out.append(Text(f"{label}{self.colon}{m('hand_hidden')}", style="bold"))
        return out

    def round_end(self, view: SeatView, how: str | None, rami_sec: bool, you: int | None = None) -> list:
        """The end of a round: who went out, every hand and what it pays.
        `you`: the seat of the one person at the screen, told as "You"."""
        m = self.msg
        out: list = [self.rule(m("round_over", round=view.round_no))]
        if how == "out" and view.winner is not None:
            sec = m("rami_sec") if rami_sec else ""
            text = (
                m("round_winner_you", sec=sec)
                if view.winner == you
                else m("round_winner", name=self.names[view.winner], sec=sec)
            )
            out.append(Text(text, style="bold green"))
        elif how == "replay":
            out.append(Text(m("round_replay"), style="bold"))
        else:
            out.append(Text(m("round_no_winner"), style="bold"))
        out.extend(self.table(view))
        out.append(Text(f"{m('hands_shown')}{self.colon.rstrip()}", style="bold"))
        hands = view.revealed_hands or ()
        for s, h in enumerate(hands):
            pen = view.penalties[s] if s < len(view.penalties) else 0
            line = (
                self.hand(h, f"  {self.names[s]} ({self._count(len(h))})")
                if h
                else Text(f"  {self.names[s]} ({self._count(0)})", style="bold")
            )
            line.append("   ")
            line.append(m("penalty", n=pen) if pen else m("penalty_zero"), style="yellow" if pen else "green")
            out.append(line)
        out.append(self.scores(view))
        if view.game_over:
            out.append(self.rule(m("game_over")))
            if view.game_winner is None:
                out.append(Text(m("game_tie"), style="bold"))
            else:
                text = (
                    m("game_winner_you")
                    if not self.rules.teams and view.game_winner == you
                    else m("game_winner", name=self.side_name(view.game_winner))
                )
                out.append(Text(text, style="bold green"))
        return out

    def score_sheet(self, game: Game) -> list:
        """Rounds by players (or teams): what each round brought, the totals and the target."""
        m = self.msg
        sides = len(game.state.scores)
        heads = [self.side_name(i) for i in range(sides)]
        rows: list[tuple[str, list[int]]] = []
        last = [0] * sides
        for e in game.events:
            if e.kind == EventKind.ROUND_OVER:
                scores = list(e.data["scores"])
                rows.append((str(len(rows) + 1), [a - b for a, b in zip(scores, last, strict=False)]))
                last = scores
        end = self.rules.game_end
        title = m("score_sheet")
        if end == GameEnd.target:
            title += f" ({m('sheet_target', target=self.rules.target)})"
        elif end == GameEnd.single_round:
            title += f" ({m('sheet_single')})"
        first = max(len(m("sheet_round")), len(m("sheet_total")))
        widths = [max(len(h), 5) for h in heads]

        def line(label: str, values: list[str], style: str = "") -> Text:
            cells = [f"{label:<{first}}"] + [f"{v:>{w}}" for v, w in zip(values, widths, strict=False)]
            return Text("  ".join(cells), style=style)

        out: list = [Text(title, style="bold"), line(m("sheet_round"), heads, "bold")]
        out.extend(line(n, [str(v) for v in vals]) for n, vals in rows)
        out.append(line(m("sheet_total"), [str(v) for v in game.state.scores], "bold"))
        return out
