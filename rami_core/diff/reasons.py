"""Why a setting that differs shows in no situation, in words a club can check.

A report that lists a setting with nothing beside it leaves the club asking
whether the search missed it. So each setting no situation and no deal row
shows gets the reason the search has evidence for, most certain first:

- the turn clock: the table keeps it, the engine judges no move by it;
- the game's winner and loser under ``game.target_outcome``: the same either
  way, whatever the scores (tests/test_diff_reasons.py checks it on random scores);
- no joker in one deck: a joker setting, or a bundled plugin that judges
  only a table meld holding a joker, means nothing to a table of both;
- a bundled plugin's needs unmet where it is on: it judges only
  rearrangements, and that file forbids them (the engine refuses one before
  asking any house rule); or only a joker freed by a swap and owed back that
  turn, and that file owes none (:data:`PLUGIN_NEEDS`);
- read after a swap only: the set's joker, a joker kept, who may swap mean
  nothing where neither file takes a joker back into the hand;
- inert: changed alone in A, or put back alone in B, it leaves every rule
  fact the referee reads (:class:`rami_core.profile.rules.Rules`) as it was at the
  seat counts both play, so no move can be judged otherwise;
- masked: its own search found situations where it alone changes a ruling,
  and on them A and B rule alike; the settings named are those that, changed
  too, undo its change there;
- not a table of both: where it alone changes a ruling, A or B cannot even
  set the table up (scores one per team against one per seat...);
- not found: none of the above, its own search tried so many states.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rami_core.diff.search import SearchResult
from rami_core.diff.settings import SettingChange, profile_with
from rami_core.diff.situation import Referee, Situation, disagreement
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.referee.position import SetupInvalid, closed_state

CLOCK = ("turn.", "plugins.timeout_penalty")  # what the table's clock decides, never a move's referee
SAME_OUTCOME = ("game.target_outcome",)  # same winner and loser whatever the scores (the module's doc)
NOT_FACTS = ("profile", "hooks")  # a Rules field that is the source, not a fact the engine reads
# Facts the engine reads only on a joker swap into the hand (gates.gate_swap
# refuses every swap first where Rules.swaps_to_hand is false): the settings
# behind them change nothing where neither file swaps a joker to the hand.
AFTER_SWAP = ("jokers.set_swap", "jokers.replay", "jokers.who")
# Of those, the ones a rearrangement is judged by as well.
ON_REBUILD = ("jokers.set_swap",)
# What a bundled plugin needs before its rami_table_acceptable can refuse
# anything, read from its code (tests/test_diff_reasons.py checks each claim:
# the profile with and without the plugin rule alike where the need is
# unmet, and apart where it is met):
# - "jokers": a table meld that held a joker before the lay (or a joker owed,
#   which only a table joker gives);
# - "rearrange": a Rearrange action (no_joker_split lets every other lay
#   through), which gates.gate_rearrange refuses before any house rule where
#   Rules.may_rearrange is false;
# - "owed": a joker in state.jokers_to_replay, filled only by a swap into the
#   hand where Rules.freed_joker_same_turn (jokers.replay: same_turn).
# A plugin not named here (a club's own) gets no such reason: its needs are its own.
PLUGIN_NEEDS: dict[str, tuple[str, ...]] = {
    "joker_freed_from_hand": ("jokers",),
    "joker_replay_new_meld": ("jokers", "owed"),
    "no_joker_split": ("jokers", "rearrange"),
}


@dataclass(frozen=True)
class Reason:
    """Why `path` shows in no situation: a words key of :mod:`.words` (``why_<code>``) and its parameters."""

    # clock | same_outcome | no_jokers | plugin_no_jokers | plugin_no_rearrange | plugin_no_owed | plugin_no_swap
    # | after_swap | inert | masked | unshared | not_found
    code: str
    params: dict[str, Any]


def shared_counts(a: Profile, b: Profile) -> list[int]:
    return [n for n in a.player_counts() if b.allows_players(n)]


def _facts(rules: Rules) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in fields(rules) if f.name not in NOT_FACTS}


def _same_facts(x: Profile | None, y: Profile, counts: list[int]) -> bool:
    """Whether `x` (None: not a coherent profile) leaves every rule fact of `y` as it is."""
    if x is None:
        return True  # no such profile: nothing the referee reads is changed on this side
    return all(_facts(rules_for(x, n)) == _facts(rules_for(y, n)) for n in counts)


def inert(change: SettingChange, a: Profile, b: Profile) -> bool:
    """Changed alone in A, and put back alone in B, the setting leaves every
    rule fact as it was at every seat count both play. A plugin is never
    called inert: what it reads is its own."""
    if change.plugin is not None:
        return False
    counts = shared_counts(a, b)
    forward = profile_with(a, change.path, change.b)
    back = profile_with(b, change.path, change.a)
    return bool(counts) and _same_facts(forward, a, counts) and _same_facts(back, b, counts)


def _setup_refusal(ref: Referee, setup: dict[str, Any]) -> Any | None:
    """Why `ref`'s profile cannot set `setup` up (a Said), or None where it can."""
    players = len(setup.get("hands") or [])
    rules = ref.rules(players)
    if rules is None:
        from rami_core.words.problems import Said

        return Said("text", text=f"{players} players")
    try:
        closed_state(rules, setup)
    except SetupInvalid as e:
        return e.said
    except ValueError as e:
        from rami_core.words.problems import said

        return said(str(e))
    return None


def maskers(
    change: SettingChange, changes: list[SettingChange], x: Referee, y: Referee, sit: Situation, forward: bool
) -> list[str]:
    """The other settings that undo `change` on `sit`: `x` and `y` differ in
    `change` alone and part on `sit`; with one more setting moved toward the
    other file (to B's value where `x` is A, to A's where `y` is B) in both,
    they no longer do."""
    out = []
    for t in changes:
        if t.path == change.path:
            continue
        value = t.b if forward else t.a
        px, py = profile_with(x.profile, t.path, value), profile_with(y.profile, t.path, value)
        if px is None or py is None:
            continue
        if disagreement(Referee(px), Referee(py), sit) is None:
            out.append(t.path)
    return out


def _has(rules: Rules | None, need: str) -> bool:
    """Whether rules (None: not played at that count) may meet a plugin's need."""
    if rules is None:
        return False
    if need == "rearrange":
        return rules.may_rearrange
    if need == "owed":
        return rules.swaps_to_hand and rules.freed_joker_same_turn
    return True


def _unmet_need(
    change: SettingChange, needs: tuple[str, ...], a: Referee, b: Referee, counts: list[int]
) -> Reason | None:
    """A plugin's need (other than jokers) that no file having the plugin
    meets at any seat count both play: with it on or off, that file rules
    alike on every move, so no situation can show it."""
    if not counts:
        return None
    sides = [(side, ref) for side, ref in (("A", a), ("B", b)) if change.plugin in ref.profile.active_plugins]
    for need in needs:
        if need == "jokers":
            continue
        if sides and not any(_has(ref.rules(n), need) for _, ref in sides for n in counts):
            return Reason(f"plugin_no_{need}", {"side": " & ".join(side for side, _ in sides)})
        if need == "owed":
            # A setup owes no joker (no setup key says one): the swap that owes it is a
            # move of the situation, and both files must accept it before the plugin judges.
            refusing = [
                side
                for side, ref in (("A", a), ("B", b))
                if not any((r := ref.rules(n)) is not None and r.swaps_to_hand for n in counts)
            ]
            if refusing:
                return Reason("plugin_no_swap", {"side": refusing[0]})
    return None


def reason_for(
    change: SettingChange, changes: list[SettingChange], a: Referee, b: Referee, result: SearchResult
) -> Reason:
    """The reason `change` shows in no situation of `result` (see the module's doc)."""
    if change.path.startswith(CLOCK):
        return Reason("clock", {})
    if change.path in SAME_OUTCOME:
        return Reason("same_outcome", {})
    counts = shared_counts(a.profile, b.profile)
    jokerless = [
        side
        for side, ref in (("A", a), ("B", b))
        if counts and not any((r := ref.rules(n)) is not None and r.deck_jokers for n in counts)
    ]
    if (change.path.startswith("jokers.") or change.path == "opening.jokers") and jokerless:
        return Reason("no_jokers", {"side": jokerless[0]})
    needs = PLUGIN_NEEDS.get(change.plugin or "", ())
    if "jokers" in needs and jokerless:
        return Reason("plugin_no_jokers", {"side": jokerless[0]})
    unmet = _unmet_need(change, needs, a, b, counts)
    if unmet is not None:
        return unmet
    if change.path in AFTER_SWAP and not any(
        ref.rules(n) is not None
        and (
            ref.rules(n).swaps_to_hand  # type: ignore[union-attr]
            # what frees a set's joker is judged on every rebuild too (rami_core/referee/table_jokers.py)
            or (change.path in ON_REBUILD and ref.rules(n).may_rearrange)  # type: ignore[union-attr]
        )
        for ref in (a, b)
        for n in shared_counts(a.profile, b.profile)
    ):
        return Reason("after_swap", {})
    if inert(change, a.profile, b.profile):
        counts = shared_counts(a.profile, b.profile)
        return Reason("inert", {"players": ", ".join(map(str, counts))})
    evidence = result.masked.get(change.path, [])
    refusals = []
    shared = []
    for x, y, sit in evidence:
        refused = [(side, r) for side, ref in (("A", a), ("B", b)) if (r := _setup_refusal(ref, sit.setup))]
        if refused:
            refusals.append(refused[0])
        else:
            shared.append((x, y, sit))
    for x, y, sit in shared:
        by = maskers(change, changes, x, y, sit, forward=x is a)
        if by:
            return Reason("masked", {"by": by})
    if shared:
        return Reason("masked", {"by": []})
    if refusals:
        side, refusal = refusals[0]
        return Reason("unshared", {"side": side, "said": refusal})
    return Reason("not_found", {"tried": result.own_tried.get(change.path, 0)})
