"""Many tables at once (issue 4, part 7).

Games with different profiles and plugins, played interleaved in one process
(step by step, in any order, or on threads), end exactly as the same games
played alone: no table reads or writes anything another table can see.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rami_core.game import actions as A
from rami_core.game.actions import action_to_dict
from rami_core.game.state import OVER
from rami_core.players.savegame import from_save, to_save
from rami_core.profile.hookspecs import hookimpl
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from tests.support.playout import play_prefix

ROOT = Path(__file__).resolve().parents[1]
STEPS = 120


class Spy:
    """Records the events it observes (a per-game observer)."""

    name = "spy"

    def __init__(self):
        self.seen: list[dict] = []

    @hookimpl
    def rami_event(self, rules, event):
        self.seen.append(event.to_dict())


class CardCount:
    """A house rule: a hand left at the end of a round costs one point a card."""

    name = "card_count"

    @hookimpl
    def rami_hand_cost(self, rules, cards):
        return len(cards)


class ClockFine:
    """A house rule with its own state: counts the timeouts of each seat."""

    name = "clock_fine"

    def __init__(self):
        self.fines: dict[int, int] = {}

    @hookimpl
    def rami_timeout(self, rules, state, seat):
        self.fines[seat] = self.fines.get(seat, 0) + 1


@dataclass
class Table:
    profile: str
    players: int
    seed: int
    overrides: tuple[str, ...] = ()
    plugins: Callable[[], list] = list

    def start(self) -> Running:
        name = (
            ROOT / "variants" / "house" / "rami51_atlas.yaml"
            if self.profile == "rami51_atlas"
            else self.profile
        )
        plugins = self.plugins()
        game = Game.new(
            load_profile(name, list(self.overrides)), self.players, seed=self.seed, plugins=plugins
        )
        return Running(game, random.Random(f"table:{self.seed}"), plugins)


@dataclass
class Running:
    game: Game
    rng: random.Random
    plugins: list
    steps: int = field(default=0)

    def step(self) -> None:
        g = self.game
        if g.state.phase == OVER:
            if not g.state.game_over:
                g.next_round()
        elif self.rng.random() < 0.05:
            g.apply(A.Timeout(g.state.turn))  # now and then a clock runs out
        else:
            play_prefix(g, self.rng, 1)
        self.steps += 1

    def result(self) -> dict:
        g = self.game
        out = {
            "state": g.state.to_json(),
            "events": [e.to_dict() for e in g.events],
            "log": [action_to_dict(a) for a in g.log],
        }
        for p in self.plugins:
            if isinstance(p, Spy):
                out["spy"] = p.seen
            if isinstance(p, ClockFine):
                out["fines"] = dict(p.fines)
        return out


TABLES = [
    Table("rami51", 3, 101, plugins=lambda: [Spy()]),
    Table("voleur", 2, 102, ("game.target=100000",), plugins=lambda: [Spy(), CardCount()]),
    Table("rami71", 4, 103),
    Table("classic", 5, 104, plugins=lambda: [ClockFine()]),
    Table("rami51_atlas", 4, 105, plugins=lambda: [Spy(), ClockFine()]),
    Table("kaluki", 2, 106),
    Table("simple", 2, 107, ("game.target=100000",), plugins=lambda: [CardCount()]),
    Table(
        "rami51",
        2,
        108,
        ("deal.dealer_extra_card=true", "turn.time_limit=30"),
        plugins=lambda: [ClockFine(), Spy()],
    ),
    Table("voleur", 4, 109),
]


def alone(table: Table) -> dict:
    r = table.start()
    for _ in range(STEPS):
        r.step()
    return r.result()


@pytest.fixture(scope="module")
def expected() -> list[dict]:
    return [alone(t) for t in TABLES]


def test_tables_interleaved_step_by_step_end_as_alone(expected):
    # Played alone twice, the same (the games are deterministic).
    assert alone(TABLES[0]) == expected[0]
    running = [t.start() for t in TABLES]
    rng = random.Random(7)
    # Random interleaving: any table may move next.
    while any(r.steps < STEPS for r in running):
        r = rng.choice([r for r in running if r.steps < STEPS])
        r.step()
    results = [r.result() for r in running]
    for t, got, want in zip(TABLES, results, expected):
        assert got == want, (
            f"{t.profile} at {t.players} (seed {t.seed}) played differently among other tables"
        )
    # The tables did play: rounds ended, plugins acted.
    assert sum(1 for r in results for e in r["events"] if e["kind"] == "round_over") >= 3
    assert any(r.get("fines") for r in results)
    for res in results:
        if "spy" in res:
            assert res["spy"] == res["events"]


def test_tables_on_threads_end_as_alone(expected):
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(alone, TABLES))
    assert got == expected


def test_a_house_rule_stays_at_its_table():
    """CardCount changes the penalties of its own game only."""
    base = Table("voleur", 2, 55, ("game.target=100000",))
    house = Table("voleur", 2, 55, ("game.target=100000",), plugins=lambda: [CardCount()])
    a, b = base.start(), house.start()
    for _ in range(400):
        for r in (a, b):
            if r.game.state.phase != OVER:
                r.step()
    ga, gb = a.game.state, b.game.state
    assert ga.phase == gb.phase == OVER
    assert ga.hands == gb.hands  # same deal, same moves: the rule only scores
    assert gb.penalties == [len(h) for h in gb.hands]
    assert ga.penalties != gb.penalties
    assert "card_count" in b.game.rules.hooks.names() and "card_count" not in a.game.rules.hooks.names()


def test_saving_and_loading_among_running_tables():
    """Loading a save (a replay from its seed) in the middle of other games
    disturbs none of them and gives the saved game back."""
    running = [t.start() for t in TABLES[:4]]
    for _ in range(40):
        for r in running:
            r.step()
    saves = [to_save(r.game) for r in running]
    loaded = [from_save(s) for s in saves]
    for r in running:
        for _ in range(20):
            r.step()
    for s, g in zip(saves, loaded):
        assert g.state.to_dict() == s["snapshot"]
    fresh = [t.start() for t in TABLES[:4]]
    for r in fresh:
        for _ in range(60):
            r.step()
    assert [r.result()["state"] for r in fresh] == [r.result()["state"] for r in running]
