"""The embedding page's example (docs/embedding.md) runs as written: its code
block is taken from the page and executed, so an app developer copying it
gets what the page shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "embedding.md"
HEADING = "# Embedding the engine in an app"


def section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/embedding.md has no section {HEADING!r}"
    body = text.split(HEADING, 1)[1]
    nxt = re.search(r"^## ", body, flags=re.M)
    return body[: nxt.start()] if nxt else body


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


def test_the_section_has_one_python_example():
    blocks = code_blocks(section())
    assert len(blocks) == 1
    code = blocks[0]
    # It shows what the issue asks an app to see.
    for needle in (
        "load_profile(",
        "Game.new(",
        ".view(",
        ".apply(",
        "except RuleError",
        ".code",
        ".subscribe(",
        "save(",
        "load(",
    ):
        assert needle in code, f"the example does not show {needle}"


def test_the_example_runs(tmp_path, monkeypatch):
    (code,) = code_blocks(section())
    monkeypatch.chdir(tmp_path)  # it saves a game in the current folder
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{PAGE}:{HEADING}", "exec"), {"__name__": "readme_example"})
    printed = out.getvalue()
    assert "refused: wrong_phase" in printed
    assert "'kind': 'timed_out'" in printed
    assert "cannot load:" in printed
    assert (tmp_path / "table.json").is_file()


LEGAL_HEADING = "## What a seat may do: greying out buttons"


def legal_section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    assert LEGAL_HEADING in text, f"docs/embedding.md has no section {LEGAL_HEADING!r}"
    body = text.split(LEGAL_HEADING, 1)[1]
    nxt = re.search(r"^## ", body, flags=re.M)
    return body[: nxt.start()] if nxt else body


def test_the_legal_moves_example_prints_what_the_page_shows():
    """The greying-out example runs as written and prints the output shown under it."""
    body = legal_section()
    (code,) = code_blocks(body)
    (shown,) = re.findall(r"^```text\n(.*?)^```", body, flags=re.M | re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{PAGE}:{LEGAL_HEADING}", "exec"), {"__name__": "legal_example"})
    printed = [line.rstrip() for line in out.getvalue().splitlines()]
    assert printed == shown.rstrip("\n").splitlines()
    assert "legal_moves(" in code and "refusal_json(" in code and ".moves(" in code


def test_the_server_page_shows_a_refusal_as_the_server_sends_it():
    """docs/server.md's refusal body is what the server's 409 holds for that refusal."""
    import json

    from rami_core.cards import parse_cards
    from rami_core.game import actions as A
    from rami_core.profile.loader import load_profile
    from rami_core.referee.position import build_setup
    from rami_core.words.errors import RuleError
    from rami_core.words.refusals import refusal_json

    text = (PAGE.parent / "server.md").read_text(encoding="utf-8")
    after = text.split("A refused action changes nothing", 1)[1]
    (block,) = re.findall(r"^```json\n(.*?)^```", after, flags=re.M | re.S)[:1]
    shown = json.loads(block)["error"]
    hands = [parse_cards("9H 10H JH KS KH KC 2C 5D"), parse_cards("3S 4S 8D 8C QD")]
    game = build_setup(
        load_profile("rami51"),
        {"hands": [[str(c) for c in h] for h in hands], "stock": ["QD"], "phase": "lay"},
    )
    try:
        game.apply(A.Meld(0, (tuple(parse_cards("9H 10H JH")),)))
    except RuleError as e:
        assert refusal_json(e) == shown
    else:
        raise AssertionError("the opening of 29 points was accepted")
