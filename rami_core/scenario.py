"""Conformance scenarios (`rami check`): a closed-world setup, then steps.

The format is DESIGN.md's. A scenario fails, never crashes: a bad file, a
setup that breaks the closed world (`setup_invalid`), an action refused
when it should pass, a state that differs from `expect`; each says which
step and what differed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .actions import ActionFormatError, action_from_dict
from .cards import Card, CardError, format_card, parse_card
from .engine import Game
from .errors import ProfileError, RuleError
from .melds import read_meld, why_invalid
from .profile import Profile
from .state import DRAW, LAY, OVER, GameState, TableMeld

EXPECT_KEYS = (
    "error",
    "hands",
    "hand_sizes",
    "table",
    "discard_top",
    "stock_size",
    "opened",
    "turn",
    "phase",
    "round_over",
    "winner",
    "penalties",
    "scores",
    "game_over",
    "game_winner",
)
SETUP_KEYS = ("hands", "stock", "discard", "table", "opened", "turn", "phase", "scores")


class SetupInvalid(Exception):
    pass


@dataclass
class Result:
    name: str
    file: str
    passed: bool
    step: int | None = None
    expected: Any = None
    actual: Any = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "file": self.file,
            "passed": self.passed,
            "step": self.step,
            "expected": self.expected,
            "actual": self.actual,
            "message": self.message,
        }


# ------------------------------------------------------------------ files


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.yaml") if q.is_file()))
            out.extend(sorted(q for q in p.rglob("*.yml") if q.is_file()))
        else:
            out.append(p)
    return out


def load_documents(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    return [d for d in yaml.safe_load_all(text) if d is not None]


def run_file(path: Path, shown: str | None = None) -> list[Result]:
    shown = shown or str(path)
    try:
        docs = load_documents(path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        return [Result(path.name, shown, False, None, None, None, f"cannot read scenario file: {e}")]
    results = []
    for i, doc in enumerate(docs):
        results.append(run_scenario(doc, path.parent, shown, index=i))
    return results


# ------------------------------------------------------------------ one scenario


def run_scenario(doc: Any, base_dir: Path, shown: str, index: int = 0) -> Result:
    if not isinstance(doc, dict):
        return Result(f"document {index + 1}", shown, False, None, None, None, "a scenario is a mapping")
    name = str(doc.get("name") or f"document {index + 1}")
    unknown = set(doc) - {"name", "variant", "rules", "setup", "steps", "description", "players"}
    if unknown:
        return Result(name, shown, False, None, None, None, f"unknown scenario keys: {sorted(unknown)}")
    try:
        profile = _profile(doc, base_dir)
    except ProfileError as e:
        return Result(name, shown, False, None, None, None, f"profile: {e}")
    try:
        game = build_setup(profile, doc.get("setup") or {})
    except SetupInvalid as e:
        return Result(name, shown, False, None, "setup", "setup_invalid", f"setup_invalid: {e}")
    steps = doc.get("steps") or []
    if not isinstance(steps, list):
        return Result(name, shown, False, None, None, None, "steps must be a list")
    for n, step in enumerate(steps, start=1):
        failure = _run_step(game, step)
        if failure is not None:
            expected, actual, message = failure
            return Result(name, shown, False, n, expected, actual, message)
    return Result(name, shown, True)


def _profile(doc: dict, base_dir: Path) -> Profile:
    from .loader import load_profile

    variant = doc.get("variant")
    if not isinstance(variant, str) or not variant:
        raise ProfileError("scenario: `variant` must name a preset or a profile file")
    rules = doc.get("rules") or None
    if rules is not None and not isinstance(rules, dict):
        raise ProfileError("scenario: `rules` must be a mapping")
    return load_profile(variant, base_dir=base_dir, rules=rules)


def _run_step(game: Game, step: Any) -> tuple[Any, Any, str] | None:
    if not isinstance(step, dict):
        return None, None, f"a step is a mapping, got {step!r}"
    expect = step.get("expect") or {}
    if not isinstance(expect, dict):
        return None, None, "expect must be a mapping"
    bad = set(expect) - set(EXPECT_KEYS)
    if bad:
        return None, None, f"unknown expect keys: {sorted(bad)}"
    has_action = any(k != "expect" for k in step)
    if has_action:
        try:
            action = action_from_dict({k: v for k, v in step.items() if k != "expect"})
        except (ActionFormatError, CardError) as e:
            return None, None, f"bad action: {e}"
        before = game.state.to_json()
        want_error = expect.get("error")
        try:
            game.apply(action)
        except RuleError as e:
            if want_error is None:
                return "accepted", e.code, f"refused with {e.code}: {e.message}"
            if e.code != want_error:
                return want_error, e.code, f"refused with {e.code} instead of {want_error}: {e.message}"
            if game.state.to_json() != before:
                return "state unchanged", "state changed", "a refused action changed the state"
            return _compare(game, {k: v for k, v in expect.items() if k != "error"})
        if want_error is not None:
            return want_error, "accepted", f"accepted, expected refusal with {want_error}"
    elif "error" in expect:
        return None, None, "expect.error needs an action in the same step"
    return _compare(game, expect)


# ------------------------------------------------------------------ setup


def _card_list(value: Any, where: str) -> list[Card]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SetupInvalid(f"{where}: expected a list of cards")
    try:
        return [parse_card(x) for x in value]
    except CardError as e:
        raise SetupInvalid(f"{where}: {e}") from None


def build_setup(profile: Profile, setup: dict) -> Game:
    if not isinstance(setup, dict):
        raise SetupInvalid("setup must be a mapping")
    unknown = set(setup) - set(SETUP_KEYS)
    if unknown:
        raise SetupInvalid(f"unknown setup keys: {sorted(unknown)}")
    hands_in = setup.get("hands")
    if not isinstance(hands_in, list) or not hands_in:
        raise SetupInvalid("setup.hands: one list of cards per seat")
    n = len(hands_in)
    if not profile.allows_players(n):
        raise SetupInvalid(f"{profile.name} is not played by {n} players")
    copies: Counter = Counter()

    def physical(face: Card, where: str) -> Card:
        key = face.face
        limit = profile.deck.jokers if face.is_joker else profile.deck.decks
        if copies[key] >= limit:
            raise SetupInvalid(f"{where}: more {format_card(face)} than the deck holds ({limit})")
        c = Card(face.rank, face.suit, copies[key])
        copies[key] += 1
        return c

    hands = [
        [physical(c, f"hands[{i}]") for c in _card_list(h, f"hands[{i}]")] for i, h in enumerate(hands_in)
    ]
    stock_top_first = [physical(c, "stock") for c in _card_list(setup.get("stock"), "stock")]
    discard = [physical(c, "discard") for c in _card_list(setup.get("discard"), "discard")]
    if discard and not profile.discard.enabled:
        raise SetupInvalid("discard: this variant has no discard pile")
    from .melds import MeldRules

    meld_rules = MeldRules.from_profile(profile)
    table: list[TableMeld] = []
    table_in = setup.get("table") or []
    if not isinstance(table_in, list):
        raise SetupInvalid("table: a list of melds")
    for i, m in enumerate(table_in):
        owner = None
        if isinstance(m, dict):
            if set(m) - {"cards", "owner"}:
                raise SetupInvalid(f"table[{i}]: a meld is a card list or {{cards, owner}}")
            owner = m.get("owner")
            if owner is not None and (
                isinstance(owner, bool) or not isinstance(owner, int) or not 0 <= owner < n
            ):
                raise SetupInvalid(f"table[{i}].owner: not a seat: {owner!r}")
            m = m.get("cards")
        cards = [physical(c, f"table[{i}]") for c in _card_list(m, f"table[{i}]")]
        r = read_meld(cards, meld_rules)
        if r is None:
            raise SetupInvalid(f"table[{i}]: " + why_invalid(cards, meld_rules))
        table.append(TableMeld(r, owner))
    owners = {m.owner for m in table if m.owner is not None}
    if not profile.opening.required:
        opened = [True] * n
    else:
        opened = [i in owners for i in range(n)]
    if "opened" in setup:
        o = setup["opened"]
        if not isinstance(o, list) or len(o) != n or not all(isinstance(x, bool) for x in o):
            raise SetupInvalid(f"opened: one true/false per seat ({n})")
        opened = list(o) if profile.opening.required else [True] * n
    teams = profile.teams_at(n)
    sides = 2 if teams else n
    scores = setup.get("scores", [0] * sides)
    if (
        not isinstance(scores, list)
        or len(scores) != sides
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
    ):
        raise SetupInvalid(f"scores: one whole number per {'team' if teams else 'seat'} ({sides})")
    turn = setup.get("turn", 0)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < n:
        raise SetupInvalid(f"turn: not a seat: {turn!r}")
    phase = setup.get("phase", DRAW)
    if phase not in (DRAW, LAY):
        raise SetupInvalid(f"phase: draw or lay, not {phase!r}")
    marked = setup.get("opened") or [False] * n
    laid_before = [i in owners or marked[i] is True for i in range(n)]
    state = GameState(
        players=n,
        hands=hands,
        stock=list(reversed(stock_top_first)),
        discard=discard,
        table=table,
        opened=opened,
        laid_before=laid_before,
        scores=list(scores),
        turn=turn,
        phase=phase,
        first_player=turn,
        seed=0,
    )
    return Game(profile, n, state)


# ------------------------------------------------------------------ expectations


def _faces(cards: Iterable[Card]) -> list[str]:
    return sorted(format_card(c) for c in cards)


def _expected_faces(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of cards, got {value!r}")
    return sorted(format_card(parse_card(x)) for x in value)


def observe(game: Game) -> dict[str, Any]:
    """The state as `expect` keys see it."""
    s = game.state
    n = s.players
    return {
        "hands": {i: _faces(h) for i, h in enumerate(s.hands)},
        "hand_sizes": [len(h) for h in s.hands],
        "table": sorted(_faces(m.cards) for m in s.table),
        "discard_top": format_card(s.discard[-1]) if s.discard else None,
        "stock_size": len(s.stock),
        "opened": list(s.opened),
        "turn": s.turn,
        "phase": s.phase,
        "round_over": s.phase == OVER,
        "winner": s.winner if s.phase == OVER else None,
        "penalties": list(s.penalties) if s.phase == OVER and s.penalties else [0] * n,
        "scores": list(s.scores),
        "game_over": s.game_over,
        "game_winner": s.game_winner if s.game_over else None,
    }


def _compare(game: Game, expect: dict[str, Any]) -> tuple[Any, Any, str] | None:
    actual = observe(game)
    for key, want in expect.items():
        got = actual[key]
        try:
            if key == "hands":
                if not isinstance(want, dict):
                    return want, got, "hands: expected a mapping seat -> cards"
                for seat, cards in want.items():
                    seat_i = int(seat)
                    if seat_i not in got:
                        return want, None, f"hands: no seat {seat}"
                    if _expected_faces(cards) != got[seat_i]:
                        return {seat: cards}, {seat: got[seat_i]}, f"hands[{seat}] differ"
                continue
            if key == "table":
                if not isinstance(want, list):
                    return want, got, "table: expected a list of melds"
                if sorted(_expected_faces(m) for m in want) != got:
                    return want, got, "table differs"
                continue
            if key == "discard_top":
                w = None if want is None else format_card(parse_card(want))
                if w != got:
                    return want, got, "discard_top differs"
                continue
        except (CardError, ValueError) as e:
            return want, got, f"{key}: bad expectation: {e}"
        if want != got:
            return want, got, f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}"
    return None
