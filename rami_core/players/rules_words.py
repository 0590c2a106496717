"""The table's rules in words, read from the resolved `Rules` (never from a
variant's name): the terminal's "to open" line and the table page's rules
panel say the same things because both come from here.

A sentence per topic (the opening, what may be done once opened, the joker,
the discard, scoring, the game's end), each from the one reading of the
profile (`rami_core.profile.rules`), put into words by the message catalogue.
"""

from __future__ import annotations

from rami_core.profile.model import EmptyStock, GameEnd, JokerSwap, RamiSec, TargetOutcome
from rami_core.profile.rules import OpeningNeed, Rules
from rami_core.words.messages import Messages

TOPICS = ("opening", "after_opening", "joker", "discard", "scoring", "game_end")


def opening_words(need: OpeningNeed, keep_last: bool, msg: Messages) -> str:
    """What a first lay must hold ("at least 51 points, a pure run (no joker)")."""
    if need.all_at_once:
        return msg("req_all_at_once", but_one=msg("req_but_one") if keep_last else "")
    parts = []
    if need.points:
        parts.append(msg("req_points", points=need.points))
    if need.pure_run:
        parts.append(msg("req_pure"))
    if need.run_and_set:
        parts.append(msg("req_run_set"))
    if not need.jokers:
        parts.append(msg("req_no_joker"))
    return ", ".join(parts) or msg("req_any")


def _opening(r: Rules, m: Messages) -> str:
    if not r.has_opening:
        return m("rules_no_opening")
    out = [m("must_open", req=opening_words(r.opening, r.keep_last, m))]
    if r.draw_from_discard and not r.discard_draw_before_opening:
        out.append(m("rules_discard_after_opening"))
    return " ".join(out)


def _after_opening(r: Rules, m: Messages) -> str:
    if r.lays_all_at_once:
        return m("rules_all_at_once")
    what = []
    if r.new_melds_after_opening:
        what.append(m("rules_may_new_melds"))
    if r.may_lay_off:
        what.append(m("rules_may_lay_off"))
    if r.may_rearrange:
        what.append(m("rules_may_rearrange"))
    if not what:
        return m("rules_nothing_after")
    text = m("rules_after", what=", ".join(what))
    if not r.lay_in_opening_turn:
        text += " " + m("rules_not_opening_turn")
    return text


def _joker(r: Rules, m: Messages) -> str:
    if r.deck_jokers == 0:
        return m("rules_no_jokers")
    out = [m("rules_jokers", n=r.deck_jokers)]
    if r.joker_swap == JokerSwap.never:
        out.append(m("rules_swap_never"))
    elif r.joker_swap == JokerSwap.on_table:
        out.append(m("rules_swap_on_table"))
    else:
        out.append(m("rules_swap_to_hand"))
        if r.swap_needs_opening:
            out.append(m("rules_swap_opened"))
        if r.freed_joker_same_turn:
            out.append(m("rules_swap_same_turn"))
    out.append(m("rules_joker_penalty", n=r.joker_penalty))
    return " ".join(out)


def _discard(r: Rules, m: Messages) -> str:
    if not r.ends_with_discard:
        return m("rules_no_discard")
    out = [m("rules_discard")]
    if not r.draw_from_discard:
        out.append(m("rules_no_discard_draw"))
    if r.keep_last:
        out.append(m("rules_keep_last"))
    if not r.throw_back:
        out.append(m("rules_no_throw_back"))
    if r.taken_discard_must_be_laid:
        out.append(m("rules_taken_laid"))
    return " ".join(out)


def _scoring(r: Rules, m: Messages) -> str:
    if r.fixed_penalty is not None:
        out = [m("rules_fixed_penalty", n=r.fixed_penalty)]
    else:
        out = [m("rules_hand_penalty", ace=r.ace_points, court=r.court_points)]
    if r.positive_scores:
        out.append(m("rules_positive"))
    if r.rami_sec == RamiSec.double:
        out.append(m("rules_rami_sec_double"))
    elif r.rami_sec == RamiSec.bonus:
        out.append(m("rules_rami_sec_bonus", n=r.rami_sec_bonus))
    if r.empty_stock == EmptyStock.end_all_pay:
        out.append(m("rules_stock_all_pay"))
    elif r.empty_stock == EmptyStock.end_nobody_pays:
        out.append(m("rules_stock_nobody_pays"))
    return " ".join(out)


def _game_end(r: Rules, m: Messages) -> str:
    if r.game_end == GameEnd.single_round:
        return m("rules_single_round")
    if r.game_end == GameEnd.rounds:
        return m("rules_rounds", n=r.rounds)
    if r.positive_scores:
        return m("rules_target_highest", n=r.target)
    if r.target_outcome == TargetOutcome.reacher_loses:
        return m("rules_target_loses", n=r.target)
    return m("rules_target_lowest", n=r.target)


def rules_panel(rules: Rules, msg: Messages) -> list[dict[str, str]]:
    """The rules panel: one {topic, title, text} per topic of TOPICS."""
    said = {
        "opening": _opening,
        "after_opening": _after_opening,
        "joker": _joker,
        "discard": _discard,
        "scoring": _scoring,
        "game_end": _game_end,
    }
    return [{"topic": k, "title": msg(f"rules_topic_{k}"), "text": said[k](rules, msg)} for k in TOPICS]
