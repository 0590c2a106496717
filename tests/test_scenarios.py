"""Every conformance scenario under tests/scenarios/ as its own test.

Each YAML document of each scenario file is one parametrized test, with the
id "relative/file.yaml::scenario name". A failure shows the runner's message,
the failing step and the expected and actual values, as `rami check` would.

A few rules can only be proved by a setup the engine must reject
(`setup_invalid`: a player count, a card beyond the deck, a discard pile where
the variant has none...). A scenario cannot expect that of itself (the runner
reports a refused setup as a failure), so those cases are written below as
small inline scenarios that must fail with `setup_invalid`, next to the same
setup made valid, which must pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rami_core.conformance.scenario import load_documents, run_scenario
from rami_core.words.errors import ProfileError

SCENARIOS = Path(__file__).parent / "scenarios"


def _collect() -> list[Any]:
    params = []
    files = sorted(p for p in SCENARIOS.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    for path in files:
        rel = path.relative_to(SCENARIOS).as_posix()
        try:
            docs = load_documents(path)
        except ProfileError as e:
            params.append(pytest.param(path, None, 0, str(e), id=f"{rel}::<unreadable>"))
            continue
        seen: dict[str, int] = {}
        for i, doc in enumerate(docs):
            name = (
                str(doc.get("name") or f"document {i + 1}") if isinstance(doc, dict) else f"document {i + 1}"
            )
            seen[name] = seen.get(name, 0) + 1
            test_id = f"{rel}::{name}" if seen[name] == 1 else f"{rel}::{name} ({seen[name]})"
            params.append(pytest.param(path, doc, i, None, id=test_id))
    return params


def _explain(result) -> str:
    where = f"step {result.step}" if result.step is not None else "setup"
    lines = [f"{result.name} ({result.file}) failed at {where}: {result.message}"]
    if result.expected is not None or result.actual is not None:
        lines.append(f"  expected: {json.dumps(result.expected, default=str)}")
        lines.append(f"  actual:   {json.dumps(result.actual, default=str)}")
    return "\n".join(lines)


PARAMS = _collect()


def test_scenarios_exist() -> None:
    assert PARAMS, f"no scenario found under {SCENARIOS}"


@pytest.mark.parametrize("path, doc, index, read_error", PARAMS)
def test_scenario(path: Path, doc: Any, index: int, read_error: str | None) -> None:
    assert read_error is None, f"cannot read {path}: {read_error}"
    result = run_scenario(doc, path.parent, str(path.relative_to(SCENARIOS.parent)), index=index)
    assert result.passed, _explain(result)


# --------------------------------------------------------------------------- setups the rules refuse

# (rule proved, variant, valid setup, the same setup broken)
SETUP_CASES = [
    (
        "voleur players 2-4: four players accepted, five refused",
        "voleur",
        {"hands": [["2S"], ["3S"], ["4S"], ["5S"]]},
        {"hands": [["2S"], ["3S"], ["4S"], ["5S"], ["6S"]]},
    ),
    (
        "voleur players 2-4: one player refused",
        "voleur",
        {"hands": [["2S"], ["3S"]]},
        {"hands": [["2S"]]},
    ),
    (
        "voleur decks 2 + jokers 2: two copies of a card and two jokers accepted, a third copy refused",
        "voleur",
        {"hands": [["7H", "7H", "JK"], ["JK"]]},
        {"hands": [["7H", "7H", "JK"], ["JK", "7H"]]},
    ),
    (
        "voleur decks 2 + jokers 2: a third joker refused",
        "voleur",
        {"hands": [["7H", "JK"], ["JK"]], "stock": ["2C"]},
        {"hands": [["7H", "JK"], ["JK"]], "stock": ["JK"]},
    ),
    (
        "voleur rule 1: there is no discard pile at all",
        "voleur",
        {"hands": [["7H"], ["8H"]], "stock": ["2C"]},
        {"hands": [["7H"], ["8H"]], "stock": ["2C"], "discard": ["3C"]},
    ),
    (
        "voleur rule 5 (option without jokers): a joker in a jokerless deck is refused",
        {"variant": "voleur", "rules": {"deck": {"jokers": 0}}},
        {"hands": [["7H"], ["8H"]]},
        {"hands": [["7H"], ["8H", "JK"]]},
    ),
    (
        "voleur teams: no teams, scores are per seat even at four",
        "voleur",
        {"hands": [["2S"], ["3S"], ["4S"], ["5S"]], "scores": [1, 2, 3, 4]},
        {"hands": [["2S"], ["3S"], ["4S"], ["5S"]], "scores": [3, 7]},
    ),
    (
        "voleur rule 3: a table meld must be valid (no K-A-2)",
        "voleur",
        {"hands": [["2S"], ["3S"]], "table": [["QH", "KH", "AH"]]},
        {"hands": [["2S"], ["3S"]], "table": [["KH", "AH", "2H"]]},
    ),
    (
        "classic players 2-7: seven accepted, eight refused",
        "classic",
        {"hands": [["AS"], ["2S"], ["3S"], ["4S"], ["5S"], ["6S"], ["7S"]]},
        {"hands": [["AS"], ["2S"], ["3S"], ["4S"], ["5S"], ["6S"], ["7S"], ["8S"]]},
    ),
    (
        "classic decks 1 + jokers 0: one copy of each card",
        "classic",
        {"hands": [["7H"], ["7D"]]},
        {"hands": [["7H"], ["7H"]]},
    ),
    (
        "classic decks 1 + jokers 0: no joker",
        "classic",
        {"hands": [["7H"], ["7D"]]},
        {"hands": [["7H"], ["JK"]]},
    ),
    (
        "classic ace low only: a Q-K-A meld cannot be on the table",
        "classic",
        {"hands": [["2S"], ["3S"]], "table": [["AH", "2H", "3H"]]},
        {"hands": [["2S"], ["3S"]], "table": [["QH", "KH", "AH"]]},
    ),
]


# A scenario must check something: the setup cases check the seat to play.
CHECK_TURN = [{"expect": {"turn": 0}}]


@pytest.mark.parametrize("rule, variant, good, bad", SETUP_CASES, ids=[c[0] for c in SETUP_CASES])
def test_setup_rules(rule: str, variant: Any, good: dict, bad: dict) -> None:
    base = variant if isinstance(variant, dict) else {"variant": variant}
    ok = run_scenario({"name": rule, **base, "setup": good, "steps": CHECK_TURN}, SCENARIOS, "<inline>")
    assert ok.passed, _explain(ok)
    refused = run_scenario({"name": rule, **base, "setup": bad, "steps": CHECK_TURN}, SCENARIOS, "<inline>")
    assert not refused.passed and refused.actual == "setup_invalid", (
        f"{rule}: the setup should be refused as setup_invalid, got {refused.message or 'a pass'}"
    )
