"""Random playouts over every preset and player count, with the engine's
invariants checked after every action, accepted or refused:

- no card is created or lost (the cards in play are the profile's deck);
- every table meld is valid, and its reading agrees with its cards;
- the state round-trips through JSON exactly;
- a refused action leaves the serialized state and the log as they were,
  with a contract error code (and an action wrong on purpose is refused with
  the code it deserves, or one listed before it in `rami_core.words.errors.ERROR_CODES`);
- at every turn end, a round in progress has no winner and no penalties.

Every round ends, or stops at the turn cap (counted and reported). The bot
must be seen to use every kind of action the profile allows: a bot that only
draws and discards proves nothing.

Sizes (see CONTRIBUTING.md, "Slow tests"): the default `pytest` plays
RAMI_PLAYOUT_QUICK_ROUNDS rounds per preset and player count (default 3) as
a quick check. The full playouts are marked `slow` (`pytest -m slow`, which
CI runs): RAMI_PLAYOUT_ROUNDS rounds per preset and player count (default
100; run 10000 by hand), base seed RAMI_PLAYOUT_SEED (default 1), played in
RAMI_PLAYOUT_JOBS processes (default: 2, or 1 on a single core). After them
one line sums the playouts up; `-v` prints the table of accepted and refused
actions per kind.

To replay one table: `RAMI_PLAYOUT_JOBS=1 pytest -m slow tests/test_playout.py -k rami51-3`.
"""

from __future__ import annotations

import os
import time
import traceback
from collections import Counter

import pytest

from rami_core.cards import build_deck
from rami_core.cards.melds import RUN, rank_at, read_meld
from rami_core.game.actions import action_to_dict
from rami_core.game.state import DRAW, LAY, GameState
from rami_core.profile.loader import load_profile
from rami_core.profile.model import JokerSwap, Profile
from rami_core.referee.engine import Game
from rami_core.words.errors import ERROR_CODES, RuleError
from tests.support.playout import KINDS, Attempt, Tally, playout

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
ROUNDS = int(os.environ.get("RAMI_PLAYOUT_ROUNDS", "100"))
QUICK_ROUNDS = int(os.environ.get("RAMI_PLAYOUT_QUICK_ROUNDS", "3"))
SEED = int(os.environ.get("RAMI_PLAYOUT_SEED", "1"))

_PROFILES = {name: load_profile(name) for name in PRESETS}


def player_counts(p: Profile) -> list[int]:
    return [n for n in range(p.players.min, p.players.max + 1) if p.allows_players(n)]


CASES = [(name, n) for name in PRESETS for n in player_counts(_PROFILES[name])]


def allowed_kinds(p: Profile) -> list[str]:
    """The kinds of action a bot must have had accepted at this table."""
    kinds = ["draw_stock", "meld"]
    if p.draw.from_discard:
        kinds.append("draw_discard")
    if p.table.lay_off and not p.opening.all_at_once:
        kinds.append("layoff")
    if p.jokers.swap == JokerSwap.to_hand and p.deck.jokers:
        kinds.append("swap")
    if p.table.rearrange:
        kinds.append("rearrange")
    kinds.append("discard" if p.discard.enabled else "end_turn")
    return kinds


# --------------------------------------------------------------------------- the checks


class InvariantFailure(AssertionError):
    pass


class Checker:
    """The observer given to the playout: checks the invariants after every attempt."""

    def __init__(self, preset: str, players: int, profile: Profile):
        self.where = f"preset={preset} players={players}"
        self.deck = sorted(build_deck(profile.deck.decks, profile.deck.jokers))
        self.json = ""  # the serialized state the last check saw
        self.snap: GameState | None = None  # a copy of that state, to compare values cheaply
        self.log_len = 0
        self.checked = 0
        self.refusals = 0
        self.valid: set = set()  # table readings already found valid (they are immutable)

    def fail(self, game: Game, att: Attempt | None, before: str, message: str) -> None:
        act = action_to_dict(att.action) if att is not None else None
        raise InvariantFailure(
            f"{message}\n  {self.where} game seed={game.state.seed} round={game.state.round_no}"
            f"\n  action={act} (note={att.note if att else ''})\n  state before={before}\n  state after={game.state.to_json()}"
        )

    def new_game(self, game: Game) -> None:
        """A new game or round was dealt (not through `apply`)."""
        self.log_len = len(game.log)
        self.check_state(game, None, "(deal)")

    def check_state(self, game: Game, att: Attempt | None, before: str) -> None:
        s = game.state
        after = s.to_json()
        self.check_cards(game, att, before)
        self.check_table(game, att, before)
        # The JSON round trip: the state read back equals this one, value for
        # value, so it serializes to the same text; at every turn end the
        # text itself is compared too.
        back = GameState.from_json(after)
        if back != s:
            self.fail(game, att, before, "the state read back from its JSON differs from the state")
        if (att is None or s.phase != LAY) and back.to_json() != after:
            self.fail(game, att, before, "the state does not round-trip through JSON")
        if s.phase == DRAW and (s.winner is not None or any(s.penalties)):
            self.fail(game, att, before, "a round in progress has a winner or penalties")
        self.json = after
        self.snap = s.copy()

    def __call__(self, game: Game, att: Attempt, err: RuleError | None) -> None:
        self.checked += 1
        before = self.json
        s = game.state
        if err is not None:
            self.refusals += 1
            if err.code not in ERROR_CODES:
                self.fail(game, att, before, f"refused with a code outside the contract: {err.code}")
            if att.expect is not None and ERROR_CODES.index(err.code) > ERROR_CODES.index(att.expect):
                self.fail(
                    game,
                    att,
                    before,
                    f"refused with {err.code}, expected {att.expect} (or a code listed before it)",
                )
            # The state must be the one checked before the action: compared
            # value for value (exact, and cheap), and byte for byte as JSON
            # on every eighth refusal (tests/test_refusals.py compares the
            # bytes every time).
            if s != self.snap or (self.refusals % 8 == 0 and s.to_json() != before):
                self.fail(game, att, before, f"refused action ({err.code}) changed the state")
            if len(game.log) != self.log_len:
                self.fail(game, att, before, "refused action changed the log")
            return
        if att.expect is not None:
            self.fail(
                game,
                att,
                before,
                f"an action wrong on purpose ({att.note}) was accepted; expected {att.expect}",
            )
        if len(game.log) != self.log_len + 1 or game.log[-1] is not att.action:
            self.fail(game, att, before, "an accepted action was not appended to the log")
        self.log_len = len(game.log)
        self.check_state(game, att, before)

    def check_cards(self, game: Game, att: Attempt | None, before: str) -> None:
        if sorted(game.state.all_cards()) != self.deck:
            have = Counter(game.state.all_cards())
            want = Counter(self.deck)
            self.fail(
                game,
                att,
                before,
                f"cards not conserved: extra {list((have - want).elements())}, missing {list((want - have).elements())}",
            )

    def check_table(self, game: Game, att: Attempt | None, before: str) -> None:
        mr = game.rules.melds
        for i, m in enumerate(game.state.table):
            r = m.reading
            if r in self.valid:
                continue
            if read_meld(m.cards, mr) is None:
                self.fail(game, att, before, f"table meld {i} is invalid: {[str(c) for c in m.cards]}")
            if len(r.stands) != len(r.cards):
                self.fail(
                    game, att, before, f"table meld {i}: {len(r.cards)} cards but {len(r.stands)} places"
                )
            for k, (c, st) in enumerate(zip(r.cards, r.stands)):
                if r.kind == RUN and st != (rank_at(r.start + k), r.suit):
                    self.fail(
                        game,
                        att,
                        before,
                        f"table meld {i}: place {k} stands for {st}, not its place in the run",
                    )
                if not c.is_joker and c.face != st:
                    self.fail(game, att, before, f"table meld {i}: {c} stands for {st}")
            self.valid.add(r)


# --------------------------------------------------------------------------- playouts, once each


_RESULTS: dict[tuple[str, int], tuple[Tally, float, int] | BaseException] = {}
JOBS = int(os.environ.get("RAMI_PLAYOUT_JOBS", str(min(2, os.cpu_count() or 1))))
_WALL: list[float] = []


def _play_case(key: tuple[str, int]) -> tuple[Tally, float, int]:
    preset, players = key
    profile = _PROFILES[preset]
    checker = Checker(preset, players, profile)
    t0 = time.process_time()
    tally = playout(profile, players, ROUNDS, SEED, observe=checker, on_new_game=checker.new_game)
    return tally, time.process_time() - t0, checker.checked


def _play_case_safe(key: tuple[str, int]) -> tuple[Tally, float, int] | BaseException:
    try:
        return _play_case(key)
    except InvariantFailure as e:  # reported by the test of that case
        return e
    except Exception as e:  # a crash: keep its traceback across processes
        return InvariantFailure(f"{type(e).__name__}: {e}\n{traceback.format_exc()}")


def run_case(preset: str, players: int) -> tuple[Tally, float, int]:
    key = (preset, players)
    if key not in _RESULTS:
        _RESULTS[key] = _play_case_safe(key)
    res = _RESULTS[key]
    if isinstance(res, BaseException):
        raise res
    return res


def _prefetch(keys: list[tuple[str, int]]) -> None:
    """Play the cases the session will need in JOBS processes at once."""
    keys = [k for k in keys if k not in _RESULTS]
    if JOBS <= 1 or len(keys) <= 1:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # The slowest tables first, so the processes finish together.
    weight = {"voleur": 4, "rami71": 2, "simple": 2, "kaluki": 2, "rami51": 2, "classic": 1}
    keys.sort(key=lambda k: -weight.get(k[0], 1) * (k[1] if k[0] != "voleur" else 3))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(JOBS, mp_context=multiprocessing.get_context("fork")) as pool:
        for key, res in zip(keys, pool.map(_play_case_safe, keys)):
            _RESULTS[key] = res
    _WALL.append(time.perf_counter() - t0)


class _Summary:
    """A plugin registered at run time: prints the tallies after the tests."""

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not _RESULTS:
            return
        tr = terminalreporter
        cpu = sum(r[1] for r in _RESULTS.values() if not isinstance(r, BaseException))
        wall = f", {sum(_WALL):.1f}s wall in {JOBS} processes" if _WALL else ""
        if tr.config.get_verbosity() < 1:
            rounds = sum(r[0].rounds for r in _RESULTS.values() if not isinstance(r, BaseException))
            tr.write_line(
                f"random playouts: {rounds} rounds at {len(_RESULTS)} tables, {cpu:.1f}s CPU{wall} "
                "(-v for the table of actions per kind)"
            )
            return
        tr.section(f"random playouts ({ROUNDS} rounds per preset and player count, seed {SEED})")
        for preset in PRESETS:
            keys = [k for k in _RESULTS if k[0] == preset]
            if not keys:
                continue
            total = Tally()
            secs = 0.0
            for k in keys:
                total.merge(_RESULTS[k][0])
                secs += _RESULTS[k][1]
            counts = ",".join(str(k[1]) for k in keys)
            tr.write_line(
                f"{preset} (players {counts}): {total.rounds} rounds, {total.rounds_ended} ended "
                f"({dict(total.round_ends)}), {total.turn_caps} at the turn cap, {total.turns} turns, "
                f"{secs:.1f}s CPU ({total.rounds / secs if secs else 0:.1f} rounds/s)"
            )
            cells = []
            for kind in KINDS:
                a, r = total.accepted[kind], total.refused[kind]
                if a or r:
                    cells.append(f"{kind} {a}/{r}")
            tr.write_line("    accepted/refused: " + ", ".join(cells))
            codes = Counter()
            for (_kind, code), n in total.codes.items():
                codes[code] += n
            tr.write_line("    refusals by code: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
            tr.write_line(
                "    wrong on purpose: " + ", ".join(f"{c} {n}" for c, n in sorted(total.noise.items()))
            )
        tr.write_line(f"playouts: {cpu:.1f}s CPU{wall}")


@pytest.fixture(scope="module", autouse=True)
def _summary(request):
    pm = request.config.pluginmanager
    if not pm.has_plugin("rami-playout-summary"):
        pm.register(_Summary(), "rami-playout-summary")
    needed: list[tuple[str, int]] = []
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.module is not request.module or "preset" not in params:
            continue
        if item.originalname not in (
            "test_random_playout_invariants",
            "test_bot_exercises_every_allowed_kind",
        ):
            continue  # the quick check plays its own few rounds in this process
        if "players" in params:
            needed.append((params["preset"], params["players"]))
        else:
            needed.extend((params["preset"], n) for n in player_counts(_PROFILES[params["preset"]]))
    _prefetch(list(dict.fromkeys(needed)))
    yield


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize("preset,players", CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_random_playout_invariants_quickly(preset: str, players: int) -> None:
    """The same invariants over a few rounds per table: the default run's check."""
    profile = _PROFILES[preset]
    checker = Checker(preset, players, profile)
    tally = playout(profile, players, QUICK_ROUNDS, SEED, observe=checker, on_new_game=checker.new_game)
    assert tally.rounds == QUICK_ROUNDS
    assert tally.stuck == 0, f"the bot could not end a turn, even by a timeout, in: {tally.stuck_states[:2]}"
    assert tally.rounds_ended + tally.turn_caps == tally.rounds
    assert checker.checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("preset,players", CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_random_playout_invariants(preset: str, players: int) -> None:
    tally, _secs, checked = run_case(preset, players)
    assert tally.rounds == ROUNDS
    assert tally.stuck == 0, f"the bot could not end a turn, even by a timeout, in: {tally.stuck_states[:2]}"
    # Every round ended or was stopped at the turn cap, and that is counted.
    assert tally.rounds_ended + tally.turn_caps == tally.rounds
    assert checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_bot_exercises_every_allowed_kind(preset: str) -> None:
    if ROUNDS < 50:
        pytest.skip("fewer than 50 rounds per table: rare kinds (a swap in rami71) may not come up")
    profile = _PROFILES[preset]
    total = Tally()
    for n in player_counts(profile):
        total.merge(run_case(preset, n)[0])
    missing = [k for k in allowed_kinds(profile) if total.accepted[k] == 0]
    assert not missing, (
        f"{preset}: the bot never had these accepted: {missing} (accepted {dict(total.accepted)})"
    )
    refused = [
        k for k in ("meld", "discard" if profile.discard.enabled else "end_turn") if total.refused[k] == 0
    ]
    assert not refused, f"{preset}: no refusal of {refused}: the bot must try wrong actions too"
    # The deliberately wrong actions of every sort were tried.
    for note in ("wrong_seat", "wrong_phase", "not_in_hand"):
        assert total.noise[note] > 0, f"{preset}: no {note} attempt"
