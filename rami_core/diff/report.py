"""The report of `rami diff` as lines of text, in the reader's language.

Plain lines, no colour and no table widths that depend on the terminal, so
the output of a seed is the same everywhere and docs/diff.md can show it as
it prints (tests/test_docs.py runs the page's examples).
"""

from __future__ import annotations

from typing import Any

from rami_core.diff.deal import DealDifference
from rami_core.diff.reasons import Reason
from rami_core.diff.report_words import words
from rami_core.diff.search import Found
from rami_core.diff.settings import SettingChange, shown_value
from rami_core.diff.situation import Referee


def setting_value(change: SettingChange, value: object, lang: str) -> str:
    """A value of a change as the report shows it (a plugin: on or off, with its settings)."""
    if change.plugin is not None and change.path.count(".") == 1:
        if value is None:
            return words(lang, "plugin_off")
        return words(lang, "plugin_on") + ("" if value == {} else f" {shown_value(value)}")
    return shown_value(value)


def settings_lines(changes: list[SettingChange], lang: str) -> list[str]:
    if not changes:
        return [words(lang, "no_difference")]
    out = [words(lang, "settings_title", n=len(changes))]
    for c in changes:
        out.append(
            words(lang, "setting", path=c.path, a=setting_value(c, c.a, lang), b=setting_value(c, c.b, lang))
        )
        if c.meaning:
            out.append(words(lang, "meaning", meaning=c.meaning))
    return out


def _cards(cards: list[str]) -> str:
    return " ".join(cards)


def _verdict(ruling_error: object, lang: str, outcome: str = "") -> str:
    from rami_core.words.errors import RuleError
    from rami_core.words.refusals import refusal_words

    if isinstance(ruling_error, RuleError):
        e = ruling_error
        return refusal_words(e.code, e.reason, e.params, lang, str, e.message, e.texts)
    return words(lang, "outcome", what=outcome) if outcome else words(lang, "accepted")


def move_text(step: dict[str, Any]) -> str:
    """A move in the scenario format's flow style, as a scenario file writes it."""
    import yaml

    return yaml.safe_dump(dict(step), default_flow_style=True, sort_keys=False, width=10_000).strip()


def situation_lines(n: int, found: Found, ra: Referee, rb: Referee, lang: str) -> list[str]:
    sit = found.situation
    s = sit.setup
    last = sit.steps[-1]
    kind = next(
        (k for k in ("draw", "meld", "layoff", "swap", "rearrange", "discard", "end_turn") if k in last), ""
    )
    if found.how.kind == "outcome" and ("round_end" in found.how.keys or "penalties" in found.how.keys):
        kind = "end"
    causes = ", ".join(found.causes) if found.causes else words(lang, "several")
    out = [words(lang, "situation", n=n, kind=words(lang, f"kind_{kind}"), settings=causes)]
    hands = "; ".join(words(lang, "seat_hand", seat=i, cards=_cards(h)) for i, h in enumerate(s["hands"]))
    out.append(words(lang, "hands", hands=hands))
    if s.get("table"):
        melds = []
        for m in s["table"]:
            cards = m["cards"] if isinstance(m, dict) else m
            owner = m.get("owner") if isinstance(m, dict) else None
            melds.append(
                f"[{_cards(cards)}]"
                if owner is None
                else words(lang, "meld_owner", cards=_cards(cards), seat=owner)
            )
        out.append(words(lang, "table", melds=" ".join(melds)))
    if s.get("stock") or s.get("discard"):
        out.append(
            words(lang, "piles", stock=_cards(s.get("stock", [])), discard=_cards(s.get("discard", [])))
        )
    opened = ", ".join(words(lang, "yes" if o else "no") for o in s.get("opened", []))
    if opened:
        out.append(words(lang, "opened", opened=opened))
    if s.get("scores"):
        out.append(words(lang, "scores", scores=", ".join(map(str, s["scores"]))))
    out.append(words(lang, "turn", seat=s.get("turn", 0), phase=s.get("phase", "draw")))
    out.append(words(lang, "steps", steps="; ".join(move_text(st) for st in sit.steps)))
    for side, ref in (("A", ra), ("B", rb)):
        out.append(words(lang, "under", side=side, verdict=verdict_line(found, ref, lang)))
    return out


def verdict_line(found: Found, ref: Referee, lang: str) -> str:
    """What `ref` does with the situation's last move: the refusal in words,
    or "accepted" with what differs after it."""
    sit = found.situation
    rulings = ref.rulings(sit)
    assert rulings is not None  # a found situation is one of both profiles
    last = rulings[-1]
    outcome = ""
    if found.how.kind == "outcome" and last.state is not None:
        seen = ref.observed(last.state, sit.players)
        outcome = ", ".join(f"{k} {_shown(seen[k])}" for k in found.how.keys[:4])
    return _verdict(last.error, lang, outcome)


def untouched_lines(reasons: list[tuple[str, Reason]], lang: str) -> list[str]:
    """The settings no situation shows, each with why (:mod:`.reasons`)."""
    from rami_core.words.problems import words as said_words

    out = [words(lang, "untouched_title", n=len(reasons))]
    for path, r in reasons:
        params = dict(r.params)
        key = f"why_{r.code}"
        if r.code == "masked":
            if not params["by"]:
                key = "why_masked_all"
            params["by"] = ", ".join(params["by"])
        if r.code == "unshared":
            params["said"] = said_words(params["said"], lang)
        out.append(words(lang, "untouched", path=path, why=words(lang, key, **params)))
    return out


def deal_lines(deal: DealDifference, seed: int, lang: str) -> list[str]:
    out = []
    if deal.players is not None and deal.rows:
        out.append(words(lang, "deal_title", players=deal.players, seed=seed))
        out += [words(lang, "deal_row", what=w, a=x, b=y) for w, x, y in deal.rows]
    if deal.counts is not None:
        out.append(words(lang, "players_row", a=deal.counts[0], b=deal.counts[1]))
    return out


def games_lines(cmp: dict[str, Any], games: int, players: int, seed: int, lang: str) -> list[str]:
    """rami simulate --compare's paired statistics, one line each (B - A with its 95% interval)."""
    out = [words(lang, "games_title", games=games, players=players, bots="greedy", seed=seed)]
    for key, m in cmp["metrics"].items():
        lo, hi = m["ci95"]
        out.append(
            f"  {key.replace('_', ' ')}: A {_num(m['a'])} / B {_num(m['b'])} / B - A {_num(m['diff'])}"
            f" [{_num(lo)}, {_num(hi)}]"
        )
    return out


def _num(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return shown_value(value)
