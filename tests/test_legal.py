"""The legal-moves API (rami_core.referee.legal) against the engine's apply, and the
clients that ask it instead of deciding permissions themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rami_core.cards import parse_card
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.players.bots.candidates import opening_actions
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.handlers import play_on
from rami_core.referee.legal import COMPLETE_KINDS, KINDS, legal_moves, legal_moves_in
from rami_core.words.errors import RuleError

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ["rami51", "rami71", "voleur", "kaluki", "simple", "classic", "rami51_no_early_discard_draw"]


def _accepted(game: Game, action: A.Action) -> bool:
    try:
        play_on(game.rules, game.state, action)
    except RuleError:
        return False
    return True


def _probes(game: Game, seat: int) -> dict[str, list[A.Action]]:
    """Moves of each kind a client might try, from the hand and the table."""
    s = game.state
    hand = list(dict.fromkeys(c.face_card for c in s.hands[seat]))
    out: dict[str, list[A.Action]] = {k: [] for k in KINDS}
    out["draw_stock"] = [A.Draw(seat, "stock")]
    out["draw_discard"] = [A.Draw(seat, "discard")]
    out["discard"] = [A.Discard(seat, c) for c in hand]
    out["end_turn"] = [A.EndTurn(seat)]
    out["layoff"] = [A.LayOff(seat, (A.LayOffItem(c, k),)) for c in hand for k in range(len(s.table))]
    out["swap"] = [A.Swap(seat, (c,), k) for c in hand for k in range(len(s.table))]
    return out


def _check_step(game: Game) -> None:
    s = game.state
    seat = s.turn
    legal = legal_moves(game, seat)
    for kind in KINDS:
        offer = legal[kind]
        if offer.allowed and kind != "next_round":
            # no example only where the search could not prove either way (offered by permission)
            assert offer.moves or not offer.exact, kind
            for m in offer.moves:
                assert _accepted(game, m), (kind, m)
        else:
            assert offer.allowed or offer.refusal is not None, kind
            for m in _probes(game, seat)[kind]:
                assert not _accepted(game, m), (kind, m)
        if offer.allowed and kind in COMPLETE_KINDS:
            listed = set(offer.moves)
            for m in _probes(game, seat)[kind]:
                if m not in listed and kind not in ("layoff",):
                    assert not _accepted(game, m), (kind, m)
    # Another seat may do nothing while the round is on.
    if s.phase != OVER:
        other = legal_moves(game, (seat + 1) % s.players)
        assert other.allowed() == []


def _play(game: Game, rnd, steps: int) -> None:
    for _ in range(steps):
        s = game.state
        if s.phase == OVER:
            if s.game_over:
                return
            game.next_round()
            continue
        _check_step(game)
        legal = legal_moves(game, s.turn)
        kinds = [k for k in legal.allowed() if k != "next_round" and legal.moves(k)]
        # Prefer laying, then ending the turn: games move on.
        order = [k for k in ("meld", "layoff", "swap") if k in kinds] + [
            k for k in kinds if k not in ("meld", "layoff", "swap", "rearrange")
        ]
        if not order:
            # A seat may be left no move (the card taken from the discard pile
            # owed to the table, with no lay for it): only the clock ends the turn.
            game.apply(A.Timeout(s.turn))
            continue
        kind = order[0] if rnd.random() < 0.5 else rnd.choice(order)
        game.apply(rnd.choice(legal.moves(kind)))


@pytest.mark.parametrize("variant", PRESETS)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.randoms(use_true_random=False))
def test_offered_kinds_are_accepted_and_withheld_refused(variant: str, seed: int, pick) -> None:
    game = Game.new(load_profile(variant), 2, seed=seed)
    _play(game, pick, 30)


@pytest.mark.slow
@pytest.mark.parametrize("variant", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.randoms(use_true_random=False))
def test_offered_kinds_long_games(variant: str, seed: int, pick) -> None:
    game = Game.new(load_profile(variant), 2, seed=seed)
    _play(game, pick, 200)


def test_no_discard_draw_in_a_first_turn_without_early_discard_draws() -> None:
    game = Game.new(load_profile("rami51_no_early_discard_draw"), 2, seed=1)
    legal = legal_moves(game, game.state.turn)
    assert game.state.discard
    assert not legal.may("draw_discard")
    assert legal["draw_discard"].refusal is not None
    assert (
        legal["draw_discard"].refusal.code == "no_early_discard_draw.first_turn"
    )  # the house plugin judged it
    assert legal.allowed() == ["draw_stock"]


def test_voleur_has_no_discard_pile_nor_discard_draw() -> None:
    game = Game.new(load_profile("voleur"), 2, seed=1)
    assert not game.rules.has_discard_pile
    assert legal_moves(game, game.state.turn).allowed() == ["draw_stock"]


def test_kings_open_under_court_points_20() -> None:
    """A 60-point set of kings opens when courts are worth 20 and no pure run
    is asked: the engine offers the lay and the bots' opening search finds it."""
    profile = load_profile("rami51", ["scoring.court_points=20", "opening.pure_run=false"])
    game = Game.new(profile, 2, seed=1)
    s = game.state.copy()
    seat = s.turn
    cards = [
        parse_card(c) for c in ("KS", "KH", "KC", "2D", "4C", "6H", "8S", "TD", "3S", "5D", "7C", "9H", "JD")
    ]
    s.hands[seat] = cards + [parse_card("2S")]
    s.phase = LAY
    legal = legal_moves_in(game.rules, s, seat)
    assert legal.may("meld")
    (proof,) = legal.moves("meld")
    assert isinstance(proof, A.Meld)
    assert sorted(c.rank for m in proof.melds for c in m) == [13, 13, 13]
    found = opening_actions(game.rules, s, seat, s.hands[seat])
    assert found, "the bots find the opening the engine accepts"


def test_withheld_kind_says_why_in_both_languages() -> None:
    game = Game.new(load_profile("rami51"), 2, seed=2)
    data = legal_moves(game, game.state.turn).to_json()
    assert data["allowed"] == ["draw_stock", "draw_discard"]
    refusal = data["kinds"]["meld"]["refusal"]
    assert refusal["code"] == "wrong_phase" and refusal["reason"] == "draw_first"
    assert set(refusal["messages"]) == {"en", "fr"}
    assert refusal["messages"]["fr"].startswith("piochez")


def test_spectator_may_do_nothing() -> None:
    game = Game.new(load_profile("rami51"), 2, seed=2)
    assert legal_moves(game, None).allowed() == []


def test_next_round_offered_once_the_round_is_over() -> None:
    game = Game.new(load_profile("classic"), 2, seed=2)
    s = game.state
    assert s.phase == DRAW
    assert not legal_moves(game, 0).may("next_round")


# The permissions the engine gives through rami_core.referee.legal, which the
# clients moved onto it must not work out again from the rules' switches.
PERMISSION_FACTS = re.compile(
    r"\.(may_add_to_table|lay_offs_ever|swaps_to_hand|draw_from_discard|discard_draw_before_opening"
    r"|new_melds_after_opening|swap_needs_opening|opening\.all_at_once)\b"
)
CLIENTS = ["rami_core/server", "rami_core/terminal", "rami_core/rl", "rami_core/players/bots"]
# Lines that name a switch to describe the table, not to decide a move.
DESCRIBES = {
    "rami_core/server/client_view.py": 'the page\'s "rules" block describes the table (which controls to draw)',
}
# The bots and the hint choose moves, so every switch and bound a move
# depends on is theirs to ask of rami_core.referee.legal (bots.base.may, .bounds),
# never to read: the kinds allowed now, the ends of a turn, the opening need,
# the cards kept. (Strategy may read the profile's card values and meld rules.)
DECISION_FACTS = re.compile(
    r"""(\.|["'])(may_rearrange|may_lay_off|ends_with_discard|must_open|may_lay_freely"""
    r"""|lays_all_at_once|opening_need|kept_going_out|keep_last|partner_opened|lay_in_opening_turn"""
    r"""|joker_swap|taken_discard_must_be_laid|throw_back)\b"""
)
DECIDERS = ["rami_core/players/bots", "rami_core/players/hint.py"]


def permission_reads(root: Path, bases: list[str], facts: re.Pattern[str]) -> list[str]:
    """Code lines (comments left out) of the files under `bases` that read one of `facts`."""
    found = []
    for base in bases:
        top = root / base
        for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
            rel = path.relative_to(root).as_posix()
            if rel in DESCRIBES:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if facts.search(line.split("#")[0]):
                    found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_clients_ask_the_engine_what_a_seat_may_do() -> None:
    """Sibling of test_rules_facts' guard: a client that computes a
    permission the engine's legal moves already give fails here."""
    found = permission_reads(ROOT, CLIENTS, PERMISSION_FACTS) + permission_reads(
        ROOT, DECIDERS, DECISION_FACTS
    )
    assert not found, "ask rami_core.referee.legal instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("players/bots/candidates.py", "    if not rules.swaps_to_hand:"),
        ("players/bots/planning.py", "        if top is not None and rules.draw_from_discard:"),
        ("players/bots/planner.py", "        if s.table and rules.lay_offs_ever:"),
        ("players/bots/planner.py", "        if rules.may_rearrange:"),
        ("players/bots/expert.py", "        if rules.may_add_to_table(s, seat) and rules.may_lay_off:"),
        ("players/bots/candidates.py", "    if not rules.ends_with_discard:"),
        ("players/bots/random_bot.py", "        free = not rules.must_open(s, seat)"),
        ("players/bots/greedy.py", "        if not rules.may_lay_freely(s, view.seat):"),
        ("players/bots/candidates.py", "        need = len(hand) - rules.kept_going_out"),
        ("players/bots/planner.py", '        if getattr(self.rules, "keep_last"):'),
        ("players/hint.py", "    spec = rules.opening_need(st, view.seat)"),
    ],
)
def test_the_guard_catches_a_bot_that_works_out_a_permission(
    tmp_path: Path, module: str, planted: str
) -> None:
    """The guard is not vacuous: the bots' and the hint's sources, copied with
    one re-derivation of a permission planted (each the kind of read the bots
    made before they asked rami_core.referee.legal), fail it, at the planted line."""
    import shutil

    for base in CLIENTS + DECIDERS:
        if (tmp_path / base).exists():
            continue
        if (ROOT / base).is_file():
            (tmp_path / base).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / base, tmp_path / base)
            continue
        shutil.copytree(ROOT / base, tmp_path / base, ignore=shutil.ignore_patterns("__pycache__"))
    clean = permission_reads(tmp_path, CLIENTS, PERMISSION_FACTS) + permission_reads(
        tmp_path, DECIDERS, DECISION_FACTS
    )
    assert clean == []
    target = tmp_path / "rami_core" / module
    text = target.read_text(encoding="utf-8")
    target.write_text(text + f"\n\ndef _planted(rules, s, seat, view, hand, st):\n{planted}\n        pass\n")
    found = permission_reads(tmp_path, CLIENTS, PERMISSION_FACTS) + permission_reads(
        tmp_path, DECIDERS, DECISION_FACTS
    )
    assert {f.split(": ", 1)[1] for f in found} == {planted.strip()}
    assert all(f.startswith(f"rami_core/{module}:") for f in found)


def test_one_gate_per_kind_shared_by_the_engine_and_legal() -> None:
    """The whole-kind rules are written once (gates.KIND_GATES): every kind
    has its gates, and each handler calls its kind's gates, never the turn
    and phase checks itself, so what is offered and what is refused cannot
    drift apart."""
    import inspect

    from rami_core.referee import gates, handlers

    assert set(gates.KIND_GATES) == set(KINDS)
    by_kind = {
        "draw_stock": handlers.draw,
        "meld": handlers._meld,
        "layoff": handlers._lay_off,
        "swap": handlers._swap,
        "rearrange": handlers._rearrange,
        "discard": handlers._discard_checks,  # the handler's checks, also legal's in-place verdict
        "end_turn": handlers.end_turn,
    }
    assert "_discard_checks(rules, s, a, " in inspect.getsource(handlers.discard)
    # The discard's gate, then the checks on its card: the handler's, and
    # legal's in-place verdict (whose per-face part follows the kind's gate
    # run once by the legal moves).
    for caller in (handlers._discard_checks, handlers.discard_refusal):
        assert "gate_discard(rules, s, " in inspect.getsource(caller), caller.__name__
    assert "_discard_card_checks(rules, s, a, " in inspect.getsource(handlers._discard_checks)
    assert "discard_card_refusal(rules, s, a)" in inspect.getsource(handlers.discard_refusal)
    assert "_discard_card_checks(rules, s, a, " in inspect.getsource(handlers.discard_card_refusal)
    from rami_core.referee import legal

    source = inspect.getsource(legal._discard)
    assert 'kind_refusal(rules, s, seat, "discard")' in source and "judge=discard_card_refusal" in source
    for kind, handler in by_kind.items():
        source = inspect.getsource(handler)
        for gate in gates.KIND_GATES[kind]:
            assert f"{gate.__name__}(rules, s, " in source, (kind, gate.__name__)
        for check in ("check_turn(", "check_drawn(", "check_not_drawn(", "_allowed(rules)"):
            assert check not in source, (kind, check)
