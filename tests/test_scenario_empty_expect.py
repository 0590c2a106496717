"""`expect: {hands: {}}` compares nothing: refused as checking nothing (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rami_core.conformance.scenario import run_scenario

BASE = {
    "variant": "rami51",
    "setup": {"hands": [["7H", "8H", "9H"], ["2C", "3C", "4C"]], "stock": ["KD", "QD"], "discard": ["5S"]},
    "steps": [{"player": 0, "draw": "stock", "expect": {"phase": "lay"}}],
}


@pytest.mark.parametrize("key", ["hands"])
def test_an_empty_mapping_in_expect_is_refused(key):
    doc = {**BASE, "steps": [{"player": 0, "draw": "stock", "expect": {key: {}}}]}
    result = run_scenario(doc, Path("."), "t.yaml")
    assert not result.passed
    assert "checks nothing" in (result.message or "")


def test_the_same_scenario_with_something_to_check_runs():
    r = run_scenario(BASE, Path("."), "t.yaml")
    assert r.passed, r.message
