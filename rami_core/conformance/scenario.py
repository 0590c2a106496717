"""Conformance scenarios (`rami check`): a closed-world setup, then steps.

The format (docs/scenarios.md) is closed: a scenario file is read by the same
safe reader as a profile (size, alias, nesting and integer limits, plain tags
only); an unknown key anywhere is an error naming it, with the nearest known
key suggested; a step is `player` with one action and an optional `expect`, or
`expect` alone; comparisons are exact in type (`false` is not `0`). A scenario
that checks nothing (no step with an `expect`) fails: a scenario is a claim
about the rules, and a claim with nothing to check must not count as a pass.

A scenario fails, never crashes: a bad file, a setup that breaks the closed
world (`setup_invalid`), an action refused when it should pass, a state that
differs from `expect`, a plugin that fails, or any other error inside it; each
says which step and what went wrong, and the run goes on with the next one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami_core.cards import CardError, format_card, parse_card
from rami_core.files.userfiles import cut, short
from rami_core.game import actions as A
from rami_core.game.actions import ACTION_KEYS, ActionFormatError, action_from_dict
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.profile.hooks import PluginError
from rami_core.profile.model import Profile
from rami_core.referee.caps import TURN_CAP, round_capped
from rami_core.referee.gates import STOCK
from rami_core.referee.position import (
    CAPPED,
    ROUND_ENDS,
    SetupGame,
    SetupInvalid,
    card_list,
    closed_setup_state,
    is_int,
    observe,
    start,
    unknown_key,
)
from rami_core.words.errors import Located, Problem, ProfileError, Refused, RuleError
from rami_core.words.problems import Said, said, words

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
    "game_loser",
    "round",
    "round_end",
    "rami_sec",
    "dealer",
    "first_player",
    "discard_size",
    "turns",
)
MAX_SCENARIOS_PER_FILE = 1000  # a file is read whole: many scenarios go in several files
# The next round's table, given whole: its number, first player and scores follow from the game.
NEXT_ROUND_KEYS = ("hands", "stock", "discard", "table", "opened", "turn", "phase", "reshuffle")
# Given in a next round's setup, these are checked against what the game gives, never set.
NEXT_ROUND_CHECKED = ("round", "first_player", "scores")
SCENARIO_KEYS = (
    "name",
    "description",
    "variant",
    "rules",
    "players",
    "seed",
    "turn_cap",
    "setup",
    "steps",
)
ROUND_STEPS = ("next_round", "play_out")  # steps no seat takes
STEP_KEYS = ("player", *ACTION_KEYS, *ROUND_STEPS, "expect")


@dataclass
class Result:
    name: str
    file: str
    passed: bool
    step: int | None = None
    expected: Any = None
    actual: Any = None
    message: str = ""  # a Said: English as text, words(lang) in any language
    line: int | None = None  # where in the file the failure was written (the step, the setup)

    def words(self, lang: str = "en") -> str:
        """The message in `lang`."""
        return words(self.message, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        message = said(self.message) if self.message else None
        return {
            "name": self.name,
            "file": self.file,
            "passed": self.passed,
            "step": self.step,
            "line": self.line,
            "expected": self.expected,
            "actual": self.actual,
            "message": self.words(lang),
            "code": message.code if message is not None else None,
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
    """The documents of a scenario file, read by the safe reader; ProfileError if unreadable."""
    return [doc.data for doc in _located_documents(path)]


def _located_documents(path: Path) -> list[Any]:
    from rami_core.profile.loader.safe_yaml import display_path, load_yaml_documents, read_yaml_text

    label = display_path(path)
    docs = [d for d in load_yaml_documents(read_yaml_text(path, label), label) if d.data is not None]
    if len(docs) > MAX_SCENARIOS_PER_FILE:
        raise ProfileError(
            Problem(label, None, None, "", Said("scenarios_too_many", limit=MAX_SCENARIOS_PER_FILE))
        )
    return docs


def run_file(path: Path, shown: str | None = None) -> list[Result]:
    """Every scenario of one file; a scenario that raises fails alone and the next one runs."""
    shown = shown or str(path)
    try:
        docs = _located_documents(path)
    except ProfileError as e:
        message = Said("scenario_unreadable", detail=Located(e))
        return [Result(path.name, shown, False, None, None, None, message, line=_first_line(e))]
    if not docs:
        return [Result(path.name, shown, False, None, None, None, Said("scenario_empty_file"))]
    results = []
    for i, doc in enumerate(docs):
        result = run_guarded(doc.data, path.parent, shown, index=i)
        results.append(_with_line(result, doc.locations))
    return results


def _first_line(e: ProfileError) -> int | None:
    return next((p.line for p in e.problems if p.line is not None), None)


def _with_line(result: Result, locations: dict[tuple[Any, ...], Any]) -> Result:
    """A failure located at the line it was written on: a failing step's,
    else the setup's for a setup refused, else the scenario's first line."""
    if result.passed:
        return result
    if result.step is not None:
        at = locations.get(("steps", result.step - 1))
        if at is not None and at.line is not None:
            result.line = at.line
        return result
    code = getattr(result.message, "code", None)
    paths: list[tuple[Any, ...]] = [("setup",)] if result.actual == "setup_invalid" else []
    if code == "scenario_profile":
        paths = [("rules",), ("variant",)]
    for path in [*paths, ()]:
        at = locations.get(path)
        if at is not None and at.line is not None:
            result.line = at.line
            break
    return result


def run_guarded(doc: Any, base_dir: Path, shown: str, index: int = 0) -> Result:
    """:func:`run_scenario`, with any error turned into that scenario's failure."""
    name = f"document {index + 1}"
    if isinstance(doc, dict) and isinstance(doc.get("name"), str):
        name = doc["name"]
    try:
        return run_scenario(doc, base_dir, shown, index=index)
    except PluginError as e:
        return Result(name, shown, False, None, None, None, e.said)
    except Exception as e:  # the run goes on: one broken scenario must not hide the others
        error = Said("text", text=f"{type(e).__name__}: {cut(str(e), 200)}")
        return Result(name, shown, False, None, None, None, Said("scenario_internal_error", error=error))


# ------------------------------------------------------------------ one scenario


def run_scenario(doc: Any, base_dir: Path, shown: str, index: int = 0) -> Result:
    if not isinstance(doc, dict):
        return Result(f"document {index + 1}", shown, False, None, None, None, Said("scenario_not_mapping"))
    name = doc.get("name")
    name = name if isinstance(name, str) and name else f"document {index + 1}"
    unknown = unknown_key(doc, SCENARIO_KEYS, "scenario")
    if unknown:
        return Result(name, shown, False, None, None, None, unknown)
    steps = doc.get("steps")
    if steps is None:
        steps = []
    if not isinstance(steps, list):
        return Result(name, shown, False, None, None, None, Said("scenario_steps_not_list"))
    for n, step in enumerate(steps, start=1):
        problem = _step_problem(step)
        if problem is not None:
            return Result(name, shown, False, n, None, None, problem)
    if not any(isinstance(step, dict) and step.get("expect") for step in steps):
        return Result(name, shown, False, None, None, None, Said("scenario_checks_nothing"))
    problem = _top_problem(doc)
    if problem is not None:
        return Result(name, shown, False, None, None, None, problem)
    try:
        profile = _profile(doc, base_dir)
    except ProfileError as e:
        message = Said("scenario_profile", detail=Located(e))
        return Result(name, shown, False, None, None, None, message)
    try:
        table = start(profile, doc.get("setup") or {}, seed=doc.get("seed"), players=doc.get("players"))
    except SetupInvalid as e:
        message = Said("scenario_setup_invalid", detail=e.said)
        return Result(name, shown, False, None, "setup", "setup_invalid", message)
    table.turn_cap = doc.get("turn_cap", TURN_CAP)
    for n, step in enumerate(steps, start=1):
        try:
            failure = _run_step(table, step)
        except PluginError as e:
            return Result(name, shown, False, n, None, None, e.said)
        except SetupInvalid as e:
            message = Said("scenario_next_round_setup_invalid", detail=e.said)
            return Result(name, shown, False, n, "setup", "setup_invalid", message)
        if failure is not None:
            expected, actual, message = failure
            return Result(name, shown, False, n, expected, actual, message)
    return Result(name, shown, True)


MAX_TURN_CAP = 10_000  # a scenario's turn cap: play_out steps are bounded by it


def _top_problem(doc: dict[str, Any]) -> Said | None:
    """What is wrong with the scenario's own keys (`seed`, `players`, `turn_cap`)."""
    seed = doc.get("seed")
    if seed is not None and not is_int(seed):
        return Said("scenario_whole_number", where="seed", value=short(seed))
    players = doc.get("players")
    setup = doc.get("setup") or {}
    seeded = isinstance(setup, dict) and "hands" not in setup
    if seeded:
        seed = setup.get("seed", seed)
        players = setup.get("players", players)
    if seeded and seed is not None and not (is_int(players) and players >= 1):
        return Said("scenario_seeded_players")
    cap = doc.get("turn_cap", TURN_CAP)
    if not is_int(cap) or not 1 <= cap <= MAX_TURN_CAP:
        return Said("scenario_number_range", where="turn_cap", min=1, max=MAX_TURN_CAP, value=short(cap))
    return None


def _step_problem(step: Any) -> Said | None:
    """What makes a step malformed, before anything runs: a closed set of keys,
    `player` with exactly one action, or `expect` alone; a well-typed `expect`."""
    if not isinstance(step, dict):
        return Said("scenario_step_not_mapping", value=short(step))
    unknown = unknown_key(step, STEP_KEYS, "step")
    if unknown:
        return unknown
    actions = [k for k in ACTION_KEYS if k in step]
    rounds = [k for k in ROUND_STEPS if k in step]
    if len(actions) + len(rounds) > 1:
        return Said("scenario_step_actions", actions=", ".join(actions + rounds))
    if rounds:
        if "player" in step:
            return Said("scenario_round_step_player", step=rounds[0])
        problem = _round_step_problem(rounds[0], step[rounds[0]])
        if problem is not None:
            return Said("at", where=rounds[0], detail=problem)
    if actions and "player" not in step:
        return Said("scenario_action_needs_player", action=actions[0])
    if "player" in step and not actions:
        return Said("scenario_player_without_action")
    if not actions and not rounds and "expect" not in step:
        return Said("scenario_empty_step")
    expect = step.get("expect")
    if "expect" in step and not isinstance(expect, dict):
        return Said("scenario_expect_not_mapping")
    if expect:
        unknown = unknown_key(expect, EXPECT_KEYS, "expect")
        if unknown:
            return unknown
        if "error" in expect and not actions and "next_round" not in step:
            return Said("scenario_expect_error_no_action")
        for key, want in expect.items():
            if isinstance(want, dict) and not want:
                return Said("scenario_expect_empty_mapping", key=key)
            problem = _expect_type_problem(key, want)
            if problem is not None:
                return Said("at", where=f"expect.{key}", detail=problem)
    return None


def _round_step_problem(key: str, value: Any) -> Said | None:
    """A `next_round` is `true` or the round's setup; a `play_out` is `true` or `{turns: N}`."""
    if value is True:
        return None
    if key == "next_round":
        if not isinstance(value, dict):
            return Said("scenario_next_round_value", value=short(value))
        if set(value) == {"setup"}:
            value = value["setup"]
            if not isinstance(value, dict):
                return Said("at", where="setup", detail=Said("scenario_mapping_expected", value=short(value)))
        return unknown_key(value, NEXT_ROUND_KEYS + NEXT_ROUND_CHECKED, "setup")
    if not isinstance(value, dict):
        return Said("scenario_play_out_value", value=short(value))
    unknown = unknown_key(value, ("turns",), "play_out")
    if unknown:
        return unknown
    turns = value.get("turns")
    if not is_int(turns) or not 1 <= turns <= MAX_TURN_CAP:
        return Said("scenario_number_range", where="turns", min=1, max=MAX_TURN_CAP, value=short(turns))
    return None


def _int_list(x: Any) -> bool:
    return isinstance(x, list) and all(is_int(v) for v in x)


def _card_texts(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(v, str) for v in x)


def _expect_type_problem(key: str, want: Any) -> Said | None:
    """Why an expected value has the wrong type for its key, or None (exact types: a bool is no seat)."""
    if key in ("turn", "stock_size", "round", "dealer", "first_player", "discard_size", "turns"):
        ok = is_int(want)
        kind = Said("kind_whole_number")
    elif key == "round_end":
        names = (*ROUND_ENDS.values(), CAPPED)
        ok = want is None or want in names
        kind = Said("kind_one_of_or_null", names=", ".join(names))
    elif key == "rami_sec":
        ok = isinstance(want, bool)
        kind = Said("kind_bool")
    elif key in ("winner", "game_winner", "game_loser"):
        ok = want is None or is_int(want)
        kind = Said("kind_seat_or_null")
    elif key in ("hand_sizes", "penalties", "scores"):
        ok = _int_list(want)
        kind = Said("kind_int_list")
    elif key == "opened":
        ok = isinstance(want, list) and all(isinstance(v, bool) for v in want)
        kind = Said("kind_bool_list")
    elif key in ("round_over", "game_over"):
        ok = isinstance(want, bool)
        kind = Said("kind_bool")
    elif key == "phase":
        ok = want in (DRAW, LAY, OVER)
        kind = Said("kind_one_of", names=f"{DRAW}, {LAY}, {OVER}")
    elif key in ("error",):
        ok = (isinstance(want, str) and bool(want)) or (
            isinstance(want, list) and bool(want) and all(isinstance(w, str) and w for w in want)
        )
        kind = Said("kind_error_code")
    elif key == "discard_top":
        ok = want is None or isinstance(want, str)
        kind = Said("kind_card_or_null")
    elif key == "table":
        ok = isinstance(want, list) and all(_card_texts(m) for m in want)
        kind = Said("kind_melds")
    elif key == "hands":
        if not isinstance(want, dict):
            return Said("scenario_hands_mapping")
        for seat, cards in want.items():
            if not is_int(seat):
                return Said("scenario_not_seat_number", seat=short(seat))
            if not _card_texts(cards):
                return Said("scenario_seat_cards", seat=seat)
        return None
    else:  # pragma: no cover - EXPECT_KEYS are all handled above
        return None
    return None if ok else Said("scenario_expected", kind=kind, value=short(want))


def _profile(doc: dict, base_dir: Path) -> Profile:
    from rami_core.profile.loader import load_profile

    variant = doc.get("variant")
    if not isinstance(variant, str) or not variant:
        raise ProfileError(Problem("scenario", None, None, "variant", Said("scenario_variant")))
    rules = doc.get("rules") or None
    if rules is not None and not isinstance(rules, dict):
        raise ProfileError(Problem("scenario", None, None, "rules", Said("scenario_rules")))
    return load_profile(variant, base_dir=base_dir, rules=rules)


def _error_codes(want: Any) -> tuple[str, ...]:
    """An expected refusal: one code, or the several a club's text allows (any of them passes)."""
    return tuple(want) if isinstance(want, list) else (want,)


def _shown(want: Any) -> str:
    return " or ".join(_error_codes(want))


def _run_step(table: SetupGame, step: dict[str, Any]) -> tuple[Any, Any, Said] | None:
    """Run one step already checked by :func:`_step_problem`."""
    game = table.game
    expect = step.get("expect") or {}
    if "next_round" in step:
        failure = _next_round(table, step["next_round"], expect)
        return (
            failure
            if failure is not None
            else _compare(table, {k: v for k, v in expect.items() if k != "error"})
        )
    if "play_out" in step:
        spec = step["play_out"]
        failure = _play_out(table, table.turn_cap if spec is True else spec["turns"])
        return failure if failure is not None else _compare(table, expect)
    has_action = any(k in step for k in ACTION_KEYS)
    if has_action:
        try:
            action = action_from_dict({k: v for k, v in step.items() if k != "expect"})
        except ActionFormatError as e:
            return None, None, Said("scenario_bad_action", detail=e.said)
        except CardError as e:
            return None, None, Said("scenario_bad_action", detail=e.said)
        before = game.state.to_json()
        want_error = expect.get("error")
        try:
            game.apply(action)
        except RuleError as e:
            if want_error is None:
                return "accepted", e.code, Said("scenario_refused", error_code=e.code, refusal=Refused(e))
            if e.code not in _error_codes(want_error):
                message = Said(
                    "scenario_refused_instead", error_code=e.code, want=_shown(want_error), refusal=Refused(e)
                )
                return _shown(want_error), e.code, message
            if game.state.to_json() != before:
                return "state unchanged", "state changed", Said("scenario_refused_changed")
            return _compare(table, {k: v for k, v in expect.items() if k != "error"})
        if want_error is not None:
            return (
                _shown(want_error),
                "accepted",
                Said("scenario_accepted_not_refused", want=_shown(want_error)),
            )
    return _compare(table, expect)


def _next_round(table: SetupGame, spec: Any, expect: dict[str, Any]) -> tuple[Any, Any, Said] | None:
    """Deal the next round: from the game's seed, or the table `spec` gives whole.
    Its number, first player and scores follow from the game (the engine's
    :meth:`Game.next_deal`), never from the scenario."""
    game = table.game
    want_error = expect.get("error")
    try:
        round_no, first, _attempt = game.next_deal()
    except RuleError as e:
        if want_error is None:
            return "next round", e.code, Said("scenario_no_next_round", refusal=Refused(e))
        if e.code not in _error_codes(want_error):
            message = Said(
                "scenario_refused_instead", error_code=e.code, want=_shown(want_error), refusal=Refused(e)
            )
            return _shown(want_error), e.code, message
        return None
    if want_error is not None:
        return _shown(want_error), "accepted", Said("scenario_next_round_dealt", want=_shown(want_error))
    table.reshuffle.order = None  # a named reshuffle belongs to the round it was given for
    spec = spec if isinstance(spec, dict) else {}
    if set(spec) == {"setup"}:
        spec = spec["setup"]  # `next_round: {setup: {...}}` is the same as the setup written inline
    s = game.state
    given = {"round": round_no, "first_player": first, "scores": list(s.scores)}
    for key, value in given.items():
        if key in spec and not same(spec[key], value):
            raise SetupInvalid(
                Said(
                    "scenario_next_round_given", key=key, given=json.dumps(value), said=json.dumps(spec[key])
                )
            )
    if "hands" not in spec:
        game.next_round()
    else:
        dealt = closed_setup_state(
            game.rules, spec, round_no=round_no, first=first, scores=list(s.scores), seed=s.seed
        )
        game.next_round(dealt)
    if "reshuffle" in spec:
        table.reshuffle.order = card_list(spec["reshuffle"], "reshuffle")
    return None


def _play_out(table: SetupGame, turns: int) -> tuple[Any, Any, Said] | None:
    """Plain turns until the round ends, `turns` have been played, or the turn
    cap is reached: the seat to play draws from the stock, then discards the
    card drawn (where a discard is refused, the last card of its hand that is
    accepted) or, where the variant has no discard, ends its turn."""
    game = table.game
    for _ in range(turns):
        s = game.state
        if s.phase == OVER or round_capped(s, table.turn_cap):
            return None
        seat = s.turn
        try:
            if s.phase == DRAW:
                game.apply(A.Draw(seat, STOCK))
            if game.state.phase == OVER:
                return None
            if not game.rules.ends_with_discard:
                game.apply(A.EndTurn(seat))
                continue
            for card in reversed(game.state.hands[seat]):
                try:
                    game.apply(A.Discard(seat, card))
                    break
                except RuleError:
                    continue
            else:
                return "a discard", "none accepted", Said("scenario_play_out_no_discard", seat=seat)
        except RuleError as e:
            return (
                "accepted",
                e.code,
                Said("scenario_play_out_refused", seat=seat, error_code=e.code, refusal=Refused(e)),
            )
    return None


# ------------------------------------------------------------------ setup


# ------------------------------------------------------------------ expectations


def _expected_faces(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(Said("scenario_cards_expected", value=short(value)))
    return sorted(format_card(parse_card(x)) for x in value)


def same(want: Any, got: Any) -> bool:
    """Equal in value and in type, all the way down: `false` is not `0`, `1.0` is not `1`."""
    if type(want) is not type(got):
        return False
    if isinstance(want, list):
        return len(want) == len(got) and all(same(w, g) for w, g in zip(want, got, strict=True))
    if isinstance(want, dict):
        return want.keys() == got.keys() and all(same(v, got[k]) for k, v in want.items())
    return bool(want == got)


def _compare(table: SetupGame, expect: dict[str, Any]) -> tuple[Any, Any, Said] | None:
    if not expect:
        return None
    actual = observe(table.game, table.turn_cap)
    for key, want in expect.items():
        got = actual[key]
        try:
            if key == "hands":
                for seat, cards in want.items():
                    if seat not in got:
                        return want, None, Said("scenario_hands_no_seat", seat=seat)
                    if _expected_faces(cards) != got[seat]:
                        return {seat: cards}, {seat: got[seat]}, Said("scenario_hands_differ", seat=seat)
                continue
            if key == "table":
                if sorted(_expected_faces(m) for m in want) != got:
                    return want, got, Said("scenario_table_differs")
                continue
            if key == "discard_top":
                w = None if want is None else format_card(parse_card(want))
                if w != got:
                    return want, got, Said("scenario_discard_top_differs")
                continue
        except CardError as e:
            return want, got, Said("scenario_bad_expectation", key=key, detail=e.said)
        except ValueError as e:
            detail = (
                e.args[0] if e.args and isinstance(e.args[0], Said) else Said("text", text=cut(str(e), 200))
            )
            return want, got, Said("scenario_bad_expectation", key=key, detail=detail)
        if not same(want, got):
            return want, got, Said("scenario_differs", key=key, want=json.dumps(want), got=json.dumps(got))
    return None
