"""Properties of the legal moves against ``Game.apply``, over random games.

For every preset, every bundled house file and random valid profiles
(tests/support/random_profiles.py: card values, ace values, all-at-once,
run-and-set, pure run, jokers in the opening, discard and lay-off switches,
bundled plugins), games
are played by picking among the moves the engine offers, and at every step:

- every kind offered has a concrete move that apply accepts (each listed move
  is played on a copy of the state);
- every kind withheld carries a refusal, and every candidate a client might
  try for it (draws, each card of the hand discarded, each one-card lay off
  and swap, the bots' own openings, the solver's lay) is refused;
- the terminal's prompt, the table page's actions (the server view's
  ``may`` and ``legal``) and the learning environments' mask say what the
  engine says;
- wherever the solver's best opening meets the seat's opening need and the
  engine accepts it, the bots' opening search finds an opening the engine
  accepts too.

The default run plays a few short games; the long runs are marked slow
(``RAMI_LEGAL_PROPERTY_EXAMPLES`` sets their number of games).
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path

import pytest
from hypothesis import Phase, given, note, settings
from hypothesis import strategies as st

from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER, GameState
from rami_core.players.bots.candidates import opening_actions
from rami_core.profile.loader import load_profile
from rami_core.profile.model import Profile
from rami_core.referee.engine import Game
from rami_core.referee.gates import gate_discard
from rami_core.referee.handlers import discard_refusal, discards_unchecked, play_on
from rami_core.referee.legal import KINDS, LegalMoves, legal_moves, switched_on
from rami_core.solver import best_opening
from rami_core.words.errors import RuleError
from rami_core.words.messages import Messages
from tests.support.random_profiles import random_profile

ROOT = Path(__file__).resolve().parents[1]
PRESETS = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
HOUSE_FILES = sorted(str(p) for p in (ROOT / "variants" / "house").glob("*.yaml"))
SLOW_EXAMPLES = int(os.environ.get("RAMI_LEGAL_PROPERTY_EXAMPLES", "10"))

# The learning environments' mask is checked too where the [rl] extra is
# installed (pettingzoo, gymnasium); the engine, the terminal and the page are
# checked everywhere. test_the_rl_mask_is_checked says, as a skip with its
# reason, when the mask is left out.
RL = all(importlib.util.find_spec(m) is not None for m in ("pettingzoo", "gymnasium", "numpy"))


# ------------------------------------------------------------------ the engine's verdict


def accepted(game: Game, s: GameState, action: A.Action) -> bool:
    try:
        play_on(game.rules, s, action)
    except RuleError:
        return False
    return True


def probes(game: Game, s: GameState, seat: int) -> dict[str, list[A.Action]]:
    """Moves of each kind a client might try: from the hand and the table,
    the bots' openings and the solver's lay."""
    hand = list(dict.fromkeys(c.face_card for c in s.hands[seat]))
    table = range(len(s.table))
    out: dict[str, list[A.Action]] = {k: [] for k in KINDS}
    out["draw_stock"] = [A.Draw(seat, "stock")]
    out["draw_discard"] = [A.Draw(seat, "discard")]
    out["discard"] = [A.Discard(seat, c) for c in hand]
    out["end_turn"] = [A.EndTurn(seat)]
    out["layoff"] = [A.LayOff(seat, (A.LayOffItem(c, k),)) for c in hand for k in table]
    out["swap"] = [A.Swap(seat, (c,), k) for c in hand for k in table]
    if s.phase == LAY and s.turn == seat:
        for plan in opening_actions(game.rules, s, seat, s.hands[seat])[:3]:
            out["meld"] += [a for a in plan if isinstance(a, A.Meld)][:1]
        melds = best_opening(s.hands[seat], game.rules.melds, game.rules.opening_need(s, seat))
        if melds:
            out["meld"].append(A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds)))
    return out


def check_against_apply(game: Game, legal: LegalMoves) -> None:
    s = game.state
    seat = legal.seat
    assert seat is not None
    tried = probes(game, s, seat)
    on = switched_on(game.rules, KINDS)
    for kind in KINDS:
        if kind not in on:
            assert not legal.may(kind), f"{kind} is switched off by the profile, yet offered"
        offer = legal[kind]
        if offer.allowed:
            if kind == "next_round":
                continue  # not a seat's move: the game deals it (judged by check_round_over)
            # Offered with no example only where the search could not prove either way (exact false).
            assert offer.moves or not offer.exact, f"{kind} offered with no move"
            for move in offer.moves:
                assert accepted(game, s, move), f"{kind} offered {move}, refused by apply"
        else:
            assert offer.refusal is not None, f"{kind} withheld without a refusal"
            for move in tried[kind]:
                assert not accepted(game, s, move), f"{kind} withheld, yet apply accepts {move}"
    check_discards_in_place(game, s, tried["discard"])
    if s.phase != OVER:
        other = legal_moves(game, (seat + 1) % s.players)
        assert other.allowed() == [], "a seat not to play is offered moves"


def check_discards_in_place(game: Game, s: GameState, discards: list[A.Action]) -> None:
    """The in-place verdict on a discard (what the legal moves ask) is the
    handler's on a copy, refusal for refusal, and leaves the state as it was;
    where `discards_unchecked` says every card held passes the checks on a
    card, every card the kind's gate lets through is accepted."""
    before = s.to_json()
    try:
        gate_discard(game.rules, s, s.turn)
        unchecked = discards_unchecked(game.rules, s)
    except RuleError:
        unchecked = False
    for move in discards:
        assert isinstance(move, A.Discard)
        try:
            play_on(game.rules, s, move)
            on_copy = None
        except RuleError as e:
            on_copy = (e.code, e.reason, e.params)
        got = discard_refusal(game.rules, s, move)
        assert (None if got is None else (got.code, got.reason, got.params)) == on_copy, move
        if unchecked and move.seat == s.turn:
            assert on_copy is None, f"discards_unchecked, yet {move} is refused: {on_copy}"
        assert s.to_json() == before, f"judging {move} changed the state"


# ------------------------------------------------------------------ the clients


def check_terminal(game: Game, legal: LegalMoves) -> None:
    """The terminal's prompt names exactly the kinds the engine offers."""
    from rami_core.cards.text import CardStyle
    from rami_core.terminal.screen import Screen

    s = game.state
    seat = legal.seat
    assert seat is not None
    if s.phase == OVER:
        return
    msg = Messages("en")
    screen = Screen(game.rules, [f"p{i}" for i in range(s.players)], CardStyle("en", ascii_only=True), msg)
    lines = [t.plain for t in screen.actions_now(game.view(seat), game.rules.may_lay_freely(s, seat), legal)]
    prompt = lines[0]
    if s.phase == DRAW:
        assert (msg("can_draw_discard", card="").split("(")[0] in prompt) == legal.may("draw_discard")
        return
    words = {
        "meld": "what_meld",
        "layoff": "what_layoff",
        "swap": "what_swap",
        "rearrange": "what_rearrange",
        "discard": "what_discard",
        "end_turn": "what_end",
    }
    for kind, key in words.items():
        assert (msg(key) in prompt) == legal.may(kind), (
            f"the prompt and the engine differ on {kind}: {prompt}"
        )


def check_page(game: Game, legal: LegalMoves) -> None:
    """The table page's actions (the server view's `may` and `legal`) are the engine's."""
    from rami_core.server.client_view import build_view
    from rami_core.server.hub import Hub
    from rami_core.server.table import HostedTable, Seat

    s = game.state
    seats = [Seat("human", f"p{i}") for i in range(s.players)]
    table = HostedTable("t", game.profile.name, 0, seats, game, undo=False, created=0.0)
    hub = Hub(store=None)  # type: ignore[arg-type]  # a view reads no store
    for seat in (legal.seat, None):
        view = build_view(hub, table, seat)
        want = legal if seat is not None else legal_moves(game, None)
        # A view's searches share a state budget (legal.VIEW_STATES): a kind
        # whose search it cuts is offered by permission, marked inexact; where
        # the engine's own, larger search decides otherwise, the view may offer
        # it, never withhold what the engine offers.
        inexact = {k for k, o in view["legal"]["kinds"].items() if not o["exact"]}
        assert all(o["allowed"] for k, o in view["legal"]["kinds"].items() if k in inexact)
        exact_kinds = [k for k in want.allowed() if k not in inexact]
        assert [k for k in view["may"] if k not in inexact] == exact_kinds
        assert [k for k in view["legal"]["allowed"] if k not in inexact] == exact_kinds
        for kind in KINDS:
            offer = view["legal"]["kinds"][kind]
            if kind in inexact:
                continue
            assert offer["allowed"] == want.may(kind), kind
            if not offer["allowed"] and offer["refusal"] is not None:
                refusal = offer["refusal"]
                assert refusal["code"] and set(refusal["messages"]) == {"en", "fr"}


def check_mask(game: Game, legal: LegalMoves, oracle) -> None:
    """The learning environments' mask marks exactly the engine's moves of
    the kinds it lists whole (draws, discards, end of turn, one-card lay
    offs and swaps), and lets a draft start exactly when a lay may follow."""
    import numpy as np

    from rami_core.rl.draft import Draft
    from rami_core.rl.faces import face_index
    from rami_core.rl.layout import DRAW_DISCARD, DRAW_STOCK, END_TURN

    s = game.state
    if s.phase == OVER:
        return
    L = oracle.layout
    mask = oracle.mask(Draft())
    assert bool(mask[DRAW_STOCK]) == legal.may("draw_stock")
    assert bool(mask[DRAW_DISCARD]) == legal.may("draw_discard")
    assert bool(mask[END_TURN]) == legal.may("end_turn")
    discards = {
        L.discard_index(face_index(a.card)) for a in legal.moves("discard") if isinstance(a, A.Discard)
    }
    marked = {i for i in np.flatnonzero(mask) if L.decode(int(i)).kind == "discard"}
    assert marked == discards
    if s.phase == LAY:
        adds = [i for i in np.flatnonzero(mask) if L.decode(int(i)).kind in ("add", "add_joker_low")]
        if legal.may("meld"):
            assert adds, "the engine offers a meld, the mask starts no draft"
        if not any(legal.may(k) for k in ("meld", "swap", "rearrange")):
            assert not adds, "the mask starts a draft no lay can follow"


def check_opening_search(game: Game) -> None:
    """Where the solver's best opening is accepted, the bots find one the engine accepts."""
    s = game.state
    seat = s.turn
    rules = game.rules
    if s.phase != LAY or not rules.must_open(s, seat):
        return
    melds = best_opening(s.hands[seat], rules.melds, rules.opening_need(s, seat), score=rules.score_args)
    if not melds:
        return
    lay = A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))
    if not accepted(game, s, lay):
        return
    plans = opening_actions(rules, s, seat, s.hands[seat])
    assert plans, f"the solver opens with {lay.melds}, the bots' search finds nothing"
    assert any(accepted(game, s, a) for plan in plans for a in plan[:1]), "no opening of the bots is accepted"


# ------------------------------------------------------------------ games


def check_step(game: Game, oracle) -> LegalMoves:
    legal = legal_moves(game, game.state.turn)
    check_against_apply(game, legal)
    check_terminal(game, legal)
    check_page(game, legal)
    if oracle is not None:
        check_mask(game, legal, oracle)
    check_opening_search(game)
    return legal


def play(
    profile: Profile, players: int, seed: int, rng: random.Random, steps: int, *, mask: bool = RL
) -> None:
    game = Game.new(profile, players, seed=seed)
    oracle = None
    if mask:
        from rami_core.rl.layout import ActionLayout, table_slots
        from rami_core.rl.mask import TurnOracle

        oracle = TurnOracle(game, ActionLayout(table_slots(game.rules)))
    for _ in range(steps):
        s = game.state
        legal = check_step(game, oracle)
        if s.phase == OVER:
            if s.game_over:
                return
            game.next_round()
            continue
        kinds = [k for k in legal.allowed() if k != "next_round" and legal.moves(k)]
        if not kinds:
            # A house rule may leave a seat no move (discard_for_opening_only:
            # the discard taken without an opening to lay it in); only the
            # clock ends such a turn.
            game.apply(A.Timeout(s.turn))  # refused: a seat with no move at all
            continue
        lays = [k for k in ("meld", "layoff", "swap", "rearrange") if k in kinds]
        # Lay more often than not, so that openings, lay offs and swaps come up.
        kind = rng.choice(lays) if lays and rng.random() < 0.7 else rng.choice(kinds)
        game.apply(rng.choice(legal.moves(kind)))


def players_of(profile: Profile, rng: random.Random) -> int:
    counts = [n for n in range(2, 5) if profile.allows_players(n)]
    return rng.choice(counts) if counts else next(n for n in range(1, 9) if profile.allows_players(n))


@pytest.mark.extras  # the RL mask too where the [rl] extra is installed
@pytest.mark.parametrize("variant", PRESETS)
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_presets(variant: str, seed: int, rng: random.Random) -> None:
    profile = load_profile(variant)
    play(profile, players_of(profile, rng), seed, rng, 12)


@pytest.mark.parametrize("variant", ["rami51", "voleur"])
def test_the_rl_mask_is_checked(variant: str) -> None:
    """The mask's part of the property, asked for by name: skipped, saying so, without the [rl] extra."""
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
    profile = load_profile(variant)
    play(profile, 2, 7, random.Random(7), 12, mask=True)


@pytest.mark.extras
@pytest.mark.parametrize("path", HOUSE_FILES, ids=lambda p: Path(p).stem)
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_house_files(path: str, seed: int, rng: random.Random) -> None:
    profile = load_profile(path)
    play(profile, players_of(profile, rng), seed, rng, 8)


@pytest.mark.slow
@pytest.mark.parametrize("variant", PRESETS + HOUSE_FILES, ids=lambda p: Path(p).stem)
# No shrinking: a long game shrinks for many minutes; the failing seed is printed.
@settings(max_examples=SLOW_EXAMPLES, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seed=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_long_games(variant: str, seed: int, rng: random.Random) -> None:
    profile = load_profile(variant)
    play(profile, players_of(profile, rng), seed, rng, 150)


@settings(max_examples=4, deadline=None)
@given(draw=st.integers(0, 2**32), seed=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_random_valid_profiles(draw: int, seed: int, rng: random.Random) -> None:
    house = random_profile(random.Random(draw))
    note(str(house))
    play(house.profile, players_of(house.profile, rng), seed, rng, 10)


@pytest.mark.slow
@settings(
    max_examples=SLOW_EXAMPLES * 10, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate)
)
@given(draw=st.integers(0, 2**32), seed=st.integers(0, 10_000), rng=st.randoms(use_true_random=False))
def test_random_valid_profiles_long_games(draw: int, seed: int, rng: random.Random) -> None:
    house = random_profile(random.Random(draw))
    note(str(house))
    play(house.profile, players_of(house.profile, rng), seed, rng, 120)
