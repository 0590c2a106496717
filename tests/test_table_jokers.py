"""A set's joker is judged on the table, whatever the action that moves it.

rami_core/referee/table_jokers.py reads, from the table before and after, which
jokers left a set; the engine refuses, for every lay action, a departure that
``jokers.set_swap`` forbids, with the swap's code. Over every preset and
bundled house file with jokers:

- a rearrangement that frees a set's joker is accepted exactly when the rule
  says so (both missing cards, or any card with ``set_swap: any``);
- where jokers also go to the hand by a swap, the swap of the same cards
  followed by a new meld with the freed joker (the same next table) gets the
  same verdict and, refused, the same code as the rearrangement.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rami_core.cards import parse_card
from rami_core.cards.melds import SET, Reading
from rami_core.game import actions as A
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.handlers import play_on
from rami_core.referee.position import start
from rami_core.referee.table_jokers import joker_departure_refusal, set_departures
from rami_core.words.errors import RuleError

ROOT = Path(__file__).resolve().parents[1]
PROFILES = sorted(str(p) for p in (ROOT / "variants").glob("*.yaml")) + sorted(
    str(p) for p in (ROOT / "variants" / "house").glob("*.yaml")
)

# (set on the table, cards given from the hand): a three-card set with one or
# both missing cards, a carré's joker with its missing card.
CASES = [
    (["9S", "9H", "JK"], ["9D"]),
    (["9S", "9H", "JK"], ["9D", "9C"]),
    (["9S", "9H", "9D", "JK"], ["9C"]),
    (["KS", "KD", "JK"], ["KC"]),
    (["KS", "KD", "JK"], ["KH", "KC"]),
]
NEW_MELD = ["QD", "KD"]  # the freed joker goes into Q♦ K♦ JK


def cards(texts):
    return [parse_card(t) for t in texts]


def table_for(profile_path: str, table: list[str], given: list[str]):
    profile = load_profile(profile_path)
    if profile.deck.jokers == 0 or not profile.allows_players(2):
        return None
    hand = given + NEW_MELD + ["2C"]
    setup = {
        "hands": [hand, ["3C", "8D", "QH"]],
        "stock": ["2D", "5S"],
        "opened": [True, True],
        "table": [{"cards": table, "owner": 1}],
    }
    try:
        game = start(profile, setup).game
        game.apply(A.Draw(0, "stock"))
    except RuleError:
        return None
    return game


def verdict(game: Game, actions: list[A.Action]) -> str:
    s = game.state
    try:
        for a in actions:
            s = play_on(game.rules, s, a)
    except RuleError as e:
        return e.code
    return "accepted"


def rule_says(game: Game, table: list[str], given: list[str]) -> bool:
    naturals = [t for t in table if t != "JK"] + given
    return game.rules.set_swap_any or len(naturals) == 4


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("case", CASES, ids=lambda c: " ".join(c[0]) + " + " + " ".join(c[1]))
def test_a_sets_joker_is_judged_alike_by_swap_and_rearrangement(path, case):
    table, given = case
    game = table_for(path, table, given)
    if game is None:
        pytest.skip("the profile has no jokers, no two-player game, or no such turn")
    rules = game.rules
    full_set = [t for t in table if t != "JK"] + given
    rebuild = A.Rearrange(0, (tuple(cards(full_set)), tuple(cards(NEW_MELD + ["JK"]))))
    by_rebuild = verdict(game, [rebuild])
    swap = A.Swap(0, tuple(cards(given)), 0)
    by_swap = verdict(game, [swap, A.Meld(0, (tuple(cards(NEW_MELD + ["JK"])),))])
    allowed = rule_says(game, table, given)
    if rules.may_rearrange:
        if allowed:  # accepted, or refused by a house plugin's own rule (a code "plugin.code")
            assert by_rebuild == "accepted" or "." in by_rebuild, by_rebuild
        else:
            assert by_rebuild == "joker_swap_forbidden"
    if rules.swaps_to_hand:
        if allowed:
            assert by_swap == "accepted" or "." in by_swap, by_swap
        else:
            assert by_swap == "joker_swap_forbidden"
        if rules.may_rearrange:
            assert by_swap == by_rebuild


def reading(texts: list[str], kind: str = SET, rank: int = 9) -> Reading:
    cs = tuple(cards(texts))
    return Reading(kind, cs, tuple(c.face for c in cs), rank=rank)


def test_departures_follow_a_set_by_its_natural_cards():
    before = [reading(["9S", "9H", "JK"])]
    # completed and the joker kept: nothing left
    assert set_departures(before, [reading(["9S", "9H", "9D", "JK"])]) == []
    # one card given, the joker gone elsewhere
    (d,) = set_departures(before, [reading(["9S", "9H", "9D"]), reading(["QD", "KD", "JK"], "run", 0)])
    assert (d.meld, d.jokers, d.naturals_after) == (0, 1, 3)
    # broken up into runs: every joker left, no set continues it
    (d,) = set_departures(
        before, [reading(["9S", "10S", "JS"], "run", 0), reading(["9H", "10H", "JK"], "run", 0)]
    )
    assert d.naturals_after == 0
    assert joker_departure_refusal(False, before, [reading(["9S", "9H", "9D"])]) is not None
    assert joker_departure_refusal(True, before, [reading(["9S", "9H", "9D"])]) is None
    assert joker_departure_refusal(False, before, [reading(["9S", "9H", "9D", "9C"])]) is None


RUN_EXACT = (["5H", "JK", "7H"], ["6H"], ["5H", "6H", "7H"])  # the joker's own card takes its place
RUN_OTHER = (["5H", "6H", "JK"], ["4H"], ["4H", "5H", "6H"])  # another card: the run stands without it


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("case", [RUN_EXACT, RUN_OTHER], ids=["exact card", "another card"])
def test_a_runs_joker_is_judged_alike_by_swap_and_rearrangement(path, case):
    table, given, run_after = case
    game = table_for(path, table, given)
    if game is None:
        pytest.skip("the profile has no jokers, no two-player game, or no such turn")
    rules = game.rules
    rebuild = A.Rearrange(0, (tuple(cards(run_after)), tuple(cards(NEW_MELD + ["JK"]))))
    by_rebuild = verdict(game, [rebuild])
    exact = case is RUN_EXACT
    if rules.may_rearrange:
        if rules.swaps_to_hand and not exact:
            assert by_rebuild == "joker_swap_forbidden"  # won back only by the card it stands for
        else:
            assert by_rebuild == "accepted" or "." in by_rebuild, by_rebuild
    if exact and rules.swaps_to_hand:
        by_swap = verdict(
            game, [A.Swap(0, tuple(cards(given)), 0), A.Meld(0, (tuple(cards(NEW_MELD + ["JK"])),))]
        )
        assert by_swap == "accepted" or "." in by_swap, by_swap
        if rules.may_rearrange:
            assert by_swap == by_rebuild


def test_a_split_run_keeps_its_joker_with_its_own_cards():
    from rami_core.cards.melds import read_meld
    from rami_core.profile.resolve import rules_for
    from rami_core.referee.table_jokers import run_departures

    meld_rules = rules_for(load_profile("voleur_002"), 2).melds

    def run(texts):
        r = read_meld(cards(texts), meld_rules)
        assert r is not None
        return r

    before = [run(["5H", "6H", "7H", "JK", "9H"])]
    assert run_departures(before, [run(["5H", "6H", "7H"]), run(["8H", "JK", "9H"])]) == []
    (d,) = run_departures(before, [run(["5H", "6H", "7H", "8H", "9H"]), run(["QD", "KD", "JK"])])
    assert (d.jokers, d.replaced) == (1, 1)
    (d,) = run_departures(
        before, [run(["5H", "6H", "7H"]), run(["9H", "10H", "JH"]), run(["QD", "KD", "JK"])]
    )
    assert (d.jokers, d.replaced) == (1, 0)
