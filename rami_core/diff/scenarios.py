"""The situations as conformance scenarios: the club's own tests for its file.

Each scenario names profile B (the club's file) as its variant, sets the
situation up card by card and plays its moves; the last move's `expect` is
what B's referee does with it, and a comment above says what A's would do.
So `rami check` passes them under B, and run under A each fails at its last
move: the file's difference, kept as tests (tests/test_diff.py runs both).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from rami_core.diff.search import Found
from rami_core.diff.situation import Referee

# What an accepted move is checked on: the expect keys it changes.
ACCEPTED_KEYS = {
    "draw": ("hand_sizes", "stock_size", "discard_size", "phase"),
    "meld": ("hand_sizes", "table", "opened"),
    "layoff": ("hand_sizes", "table"),
    "swap": ("hand_sizes", "table"),
    "rearrange": ("hand_sizes", "table"),
    "discard": ("hand_sizes", "discard_top", "turn", "phase"),
    "end_turn": ("hand_sizes", "turn", "phase"),
}


def overrides_as_rules(overrides: tuple[str, ...]) -> dict[str, Any]:
    """`--set` strings as the scenario's `rules:` mapping (values read as YAML, as --set reads them)."""
    out: dict[str, Any] = {}
    for item in overrides:
        key, _, value = item.partition("=")
        node = out
        parts = [p.strip() for p in key.split(".")]
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = yaml.safe_load(value)
    return out


def variant_for(name: str, out_file: Path) -> str:
    """How a scenario written to `out_file` names a profile: by name, or a file by its path from there."""
    looks_like_file = "/" in name or name.endswith((".yaml", ".yml")) or name.startswith(".")
    if not looks_like_file:
        return name
    return os.path.relpath(Path(name).resolve(), out_file.resolve().parent)


def expectation(found: Found, rb: Referee) -> dict[str, Any]:
    """What B's referee does with the situation's last move, as an `expect`."""
    sit = found.situation
    rulings = rb.rulings(sit)
    assert rulings is not None
    last = rulings[-1]
    if last.error is not None:
        return {"error": last.error.code}
    assert last.state is not None
    seen = rb.observed(last.state, sit.players)
    if found.how.kind == "outcome":
        keys: tuple[str, ...] = found.how.keys
    else:
        kind = next(k for k in ACCEPTED_KEYS if k in sit.steps[-1])
        keys = ACCEPTED_KEYS[kind]
    return {k: seen[k] for k in keys}


def scenario_text(
    found_list: list[Found],
    ra: Referee,
    rb: Referee,
    names: tuple[str, str],
    overrides: tuple[tuple[str, ...], tuple[str, ...]],
    out_file: Path,
    verdict_words: Any,
) -> str:
    """The scenario file: one document per situation, `---` between them."""
    label_a = names[0] + "".join(f" --set {o}" for o in overrides[0])
    label_b = names[1] + "".join(f" --set {o}" for o in overrides[1])
    docs = []
    for n, found in enumerate(found_list, start=1):
        sit = found.situation
        steps = [dict(st) for st in sit.steps]
        steps[-1]["expect"] = expectation(found, rb)
        doc: dict[str, Any] = {
            "name": f"{label_b} against {label_a}, situation {n}: "
            + (", ".join(found.causes) if found.causes else "several settings together"),
            "variant": variant_for(names[1], out_file),
        }
        if overrides[1]:
            doc["rules"] = overrides_as_rules(overrides[1])
        doc["setup"] = sit.setup
        doc["steps"] = steps
        body = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)
        comment = f"# under A ({label_a}), the last move: {verdict_words(found, ra)}\n"
        docs.append(comment + body)
    return "---\n".join(docs)
