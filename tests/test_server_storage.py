"""The hub's store is an interface (`storage.TableStore`): the SQLite file
and the store in memory keep the same games, and the hub runs on either."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from rami_core.game import actions as A
from rami_core.server.hub import Hub
from rami_core.server.protocol import CreateTable
from rami_core.server.storage import MemoryStore, TableStore
from rami_core.server.store import Store


def _stores(tmp_path: Path) -> list[TableStore]:
    return [MemoryStore(), Store(tmp_path / "rami.sqlite")]


def _play(store: TableStore) -> tuple[str, str]:
    """A table made and played a little by a hub that is never started
    (every write and judgement in place); its id and its state."""

    async def run() -> tuple[str, str]:
        hub = Hub(store, reproducible_seeds=True)
        t = await hub.create(CreateTable(variant="rami51", seats=["human", "human"], seed=3))
        seat = t.game.state.turn
        await hub.accept(t, A.Draw(seat, "stock"))
        return t.id, t.game.state.to_json()

    # In a thread of its own: a browser test's Playwright may hold this worker's
    # thread in a running event loop, where asyncio.run refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_every_store_replays_what_it_was_given(tmp_path: Path):
    states = []
    for store in _stores(tmp_path):
        tid, state = _play(store)
        again = Hub(store)
        again.load()
        assert again.get(tid).game.state.to_json() == state
        assert [s.id for s in store.tables()] == [tid] and len(store.tables()[0].log) == 1
        states.append(state)
        store.truncate(tid, 0)
        assert store.tables()[0].log == []
        store.delete_table(tid)
        assert store.tables() == []
        store.close()
    assert states[0] == states[1]  # the same seed, the same game, whichever store


def test_a_memory_store_shares_nothing_with_the_hub():
    store = MemoryStore()
    _play(store)
    store.tables()[0].log.clear()
    assert len(store.tables()[0].log) == 1
