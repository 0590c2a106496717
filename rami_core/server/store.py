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

import asyncio
import concurrent.futures
import json
import queue
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami_core.words.problems import Said

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


def in_memory(db: str | Path) -> bool:
    """Whether SQLite would keep `db` in memory or in a temporary file deleted
    at close: ``:memory:``, the empty name, ``file::memory:`` and any
    ``file:`` URI asking ``mode=memory`` (every game lost when the server stops)."""
    text = str(db).strip()
    if text == "" or text.lower() == ":memory:":
        return True
    lowered = text.lower()
    if lowered.startswith("file:"):
        rest = lowered[5:]
        path = rest.split("?", 1)[0].split("#", 1)[0]
        return path in ("", ":memory:") or path.lstrip("/") == ":memory:" or "mode=memory" in rest
    return False


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


class StoreError(Exception):
    """A file that cannot be the server's store (not SQLite, not rami's, not
    openable): one line for the operator, never a traceback."""


class StoreBusy(Exception):
    """Another process holds the file's write lock (an admin's sqlite3
    session): the action is refused with 503 busy and may be tried again."""


# How long one write may wait for another process's lock. Writes run in the
# writer thread, never on the event loop, but one at a time: a long wait here
# delays every table's next write, so it stays short and the caller gets 503.
BUSY_TIMEOUT_MS = 100
# Writes waiting for the writer thread at most (a slow disk): past that a
# request gets 503 busy at once instead of a queue that grows without end.
WRITE_QUEUE = 256
COLUMNS = {
    "tables": {"id", "created", "variant", "profile", "players", "seed", "seats", "options"},
    "actions": {"table_id", "n", "action"},
}


class Store:
    """The SQLite file. One connection, used from the event loop's thread;
    the lock only guards against a benchmark or test touching it from another.

    `readonly` (for `rami serve --export`) opens the file read-only: nothing
    is created, converted (WAL) or added."""

    def __init__(self, path: str | Path, synchronous: str = "normal", *, readonly: bool = False):
        self.path = str(path)
        self._lock = threading.Lock()
        self.damaged: list[tuple[str, str]] = []  # (table id, reason) of rows left out by tables()
        p = Path(self.path)
        if p.exists() and not p.is_file():
            raise StoreError(Said("store_not_file", path=self.path))
        if not p.parent.is_dir():
            raise StoreError(Said("store_no_folder", path=self.path, folder=repr(str(p.parent))))
        if readonly and not p.is_file():
            raise StoreError(Said("at", where=self.path, detail=Said("no_such_file")))
        try:
            if readonly:
                uri = "file:" + urllib.parse.quote(str(p.resolve())) + "?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
            else:
                self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._check_schema(readonly)
            if not readonly:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'full' else 'NORMAL'}")
                self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            # sqlite's and the system's own words, quoted as they give them
            raise StoreError(Said("store_unusable", path=self.path, error=str(e))) from None
        except OSError as e:
            raise StoreError(Said("store_cannot_open", path=self.path, error=str(e.strerror or e))) from None

    def _check_schema(self, readonly: bool) -> None:
        """A file with tables of its own, or rami's tables without their
        columns, is somebody else's database: refused, left untouched."""
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not names and readonly:
            raise StoreError(Said("store_empty", path=self.path))
        if not names:
            return
        for table, columns in COLUMNS.items():
            have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
            if not columns <= have:
                raise StoreError(Said("store_foreign", path=self.path, tables=", ".join(sorted(names))[:200]))

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def create_table(self, t: StoredTable) -> None:
        self._write(
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

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        with self._lock:
            try:
                self.db.execute(sql, args)
            except sqlite3.OperationalError as e:
                if "locked" in str(e) or "busy" in str(e):
                    raise StoreBusy(str(e)) from None
                raise

    def append(self, table_id: str, n: int, action: dict[str, Any]) -> None:
        """Store action number n (from 0) of a table; committed when this returns.
        StoreBusy if another process holds the write lock (nothing stored)."""
        self._write("INSERT INTO actions VALUES (?, ?, ?)", (table_id, n, json.dumps(action)))

    def truncate(self, table_id: str, n: int) -> None:
        """Forget actions n and later (an undo within the turn)."""
        self._write("DELETE FROM actions WHERE table_id = ? AND n >= ?", (table_id, n))

    def tables(self) -> list[StoredTable]:
        """Every table that reads back. A damaged row (a column that is not
        JSON or not UTF-8 text, a value of the wrong type, a JSON nested past
        reading, a log the file can no longer give) costs its own table
        only: it is left out and listed in `damaged`, the others load. A
        file whose list of tables cannot be read is a StoreError."""
        with self._lock:
            old = self.db.text_factory
            self.db.text_factory = bytes  # text decoded per row below: a bad byte costs one table
            try:
                try:
                    rows = self.db.execute(
                        "SELECT id, created, variant, profile, players, seed, seats, options "
                        "FROM tables ORDER BY created"
                    ).fetchall()
                except sqlite3.DatabaseError as e:
                    raise StoreError(Said("store_tables_unreadable", path=self.path, error=str(e))) from None
                logs: dict[Any, list[Any] | str] = {}
                for r in rows:
                    try:
                        key = _text(r[0])  # bound as text: the bytes would be a BLOB, equal to no id
                        logs[r[0]] = [
                            a
                            for (a,) in self.db.execute(
                                "SELECT action FROM actions WHERE table_id = ? ORDER BY n", (key,)
                            )
                        ]
                    except (ValueError, TypeError) as e:
                        logs[r[0]] = f"its id is not text ({e})"
                    except sqlite3.DatabaseError as e:
                        logs[r[0]] = f"its log cannot be read ({e})"
            finally:
                self.db.text_factory = old
        out = []
        self.damaged = []
        for r in rows:
            tid = _text(r[0], errors="replace")
            try:
                raw = logs.get(r[0], [])
                if isinstance(raw, str):
                    raise ValueError(raw)
                log = [json.loads(_text(a)) for a in raw]
                if not all(isinstance(a, dict) for a in log):
                    raise ValueError("an action that is not a mapping")
                t = StoredTable(
                    id=_text(r[0]),
                    created=float(r[1]),
                    variant=_text(r[2]),
                    profile=json.loads(_text(r[3])),
                    players=int(r[4]),
                    seed=int(r[5]),
                    seats=json.loads(_text(r[6])),
                    options=json.loads(_text(r[7])),
                    log=log,
                )
                if (
                    not isinstance(t.profile, dict)
                    or not isinstance(t.seats, list)
                    or not isinstance(t.options, dict)
                ):
                    raise ValueError("a column of the wrong shape")
            except (ValueError, TypeError, RecursionError) as e:
                self.damaged.append((tid, f"a damaged row ({type(e).__name__}: {str(e)[:120]})"))
                continue
            out.append(t)
        return out

    def table(self, table_id: str) -> StoredTable | None:
        return next((t for t in self.tables() if t.id == table_id), None)

    def delete_table(self, table_id: str) -> None:
        """Forget a table and its log (an expired table, or its creator's delete)."""
        with self._lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
                self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
                self.db.execute("COMMIT")
            except sqlite3.OperationalError as e:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                if "locked" in str(e) or "busy" in str(e):
                    raise StoreBusy(str(e)) from None
                raise


def _text(value: Any, errors: str = "strict") -> str:
    """A column read as bytes (see Store.tables) as text; UnicodeDecodeError
    (a ValueError) for bytes that are not UTF-8, TypeError for a NULL."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors)
    if value is None:
        raise TypeError("a NULL where text belongs")
    return str(value)


class Writer:
    """The store's one writer thread: the event loop hands it each write and
    awaits the answer, so a slow disk or a lock held by another process
    delays the tables that write, never the loop (clocks, bots, every socket
    and every other request go on). Writes run one at a time in the order
    given, so a table's log is written in the order its actions were judged.
    At most WRITE_QUEUE writes wait; one more is refused with StoreBusy."""

    def __init__(self, store: object, depth: int | None = None):
        self.store = store  # the `storage.TableStore` its writes go to
        depth = WRITE_QUEUE if depth is None else depth
        self._jobs: queue.Queue[tuple[Callable[..., None], tuple[Any, ...], concurrent.futures.Future] | None]
        self._jobs = queue.Queue(maxsize=depth)
        self._thread = threading.Thread(target=self._run, name="rami-store-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, args, fut = job
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fn(*args)
            except BaseException as e:  # handed to the awaiting request, never lost in the thread
                fut.set_exception(e)
            else:
                fut.set_result(None)

    async def call(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn(*args)` (a Store write) in the writer thread and wait for it."""
        fut: concurrent.futures.Future = concurrent.futures.Future()
        try:
            self._jobs.put_nowait((fn, args, fut))
        except queue.Full:
            raise StoreBusy(f"{self._jobs.maxsize} writes wait for the disk") from None
        await asyncio.wrap_future(fut)

    def close(self) -> None:
        """Finish the writes handed over, then stop the thread."""
        self._jobs.put(None)
        self._thread.join(timeout=30)
