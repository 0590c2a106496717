"""`rami serve` refuses a database that keeps nothing (issue 44): `:memory:`,
the empty name and SQLite's in-memory URIs lose every game when the server
stops; only `--ephemeral` allows one, and the banner then says so."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from click.testing import CliRunner

from rami_core.cli import main
from rami_core.server.store import in_memory

MEMORY = [
    ":memory:",
    ":MEMORY:",
    "",
    "  ",
    "file::memory:",
    "file::memory:?cache=shared",
    "file:games?mode=memory",
    "file:/x/y.db?mode=memory&cache=shared",
    "FILE::memory:",
]


@pytest.mark.parametrize("db", MEMORY)
def test_in_memory_forms_are_known(db):
    assert in_memory(db)


@pytest.mark.parametrize("db", ["rami.sqlite", "/tmp/games.db", "memory.sqlite", "./:memory:x"])
def test_files_are_not_in_memory(db):
    assert not in_memory(db)


@pytest.mark.parametrize("db", MEMORY)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_serve_refuses_an_in_memory_db(db, lang, monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server started"))
    r = CliRunner().invoke(main, ["serve", "--lang", lang, "--db", db])
    assert r.exit_code == 2, r.output
    assert "--ephemeral" in r.output
    assert ("mémoire" if lang == "fr" else "in-memory") in r.output


def test_ephemeral_allows_it_and_says_so(monkeypatch):
    import uvicorn

    ran = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **k: ran.append(app))
    r = CliRunner().invoke(main, ["serve", "--db", ":memory:", "--ephemeral"])
    assert r.exit_code == 0, r.output
    assert ran and "EPHEMERAL" in r.output and "lost" in r.output


def test_a_file_db_still_serves(tmp_path, monkeypatch):
    import uvicorn

    ran = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **k: ran.append(app))
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "g.sqlite")])
    assert r.exit_code == 0, r.output
    assert ran and "EPHEMERAL" not in r.output
