"""Where the server keeps its games: one SQLite file, written before anyone is told.

A table is its creation record (profile, seed, seats) plus its action log in
the save format's dict form; the game itself is never stored, it is replayed,
so what survives a crash is exactly what was accepted. The file is in WAL mode:
a commit is one append to the log file, readers never block the writer, and a
process killed at any moment (SIGKILL included) leaves every committed action
in place. `synchronous=NORMAL` (the default here) survives a process crash;
`full` also survives a power cut, at the price of an fsync per action.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    variant TEXT NOT NULL,
    profile TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


@dataclass
class StoredTable:
    id: str
    created: float
    variant: str
    profile: dict[str, Any]
    players: int
    seed: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    log: list[dict[str, Any]]


class Store:
    """The SQLite file. One connection, used from the event loop's thread;
    the lock only guards against a benchmark or test touching it from another."""

    def __init__(self, path: str | Path, synchronous: str = "normal"):
        self.path = str(path)
        self._lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'full' else 'NORMAL'}")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def create_table(self, t: StoredTable) -> None:
        with self._lock:
            self.db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    t.id,
                    t.created,
                    t.variant,
                    json.dumps(t.profile),
                    t.players,
                    t.seed,
                    json.dumps(t.seats),
                    json.dumps(t.options),
                ),
            )

    def append(self, table_id: str, n: int, action: dict[str, Any]) -> None:
        """Store action number n (from 0) of a table; committed when this returns."""
        with self._lock:
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?)", (table_id, n, json.dumps(action)))

    def truncate(self, table_id: str, n: int) -> None:
        """Forget actions n and later (an undo within the turn)."""
        with self._lock:
            self.db.execute("DELETE FROM actions WHERE table_id = ? AND n >= ?", (table_id, n))

    def tables(self) -> list[StoredTable]:
        with self._lock:
            rows = self.db.execute(
                "SELECT id, created, variant, profile, players, seed, seats, options FROM tables ORDER BY created"
            ).fetchall()
            logs: dict[str, list[dict[str, Any]]] = {r[0]: [] for r in rows}
            for tid, action in self.db.execute("SELECT table_id, action FROM actions ORDER BY table_id, n"):
                logs.setdefault(tid, []).append(json.loads(action))
        return [
            StoredTable(
                id=r[0],
                created=r[1],
                variant=r[2],
                profile=json.loads(r[3]),
                players=r[4],
                seed=r[5],
                seats=json.loads(r[6]),
                options=json.loads(r[7]),
                log=logs.get(r[0], []),
            )
            for r in rows
        ]

    def table(self, table_id: str) -> StoredTable | None:
        return next((t for t in self.tables() if t.id == table_id), None)
