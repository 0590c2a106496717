"""The reasons `rami diff` gives for a setting no situation shows, each
checked against what it claims: a masked setting does change a ruling alone
and A and B do rule alike there; an inert one changes no rule fact; the
winner and loser are the same under either target outcome on any scores."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rami_core.cli import main
from rami_core.diff.deal import deal_difference, shown_by_deal
from rami_core.diff.reasons import Reason, inert, reason_for
from rami_core.diff.search import Search
from rami_core.diff.settings import moved, settings_diff
from rami_core.diff.situation import Referee, disagreement
from rami_core.profile.loader import load_profile
from rami_core.profile.model import TargetOutcome
from rami_core.profile.resolve import rules_for


def reasons(a: str, b: str, budget: int = 300) -> dict[str, Reason]:
    pa, pb = load_profile(a), load_profile(b)
    ra, rb = Referee(pa), Referee(pb)
    changes = settings_diff(pa, pb)
    result = Search(ra, rb, changes, 0, budget).run()
    explained = {p for f in result.found for p in f.causes}
    deal = deal_difference(pa, pb, 0)
    out = {}
    for c in changes:
        if c.path not in explained and not shown_by_deal(c.path, deal):
            why = reason_for(c, changes, ra, rb, result)
            out[c.path] = why
            if why.code == "masked":  # the evidence: the setting alone parts two referees, A and B do not
                evidence = result.masked[c.path]
                assert evidence
                for x, y, sit in evidence:
                    assert disagreement(x, y, sit) is not None
                    assert disagreement(ra, rb, sit) is None
    return out


def test_voleur_002_set_swap_is_masked_by_the_swap_voleur_forbids():
    why = reasons("voleur", "voleur_002")
    assert why["jokers.set_swap"] == Reason("masked", {"by": ["jokers.swap"]})
    assert why["turn.time_limit"].code == "clock"
    assert set(why) == {"jokers.set_swap", "turn.time_limit"}


def test_a_team_target_against_a_game_of_seats_is_no_table_of_both():
    why = reasons("rami51", "rami51_atlas")
    assert why["game.team_target"].code == "unshared"
    assert why["game.target_outcome"].code == "same_outcome"


def test_a_joker_setting_against_a_deck_without_jokers():
    assert reasons("classic", "kaluki", budget=60)["jokers.swap"] == Reason("no_jokers", {"side": "A"})


def test_a_setting_read_only_beside_another_is_inert_where_neither_has_it():
    # a team game's target where neither file plays in teams: every rule fact read is the same
    a, b = load_profile("rami51"), load_profile("rami51", ["game.team_target=300"])
    (change,) = settings_diff(a, b)
    assert inert(change, a, b)
    a, b = load_profile("rami71"), load_profile("rami71", ["game.team_target=300"])
    (change,) = settings_diff(a, b)
    assert not inert(change, a, b)  # rami71 plays two teams at four


def test_a_setting_that_holds_only_with_another_is_moved_with_it():
    # rami71 goes out below its points only with a run kept free of the discard taken:
    # classic's opening cannot take the one without the other
    a, b = load_profile("classic"), load_profile("rami71")
    changes = settings_diff(a, b)
    (need,) = [c for c in changes if c.path == "opening.go_out_run_without_taken_discard"]
    got = moved(a, need, changes, to_b=True)
    assert got is not None and got[1] == ("opening.go_out_below_points",)
    assert moved(a, need, [need], to_b=True) is None  # alone, no coherent profile


def test_the_reasons_print_in_the_readers_language():
    out = CliRunner().invoke(main, ["diff", "voleur", "voleur_002", "--lang", "fr"], catch_exceptions=False)
    assert "Réglages qu'aucune situation ne montre (2) :" in out.output
    assert "jokers.set_swap : masqué par jokers.swap" in out.output
    assert "la pendule du tour est tenue par la table" in out.output


@pytest.mark.parametrize("positive", [False, True])
@given(
    scores=st.lists(st.integers(0, 700), min_size=2, max_size=5),
    target=st.integers(1, 600),
)
def test_the_target_outcome_never_changes_the_winner_or_the_loser(positive, scores, target):
    """What the `same_outcome` reason claims, on any scores and target."""
    p = load_profile("rami51")
    r = rules_for(p, len(scores))
    rules = [
        r.__class__(**{**r.__dict__, "target": target, "target_outcome": o, "positive_scores": positive})
        for o in TargetOutcome
    ]
    assert len({x.game_winner(scores) for x in rules}) == 1
    assert len({x.game_loser(scores) for x in rules}) == 1
