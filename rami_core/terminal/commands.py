"""What the player types, read into typed commands.

Parsing never touches the game: a command names cards and meld numbers as
typed (melds counted from 1, as on the screen, stored from 0), and the game
loop turns it into one engine action. A line that cannot be read raises
:class:`CommandError` with a message key, and nothing happens. Every command
has a short form and English and French words (``x``, ``discard``,
``défausse``...); cards are read in both notations (rami_core.cards.read_card).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rami_core.cards import Card, CardError
from rami_core.cards.text import parse_input_card


class CommandError(ValueError):
    def __init__(self, key: str, **kw: Any):
        super().__init__(key)
        self.key = key
        self.kw = kw


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True)
class Show:
    """Redraw the screen (Enter)."""


@dataclass(frozen=True)
class Help:
    pass


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Hint:
    pass


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Scores:
    """Show the score sheet."""


@dataclass(frozen=True)
class Save:
    path: str


@dataclass(frozen=True)
class Draw:
    source: str  # "stock" or "discard"


@dataclass(frozen=True)
class Meld:
    melds: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class LayOffItem:
    card: Card
    to: int
    as_: Card | None = None


@dataclass(frozen=True)
class LayOff:
    items: tuple[LayOffItem, ...]


@dataclass(frozen=True)
class Swap:
    cards: tuple[Card, ...]
    meld: int


@dataclass(frozen=True)
class Rearrange:
    """The whole new table, typed out."""

    table: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class Move:
    card: Card
    source: int | None  # None: from the hand
    target: int | None  # None: a new meld


@dataclass(frozen=True)
class Add:
    cards: tuple[Card, ...]
    target: int | None


@dataclass(frozen=True)
class New:
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Split:
    meld: int
    card: Card


@dataclass(frozen=True)
class Join:
    first: int
    second: int


Edit = Move | Add | New | Split | Join


@dataclass(frozen=True)
class EditTable:
    """The table changed by edits, applied in order to the table as it is."""

    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Discard:
    card: Card


@dataclass(frozen=True)
class EndTurn:
    pass


Command = (
    Show | Help | Quit | Hint | Undo | Scores | Save | Draw | Meld | LayOff | Swap | Rearrange | EditTable
) | (Discard | EndTurn)

# --------------------------------------------------------------------------- words

NAMES = {
    "draw": ("d", "draw", "p", "piocher", "pioche"),
    "draw_discard": ("dd",),
    "meld": ("m", "meld", "poser", "pose"),
    "layoff": ("l", "lay", "layoff", "lay-off", "completer", "compléter", "complete", "complète"),
    "swap": ("s", "swap", "echanger", "échanger", "echange", "échange"),
    "rearrange": ("r", "rearrange", "reorganiser", "réorganiser"),
    "discard": ("x", "discard", "defausser", "défausser", "defausse", "défausse", "jeter"),
    "end": ("e", "end", "fin", "finir"),
    "undo": ("u", "undo", "annuler"),
    "hint": ("h", "hint", "conseil"),
    "help": ("?", "help", "aide"),
    "scores": ("sc", "score", "scores", "feuille", "marque"),
    "save": ("save", "enregistrer", "sauver"),
    "quit": ("q", "quit", "exit", "quitter"),
    "show": ("t", "table", "show", "voir"),
}
_KIND = {alias: kind for kind, aliases in NAMES.items() for alias in aliases}
_SIMPLE: dict[str, Command] = {
    "end": EndTurn(),
    "undo": Undo(),
    "hint": Hint(),
    "help": Help(),
    "scores": Scores(),
    "quit": Quit(),
    "show": Show(),
}

EDIT_WORDS = {
    "move": "move",
    "mv": "move",
    "deplacer": "move",
    "déplacer": "move",
    "add": "add",
    "ajouter": "add",
    "new": "new",
    "nouvelle": "new",
    "split": "split",
    "cut": "split",
    "couper": "split",
    "join": "join",
    "joindre": "join",
}
HAND_WORDS = ("h", "hand", "main")
NEW_WORDS = ("new", "+", "nouvelle")
STOCK_WORDS = ("", "stock", "s", "pioche", "p")
DISCARD_WORDS = ("discard", "d", "defausse", "défausse")
_SEPARATORS = re.compile(r"[|/]")


class Parser:
    """Reads lines in one language's card notation (`C` is refused as
    ambiguous in French: see rami_core.cards.read_card)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def cards(self, tokens: list[str]) -> tuple[Card, ...]:
        out = []
        for t in tokens:
            try:
                out.append(parse_input_card(t, self.lang))
            except CardError as e:
                raise CommandError("card", error=e) from None
        return tuple(out)

    def card(self, token: str) -> Card:
        return self.cards([token])[0]

    def parse(self, line: str) -> Command:
        text = line.strip()
        if not text:
            return Show()
        head, _, rest = text.partition(" ")
        word = head.lower()
        rest = rest.strip()
        kind = _KIND.get(word)
        if kind is None:
            raise CommandError("unknown_command", cmd=head)
        if kind in _SIMPLE:
            return _SIMPLE[kind]
        if kind == "draw":
            src = rest.lower()
            if src in STOCK_WORDS:
                return Draw("stock")
            if src in DISCARD_WORDS:
                return Draw("discard")
            raise CommandError("usage", usage="bad_draw_source")
        if kind == "draw_discard":
            return Draw("discard")
        if kind == "meld":
            melds = tuple(m for m in (self.cards(_tokens(part)) for part in _SEPARATORS.split(rest)) if m)
            if not melds:
                raise CommandError("usage", usage="usage_meld")
            return Meld(melds)
        if kind == "layoff":
            if word == "lay" and rest.lower().startswith("off"):
                rest = rest[3:].strip()
            return self.lay_off(rest)
        if kind == "swap":
            toks = _tokens(rest)
            if len(toks) < 2:
                raise CommandError("usage", usage="usage_swap")
            return Swap(self.cards(toks[:-1]), meld_number(toks[-1]))
        if kind == "discard":
            toks = _tokens(rest)
            if len(toks) != 1:
                raise CommandError("usage", usage="usage_discard")
            return Discard(self.card(toks[0]))
        if kind == "rearrange":
            return self.rearrange(rest)
        if not rest:  # save
            raise CommandError("usage", usage="usage_save")
        return Save(rest)

    def lay_off(self, rest: str) -> LayOff:
        items: list[LayOffItem] = []
        for part in _SEPARATORS.split(rest):
            toks = _tokens(part)
            if not toks:
                continue
            as_card = None
            lowered = [t.lower() for t in toks]
            for kw in ("as", "comme"):
                # The keyword comes after a card and a meld number: "AS" in
                # first place is the ace of spades, not the keyword.
                if kw in lowered[2:]:
                    i = lowered.index(kw, 2)
                    if i + 2 != len(toks):
                        raise CommandError("usage", usage="usage_layoff")
                    as_card = self.card(toks[i + 1])
                    toks = toks[:i]
                    break
            if len(toks) < 2:
                raise CommandError("usage", usage="usage_layoff")
            to = meld_number(toks[-1])
            for c in self.cards(toks[:-1]):
                items.append(LayOffItem(c, to, as_card if c.is_joker else None))
        if not items:
            raise CommandError("usage", usage="usage_layoff")
        return LayOff(tuple(items))

    def rearrange(self, rest: str) -> Rearrange | EditTable:
        if not rest:
            raise CommandError("usage", usage="usage_rearrange")
        first = rest.split()[0].lower()
        if first in EDIT_WORDS:
            edits = []
            for part in rest.split(";"):
                toks = _tokens(part)
                if not toks:
                    continue
                op = EDIT_WORDS.get(toks[0].lower())
                if op is None:
                    raise CommandError("usage", usage="usage_rearrange")
                edits.append(self.edit(op, toks[1:]))
            return EditTable(tuple(edits))
        table = []
        for part in _SEPARATORS.split(rest):
            part = re.sub(r"^\s*\d+\s*[:.)]\s*", "", part)  # an optional "1:" label
            cards = self.cards(_tokens(part))
            if cards:
                table.append(cards)
        if not table:
            raise CommandError("usage", usage="usage_rearrange")
        return Rearrange(tuple(table))

    def edit(self, op: str, toks: list[str]) -> Edit:
        if op == "move" and len(toks) == 3:
            src = None if toks[1].lower() in HAND_WORDS else meld_number(toks[1])
            return Move(self.card(toks[0]), src, _target(toks[2]))
        if op == "add" and len(toks) >= 2:
            return Add(self.cards(toks[:-1]), _target(toks[-1]))
        if op == "new" and toks:
            return New(self.cards(toks))
        if op == "split" and len(toks) in (2, 3):  # split 1 5C, or split 1 at 5C
            return Split(meld_number(toks[0]), self.card(toks[-1]))
        if op == "join" and len(toks) == 2:
            return Join(meld_number(toks[0]), meld_number(toks[1]))
        raise CommandError("usage", usage="usage_rearrange")


def parse(line: str, lang: str = "en") -> Command:
    return Parser(lang).parse(line)


def _tokens(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").split() if t]


def meld_number(token: str) -> int:
    """A meld number as typed (from 1) to a table index (from 0)."""
    # ASCII digits only: `²` passes str.isdigit but int() refuses it.
    if not (token.isascii() and token.isdigit()) or len(token) > 6 or int(token) < 1:
        raise CommandError("bad_meld_no", text=token)
    return int(token) - 1


def _target(token: str) -> int | None:
    """A meld number, or None for a new meld."""
    return None if token.lower() in NEW_WORDS else meld_number(token)


def apply_edits(table: list[list[Card]], edits: tuple[Edit, ...] | list[Edit]) -> list[list[Card]]:
    """The new whole table after the edits, in order. Meld numbers keep
    meaning the melds as numbered before the command (new melds are added at
    the end); melds left empty are dropped at the end."""
    work = [list(m) for m in table]

    def meld(i: int) -> list[Card]:
        if not 0 <= i < len(work):
            raise CommandError("no_meld", n=i + 1)
        return work[i]

    def take(m: list[Card], card: Card, i: int) -> Card:
        for k in range(len(m) - 1, -1, -1):
            if m[k].face == card.face:
                return m.pop(k)
        raise CommandError("not_in_meld", n=i + 1, card=card)

    def put(cards: list[Card], target: int | None) -> None:
        if target is None:
            work.append(list(cards))
        else:
            meld(target).extend(cards)

    for e in edits:
        if isinstance(e, Move):
            card = e.card if e.source is None else take(meld(e.source), e.card, e.source)
            put([card], e.target)
        elif isinstance(e, Add):
            put(list(e.cards), e.target)
        elif isinstance(e, New):
            work.append(list(e.cards))
        elif isinstance(e, Split):
            m = meld(e.meld)
            at = next((k for k, c in enumerate(m) if c.face == e.card.face), None)
            if at is None:
                raise CommandError("not_in_meld", n=e.meld + 1, card=e.card)
            if at == 0:
                raise CommandError("cant_split", n=e.meld + 1, card=e.card)
            work[e.meld], tail = m[:at], m[at:]
            work.append(tail)
        elif isinstance(e, Join):
            if e.first == e.second:
                raise CommandError("usage", usage="usage_rearrange")
            meld(e.first).extend(meld(e.second))
            work[e.second] = []
    return [m for m in work if m]
