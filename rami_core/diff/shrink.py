"""Delta debugging: the smallest situation that still shows the difference.

In the spirit of hypothesis's shrinker: a found situation holds many cards
that play no part (a thirteen-card hand, a full stock), and a reader sees the
rule only once they are gone. Each pass tries to remove a chunk of the
situation's parts (halves first, then smaller, down to one card: ddmin's
order), keeps a removal whenever the two referees still part the same way,
and stops when no single removal keeps it. Every candidate is judged by the
engine under both profiles; nothing is assumed about which card matters.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from rami_core.diff.situation import Situation

MAX_TRIALS = 1500  # judged variants per situation: a shrink ends in well under a second


def _parts(sit: Situation) -> list[tuple[str, ...]]:
    """Every removable part, as a path: a card of a hand, the stock, the discard or a table meld; a meld; a move."""
    s = sit.setup
    out: list[tuple[str, ...]] = []
    for i in range(len(sit.steps) - 1):
        out.append(("step", str(i)))
    for i, st in enumerate(sit.steps):
        if len(st.get("meld") or []) > 1:
            out += [("melded", str(i), str(k)) for k in range(len(st["meld"]))]
    for seat in range(1, len(s["hands"])):
        out.append(("seat", str(seat)))
    for i, _ in enumerate(s.get("table") or []):
        out.append(("meld", str(i)))
    for seat, hand in enumerate(s["hands"]):
        out += [("hand", str(seat), str(j)) for j in range(len(hand))]
    out += [("stock", str(j)) for j in range(len(s.get("stock") or []))]
    out += [("discard", str(j)) for j in range(len(s.get("discard") or []))]
    for i, m in enumerate(s.get("table") or []):
        cards = m["cards"] if isinstance(m, dict) else m
        out += [("table", str(i), str(j)) for j in range(len(cards))]
    if s.get("scores") and any(s["scores"]):
        out.append(("scores",))
    return out


def without(sit: Situation, parts: list[tuple[str, ...]]) -> Situation | None:
    """`sit` with these parts removed (seats renumbered, meld numbers kept
    pointing at the same melds), or None where a move would lose its target."""
    setup = copy.deepcopy(sit.setup)
    steps = [copy.deepcopy(dict(st)) for st in sit.steps]
    drop = set(parts)
    table = setup.get("table") or []
    for key, field_ in (("stock", "stock"), ("discard", "discard")):
        setup[field_] = [c for j, c in enumerate(setup.get(key) or []) if (key, str(j)) not in drop]
    gone: dict[int, list[str]] = {}  # the hand cards removed, per seat: out of that seat's melds too
    for seat, h in enumerate(setup["hands"]):
        gone[seat] = [c for j, c in enumerate(h) if ("hand", str(seat), str(j)) in drop]
    setup["hands"] = [
        [c for j, c in enumerate(h) if ("hand", str(seat), str(j)) not in drop]
        for seat, h in enumerate(setup["hands"])
    ]
    for i, st in enumerate(steps):  # a meld of a move dropped with its cards from the hand
        melds = st.get("meld") or []
        dropped = [m for k, m in enumerate(melds) if ("melded", str(i), str(k)) in drop]
        if dropped:
            st["meld"] = [m for k, m in enumerate(melds) if ("melded", str(i), str(k)) not in drop]
            if not st["meld"]:
                return None
            hand = setup["hands"][st["player"]]
            for c in (c for m in dropped for c in m):
                if c in hand:
                    hand.remove(c)
    new_table: list[Any] = []
    renumber: dict[int, int] = {}
    for i, m in enumerate(table):
        if ("meld", str(i)) in drop:
            continue
        cards = m["cards"] if isinstance(m, dict) else m
        kept = [c for j, c in enumerate(cards) if ("table", str(i), str(j)) not in drop]
        renumber[i] = len(new_table)
        new_table.append({**m, "cards": kept} if isinstance(m, dict) else kept)
    setup["table"] = new_table
    if ("scores",) in drop:
        setup.pop("scores", None)
    steps = [st for i, st in enumerate(steps) if ("step", str(i)) not in drop or i == len(steps) - 1]
    for st in steps:
        if not _renumber_melds(st, renumber):
            return None
        if "meld" in st and gone.get(st.get("player", -1)):
            melds = _without_cards(st["meld"], gone[st["player"]])
            if not melds:
                return None
            st["meld"] = melds
    seats = [seat for seat in range(len(setup["hands"])) if ("seat", str(seat)) not in drop]
    if len(seats) != len(setup["hands"]):
        if any(st.get("player") not in seats for st in steps) or setup.get("turn", 0) not in seats:
            return None
        index = {old: new for new, old in enumerate(seats)}
        if len(setup.get("scores") or []) != len(setup["hands"]):
            setup.pop("scores", None)  # a team's scores have no seat to follow (keeps() judges the loss)
        setup["hands"] = [setup["hands"][s] for s in seats]
        for key in ("opened", "scores"):
            if key in setup:
                setup[key] = [setup[key][s] for s in seats]
        for m in setup["table"]:
            if isinstance(m, dict) and m.get("owner") is not None:
                if m["owner"] not in index:
                    m.pop("owner")
                else:
                    m["owner"] = index[m["owner"]]
        if "turn" in setup:
            setup["turn"] = index[setup["turn"]]
        for st in steps:
            st["player"] = index[st["player"]]
    return Situation(setup, tuple(steps))


def _without_cards(melds: list[list[str]], cards: list[str]) -> list[list[str]]:
    """A meld move's melds with these cards (removed from the hand) taken out
    of them, once each; a meld left empty goes. A meld's cards shrink with the
    hand: an opening of seven cards may show the same with four."""
    left = list(cards)
    out = []
    for m in melds:
        kept = []
        for c in m:
            if c in left:
                left.remove(c)
            else:
                kept.append(c)
        if kept:
            out.append(kept)
    return out


def _renumber_melds(step: dict[str, Any], renumber: dict[int, int]) -> bool:
    if "layoff" in step:
        for item in step["layoff"]:
            if item["to"] not in renumber:
                return False
            item["to"] = renumber[item["to"]]
    if "swap" in step:
        if step["swap"]["meld"] not in renumber:
            return False
        step["swap"]["meld"] = renumber[step["swap"]["meld"]]
    return True


def _chunks(items: list[tuple[str, ...]]) -> Iterator[list[tuple[str, ...]]]:
    n = len(items)
    size = max(1, n // 2)
    while True:
        for start in range(0, n, size):
            yield items[start : start + size]
        if size == 1:
            return
        size = max(1, size // 2)


def shrink(sit: Situation, keeps: Callable[[Situation], bool]) -> Situation:
    """The smallest variant of `sit` that `keeps` (the same disagreement) still holds for."""
    trials = 0
    changed = True
    while changed and trials < MAX_TRIALS:
        changed = False
        drawn = drawn_already(sit)
        if drawn is not None:
            trials += 1
            if keeps(drawn):
                sit = drawn
                changed = True
                continue
        for chunk in _chunks(_parts(sit)):
            trials += 1
            if trials >= MAX_TRIALS:
                break
            smaller = without(sit, chunk)
            if smaller is not None and keeps(smaller):
                sit = smaller
                changed = True
                break
    return _tidy(sit)


def drawn_already(sit: Situation) -> Situation | None:
    """A first move that draws from the stock played in the setup instead: the
    card in the hand, the phase `lay`. One move fewer, where the draw is not the point."""
    if len(sit.steps) < 2 or "draw" not in sit.steps[0] or sit.steps[0]["draw"] != "stock":
        return None
    setup = copy.deepcopy(sit.setup)
    stock = setup.get("stock") or []
    if setup.get("phase", "draw") != "draw" or not stock:
        return None
    seat = sit.steps[0]["player"]
    setup["hands"][seat].append(stock.pop(0))
    setup["stock"] = stock
    setup["phase"] = "lay"
    return Situation(setup, sit.steps[1:])


def _tidy(sit: Situation) -> Situation:
    """Empty lists and default keys dropped: the setup as a person would write it."""
    setup = {k: v for k, v in sit.setup.items() if v not in ([], None)}
    if setup.get("phase") == "draw":
        setup.pop("phase")
    if setup.get("turn") == 0:
        setup.pop("turn")
    return Situation(setup, sit.steps)
