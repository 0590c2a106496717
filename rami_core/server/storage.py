"""What the hub asks of a store: the interface, and a store held in memory.

The hub never names SQLite: it is handed a `TableStore` (`store.Store`, the
file `rami serve` keeps; `MemoryStore`, games that end with the process) and
only ever writes through these calls, in the writer thread (`store.Writer`).
A store keeps each table as its creation record and its action log, never
the game: what it gives back is replayed through the engine.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

from rami_core.server.store import StoredTable


class TableStore(Protocol):
    """A table's record and log, written before anyone is told. A write that
    cannot be made now (a lock another process holds) raises StoreBusy and
    writes nothing."""

    # (table id, reason) of the records `tables()` left out
    damaged: list[tuple[str, str]]

    def tables(self) -> list[StoredTable]: ...
    def create_table(self, t: StoredTable) -> None: ...
    def append(self, table_id: str, n: int, action: dict[str, Any]) -> None: ...
    def truncate(self, table_id: str, n: int) -> None: ...
    def delete_table(self, table_id: str) -> None: ...
    def close(self) -> None: ...


class MemoryStore:
    """A `TableStore` in a dict: nothing survives the process (tests, a
    throwaway server). Each table is copied in and out, as a file would be:
    nothing the hub holds is shared with what is stored."""

    def __init__(self) -> None:
        self.damaged: list[tuple[str, str]] = []
        self._tables: dict[str, StoredTable] = {}

    def tables(self) -> list[StoredTable]:
        return [copy.deepcopy(t) for t in sorted(self._tables.values(), key=lambda t: t.created)]

    def create_table(self, t: StoredTable) -> None:
        self._tables[t.id] = copy.deepcopy(t)

    def append(self, table_id: str, n: int, action: dict[str, Any]) -> None:
        log = self._tables[table_id].log
        if n != len(log):
            raise ValueError(f"table {table_id}: action {n} appended after {len(log)}")
        log.append(copy.deepcopy(action))

    def truncate(self, table_id: str, n: int) -> None:
        del self._tables[table_id].log[n:]

    def delete_table(self, table_id: str) -> None:
        self._tables.pop(table_id, None)

    def close(self) -> None:
        pass
