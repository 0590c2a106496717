"""Memory bounded by what is kept (issue 44, class 1): a pasted profile of
nested aliases or merge keys counts toward the profile's value cap as
expanded, is refused at a line, and leaves nothing in the reading cache; what
the cache keeps is bounded by what its entries hold once expanded."""

from __future__ import annotations

from pathlib import Path

import pytest

from rami_core.profile.loader import safe_yaml
from rami_core.words.errors import ProfileError


def _nested(levels: int, fan: int = 9, names: str = "abcdefghij") -> str:
    lines = [f"{names[0]}: &{names[0]} [" + ",".join(["x"] * fan) + "]"]
    for i in range(1, levels):
        prev, name = names[i - 1], names[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * fan) + "]")
    return "\n".join(lines) + "\n"


BOMBS = {
    "lists": _nested(5),  # 9**5 values from 166 characters
    "wide": _nested(3, fan=20),  # 8,000 values, three lines
    "extends": "extends: rami51\n" + _nested(4),
    "mappings": (
        "m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8}\n"
        "m1: &m1 {a: *m0, b: *m0, c: *m0, d: *m0, e: *m0, f: *m0, g: *m0, h: *m0}\n"
        "m2: &m2 {a: *m1, b: *m1, c: *m1, d: *m1, e: *m1, f: *m1, g: *m1, h: *m1}\n"
        "m3: &m3 {a: *m2, b: *m2, c: *m2, d: *m2, e: *m2, f: *m2, g: *m2, h: *m2}\n"
    ),
    "merge": (
        "m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8}\n"
        "m1: &m1 [*m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0]\n"
        "m2: &m2 [*m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1]\n"
        "opening:\n  <<: [*m2, *m2, *m2, *m2, *m2]\n"
    ),
    "nested_in_keys": "deal:\n  x: &x [" + ",".join(["y"] * 70) + "]\n  z: [" + ",".join(["*x"] * 70) + "]\n",
}


def _kept_texts() -> list[str]:
    return [key[1] for key in safe_yaml._kept_docs]


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_an_expanding_paste_is_refused_at_a_line_and_nothing_is_kept(name: str) -> None:
    from rami_core.server.lobby import profile_and_warnings
    from rami_core.server.protocol import CreateTable

    text = BOMBS[name]
    assert len(text) < 600
    before = safe_yaml.kept_size()
    with pytest.raises(ProfileError) as info:
        profile_and_warnings(CreateTable(rules=text, seats=["human", "human"]))
    problem = info.value.problems[0]
    assert problem.file == "rules" and problem.line is not None
    assert problem.code in {"yaml_alias_bomb", "yaml_merge_key", "yaml_values"}, problem.code
    # The refused paste is not kept (other tests of the process may have kept texts of their own).
    assert text not in _kept_texts()
    assert safe_yaml.kept_size()[2] <= before[2]


def test_the_cap_counts_what_aliases_add_at_the_alias_line() -> None:
    text = "a: &a [" + ",".join(["x"] * 70) + "]\nb: [" + ",".join(["*a"] * 70) + "]\n"
    with pytest.raises(ProfileError) as info:
        safe_yaml.load_yaml_text(text, "t.yaml", max_values=safe_yaml.MAX_PROFILE_VALUES)
    (problem,) = info.value.problems
    assert (problem.code, problem.line, problem.key_path) == ("yaml_alias_bomb", 2, "b")
    assert "4000" in info.value.format() and "t.yaml:2: b:" in info.value.format()
    # The same text is read where no profile cap applies (a scenario's steps): bounded by MAX_VALUES.
    assert len(safe_yaml.load_yaml_text(text, "t.yaml").data["b"]) == 70


def test_a_paste_refused_after_its_yaml_was_read_is_not_kept(tmp_path: Path) -> None:
    from rami_core.server.lobby import profile_and_warnings
    from rami_core.server.protocol import CreateTable

    text = "extends: rami51\nnot_a_setting_" + "q" * 20 + ": 1\n"
    with pytest.raises(ProfileError):
        profile_and_warnings(CreateTable(rules=text, seats=["human", "human"]))
    assert text not in _kept_texts()


def test_the_cache_is_bounded_by_what_it_holds_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safe_yaml, "_kept_docs", type(safe_yaml._kept_docs)())
    monkeypatch.setattr(safe_yaml, "_kept_sizes", {})
    monkeypatch.setattr(safe_yaml, "_kept_chars", 0)
    monkeypatch.setattr(safe_yaml, "_kept_values", 0)
    monkeypatch.setattr(safe_yaml, "_KEEP_VALUES", 5_000)
    for i in range(20):
        # 60 characters of text, 1,300 values and located items once expanded
        text = f"i: {i}\na: &a [" + ",".join(["x"] * 20) + "]\nb: [" + ",".join(["*a"] * 30) + "]\n"
        safe_yaml.load_yaml_text(text, "e.yaml")
    entries, _chars, values = safe_yaml.kept_size()
    assert values <= 5_000 and 0 < entries < 20
    assert values == sum(safe_yaml.held_values(d) for d in safe_yaml._kept_docs.values())
    # One entry larger than an entry may hold is not kept at all.
    big = "a: &a [" + ",".join(["x"] * 200) + "]\nb: [" + ",".join(["*a"] * 99) + "]\n"
    safe_yaml.load_yaml_text(big, "big.yaml")
    assert big not in _kept_texts()


pytest.importorskip("starlette", reason="the [server] extra is not installed")


def test_hostile_pastes_to_the_server_leave_the_cache_as_it_was(tmp_path: Path) -> None:
    """The quick, bounded version of `bench_hostile.py --memory`: thirty
    hostile pastes to the create route, each refused at a line, and the
    reading cache holds nothing more than before (no RSS measured here)."""
    from starlette.testclient import TestClient

    from rami_core.server.app import create_app

    app = create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000)
    with TestClient(app, client=("198.51.100.7", 5000)) as c:
        c.post("/api/tables", json={"seats": ["human", "human"], "variant": "rami51"})
        before = safe_yaml.kept_size()
        for i in range(30):
            text = list(BOMBS.values())[i % len(BOMBS)] + f"# {i}\n"
            r = c.post("/api/tables", json={"seats": ["human", "human"], "rules": text})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["problems"][0]["line"] is not None
        after = safe_yaml.kept_size()
    assert after[2] <= before[2] and after[0] <= before[0]
