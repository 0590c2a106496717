"""What the player types, read into commands.

Parsing never touches the game: a command names cards and meld numbers as
typed (melds counted from 1, as on the screen), and the game loop turns it
into one engine action. A line that cannot be read raises
:class:`CommandError` with a message key, and nothing happens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, CardError
from .cards import parse_input_card


class CommandError(ValueError):
    def __init__(self, key: str, **kw: Any):
        super().__init__(key)
        self.key = key
        self.kw = kw


@dataclass
class Command:
    kind: str
    args: dict[str, Any] = field(default_factory=dict)


NAMES = {
    "draw": ("d", "draw", "p", "piocher", "pioche"),
    "draw_discard": ("dd",),
    "meld": ("m", "meld", "poser", "pose"),
    "layoff": ("l", "lay", "layoff", "lay-off", "completer", "compléter"),
    "swap": ("s", "swap", "echanger", "échanger"),
    "rearrange": ("r", "rearrange", "reorganiser", "réorganiser"),
    "discard": ("x", "discard", "defausser", "défausser", "jeter"),
    "end": ("e", "end", "fin", "finir"),
    "undo": ("u", "undo", "annuler"),
    "hint": ("h", "hint", "conseil"),
    "help": ("?", "help", "aide"),
    "save": ("save", "enregistrer", "sauver"),
    "quit": ("q", "quit", "exit", "quitter"),
    "show": ("t", "table", "show", "voir"),
}
_KIND = {alias: kind for kind, aliases in NAMES.items() for alias in aliases}

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
_SEPARATORS = re.compile(r"[|/]")


def _cards(tokens: list[str]) -> list[Card]:
    out = []
    for t in tokens:
        try:
            out.append(parse_input_card(t))
        except CardError as e:
            raise CommandError("bad_card", detail=str(e)) from None
    return out


def _tokens(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").split() if t]


def meld_number(token: str) -> int:
    """A meld number as typed (from 1) to a table index (from 0)."""
    # ASCII digits only: `²` passes str.isdigit but int() refuses it.
    if not (token.isascii() and token.isdigit()) or len(token) > 6 or int(token) < 1:
        raise CommandError("bad_meld_no", text=token)
    return int(token) - 1


def parse(line: str) -> Command:
    text = line.strip()
    if not text:
        return Command("show")
    head, _, rest = text.partition(" ")
    word = head.lower()
    rest = rest.strip()
    kind = _KIND.get(word)
    if kind is None:
        raise CommandError("unknown_command", cmd=head)
    if kind == "draw":
        src = rest.lower()
        if src in ("", "stock", "s", "pioche", "p"):
            return Command("draw", {"source": "stock"})
        if src in ("discard", "d", "defausse", "défausse"):
            return Command("draw", {"source": "discard"})
        raise CommandError("usage", usage="bad_draw_source")
    if kind == "draw_discard":
        return Command("draw", {"source": "discard"})
    if kind == "meld":
        melds = [_cards(_tokens(part)) for part in _SEPARATORS.split(rest)]
        melds = [m for m in melds if m]
        if not melds:
            raise CommandError("usage", usage="usage_meld")
        return Command("meld", {"melds": melds})
    if kind == "layoff":
        if word == "lay" and rest.lower().startswith("off"):
            rest = rest[3:].strip()
        items = []
        for part in _SEPARATORS.split(rest):
            toks = _tokens(part)
            if not toks:
                continue
            as_card = None
            lowered = [t.lower() for t in toks]
            for kw in ("as", "comme"):
                if kw in lowered:
                    i = lowered.index(kw)
                    if i + 2 != len(toks):
                        raise CommandError("usage", usage="usage_layoff")
                    as_card = _cards([toks[i + 1]])[0]
                    toks = toks[:i]
                    break
            if len(toks) < 2:
                raise CommandError("usage", usage="usage_layoff")
            to = meld_number(toks[-1])
            for c in _cards(toks[:-1]):
                items.append((c, to, as_card if c.is_joker else None))
        if not items:
            raise CommandError("usage", usage="usage_layoff")
        return Command("layoff", {"items": items})
    if kind == "swap":
        toks = _tokens(rest)
        if len(toks) < 2:
            raise CommandError("usage", usage="usage_swap")
        return Command("swap", {"cards": _cards(toks[:-1]), "meld": meld_number(toks[-1])})
    if kind == "discard":
        toks = _tokens(rest)
        if len(toks) != 1:
            raise CommandError("usage", usage="usage_discard")
        return Command("discard", {"card": _cards(toks)[0]})
    if kind == "rearrange":
        return _rearrange(rest)
    if kind == "save":
        if not rest:
            raise CommandError("usage", usage="usage_save")
        return Command("save", {"path": rest})
    return Command(kind)


def _rearrange(rest: str) -> Command:
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
            edits.append(_edit(op, toks[1:]))
        return Command("rearrange_edits", {"edits": edits})
    table = []
    for part in _SEPARATORS.split(rest):
        part = re.sub(r"^\s*\d+\s*[:.)]\s*", "", part)  # an optional "1:" label
        cards = _cards(_tokens(part))
        if cards:
            table.append(cards)
    if not table:
        raise CommandError("usage", usage="usage_rearrange")
    return Command("rearrange", {"table": table})


def _target(token: str) -> int | None:
    """A meld number, or None for a new meld."""
    return None if token.lower() in NEW_WORDS else meld_number(token)


def _edit(op: str, toks: list[str]) -> tuple:
    if op == "move" and len(toks) == 3:
        src = None if toks[1].lower() in HAND_WORDS else meld_number(toks[1])
        return ("move", _cards([toks[0]])[0], src, _target(toks[2]))
    if op == "add" and len(toks) >= 2:
        return ("add", _cards(toks[:-1]), _target(toks[-1]))
    if op == "new" and toks:
        return ("new", _cards(toks))
    if op == "split" and len(toks) in (2, 3):  # split 1 5C, or split 1 at 5C
        return ("split", meld_number(toks[0]), _cards([toks[-1]])[0])
    if op == "join" and len(toks) == 2:
        return ("join", meld_number(toks[0]), meld_number(toks[1]))
    raise CommandError("usage", usage="usage_rearrange")


def apply_edits(table: list[list[Card]], edits: list[tuple]) -> list[list[Card]]:
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
        op = e[0]
        if op == "move":
            _, card, src, dst = e
            if src is not None:
                card = take(meld(src), card, src)
            put([card], dst)
        elif op == "add":
            put(list(e[1]), e[2])
        elif op == "new":
            work.append(list(e[1]))
        elif op == "split":
            _, i, card = e
            m = meld(i)
            at = next((k for k, c in enumerate(m) if c.face == card.face), None)
            if at is None:
                raise CommandError("not_in_meld", n=i + 1, card=card)
            if at == 0:
                raise CommandError("cant_split", n=i + 1, card=card)
            work[i], tail = m[:at], m[at:]
            work.append(tail)
        elif op == "join":
            _, a, b = e
            if a == b:
                raise CommandError("usage", usage="usage_rearrange")
            meld(a).extend(meld(b))
            work[b] = []
    return [m for m in work if m]
