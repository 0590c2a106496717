"""The tables a server holds, by id and by seat code.

Only what is here is served: a table is added once it is stored (or
replayed from the store) and discarded once its rows are gone. The registry
knows no game and no store; the hub decides when a table comes and goes.
"""

from __future__ import annotations

import secrets

from rami_core.server.protocol import ServerError
from rami_core.server.table import HostedTable, new_code, plain_code


def gone(table_id: str) -> ServerError:
    """A table that is not, or no longer, here (deleted by its creator, expired)."""
    return ServerError(
        404,
        "no_such_table",
        f"there is no table {table_id!r} (it may have been deleted by its creator, or expired unplayed)",
    )


class Registry:
    """Every table by its id, and each seat's short code (`/j/CODE`) to its
    table and seat."""

    def __init__(self) -> None:
        self.tables: dict[str, HostedTable] = {}
        self.codes: dict[str, tuple[str, int]] = {}

    def add(self, t: HostedTable) -> None:
        self.tables[t.id] = t
        for i, seat in enumerate(t.seats):
            if seat.code:
                self.codes[seat.code] = (t.id, i)

    def discard(self, t: HostedTable) -> None:
        """Forget the table and the codes that still open it."""
        self.tables.pop(t.id, None)
        for seat in t.seats:
            if seat.code and self.codes.get(seat.code, ("",))[0] == t.id:
                del self.codes[seat.code]

    def new_id(self) -> str:
        """An id no table here has (ten hex digits: a link nobody guesses by counting)."""
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        return table_id

    def new_code(self) -> str:
        """A seat code no seat here has."""
        code = new_code()
        while code in self.codes:
            code = new_code()
        return code

    def get(self, table_id: str) -> HostedTable:
        """The table, or 404 no_such_table (never one being deleted)."""
        t = self.tables.get(table_id)
        if t is None or t.deleted:
            raise gone(table_id)
        return t

    def by_code(self, code: str) -> tuple[HostedTable, int] | None:
        """The table and seat a seat's code opens, or None."""
        found = self.codes.get(plain_code(code))
        if found is None:
            return None
        t = self.tables.get(found[0])
        if t is None or t.deleted:
            return None
        return t, found[1]
