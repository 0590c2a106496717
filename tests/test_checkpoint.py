"""Game.checkpoint / rollback: an app's undo within a turn leaves no trace."""

from __future__ import annotations

from rami_core.game import actions as A
from rami_core.players.savegame import from_save, to_save
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def test_rollback_restores_state_log_and_events_and_the_save_replays():
    g = Game.new(load_profile("classic"), 2, seed=11)
    seat = g.state.turn
    g.apply(A.Draw(seat, "discard"))
    before = (g.state.to_json(), list(g.log), list(g.events))
    cp = g.checkpoint()
    g.apply(A.Discard(seat, g.state.hands[seat][0]))
    assert g.state.to_json() != before[0]
    g.rollback(cp)
    assert (g.state.to_json(), list(g.log), list(g.events)) == before
    # The checkpoint is not consumed: it can be rolled back to again after other moves.
    g.apply(A.Discard(seat, g.state.hands[seat][-1]))
    g.rollback(cp)
    assert g.state.to_json() == before[0]
    # A save made after the rollback replays to the same state.
    g.apply(A.Discard(seat, g.state.hands[seat][1]))
    assert from_save(to_save(g)).state.to_json() == g.state.to_json()


def test_extra_save_keys_are_covered_by_the_checksum():
    g = Game.new(load_profile("rami51"), 2, seed=2)
    data = to_save(g, extra={"play": {"lang": "fr"}})
    assert from_save(data).state.to_json() == g.state.to_json()
    data["play"]["lang"] = "en"
    try:
        from_save(data)
    except ValueError as e:
        assert "checksum" in str(e)
    else:
        raise AssertionError("an edited extra key must break the checksum")
