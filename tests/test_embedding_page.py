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
