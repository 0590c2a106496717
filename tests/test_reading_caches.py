"""read_meld remembers its readings and best_opening its run windows across
calls: the caches are keyed by everything the answer depends on (the cards as
written and the meld rules; the rules, the jokers usable and the split
option), so a change of rules between calls is never answered from another
rules' entry, and the memo of readings stays bounded."""

from __future__ import annotations

import pytest

from rami_core.cards import melds, parse_cards
from rami_core.cards.melds import MeldRules, read_meld
from rami_core.profile.model import Opening
from rami_core.solver import SolverOptions, best_opening
from rami_core.solver.best_opening import _run_windows

WRAP = MeldRules(wrap=True)
NO_WRAP = MeldRules(wrap=False)
NO_HIGH_ACE = MeldRules(ace_high=False)


def test_a_remembered_reading_belongs_to_its_rules() -> None:
    wrap_run = parse_cards("KS AS 2S")
    high_run = parse_cards("QH KH AH")
    melds._READINGS.clear()
    fresh = read_meld(wrap_run, WRAP)
    assert fresh is not None and fresh.start == 13
    for _ in range(2):  # the second round is answered from the memo
        assert read_meld(wrap_run, WRAP) == fresh
        assert read_meld(tuple(wrap_run), WRAP) == fresh  # a tuple or a list: the same cards
        assert read_meld(wrap_run, NO_WRAP) is None
        assert read_meld(high_run, NO_WRAP) is not None
        assert read_meld(high_run, NO_HIGH_ACE) is None
    # the written order is part of the key: a set of the same cards reads otherwise
    assert read_meld(parse_cards("7S 7H 7D"), NO_WRAP) == read_meld(parse_cards("7D 7H 7S"), NO_WRAP)
    assert read_meld(parse_cards("2S 3S 4S"), NO_WRAP).cards == tuple(parse_cards("2S 3S 4S"))
    assert read_meld(parse_cards("4S 3S 2S"), NO_WRAP).cards == tuple(parse_cards("2S 3S 4S"))


def test_the_memo_of_readings_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(melds, "_READINGS_MAX", 3)
    melds._READINGS.clear()
    hands = ["2S 3S 4S", "5H 6H 7H", "8D 9D 10D", "JC QC KC", "AS AH AD"]
    for text in hands:
        assert read_meld(parse_cards(text), NO_WRAP) is not None
        assert len(melds._READINGS) <= 3
    assert read_meld(parse_cards(hands[0]), NO_WRAP) is not None  # dropped, read again


def test_openings_follow_the_rules_of_each_call_in_turn() -> None:
    hand = parse_cards("QS KS AS 2S 7D 8H")
    spec = Opening(points=0)
    for _ in range(2):
        wrap = best_opening(hand, WRAP, spec)
        plain = best_opening(hand, NO_WRAP, spec)
        low = best_opening(hand, NO_HIGH_ACE, spec)
        assert wrap is not None and sum(len(m) for m in wrap) == 4  # Q-K-A-2 wraps
        assert plain is not None and sum(len(m) for m in plain) == 3  # Q-K-A
        assert low is None  # the ace is low only: no run of three


def test_run_windows_follow_jokers_and_the_split_option() -> None:
    rules = MeldRules()
    few = _run_windows(rules, 0, True)
    many = _run_windows(rules, 3, True)
    full = _run_windows(rules, 0, False)
    longest = lambda ws: max(n for n, _, _ in ws[0])  # noqa: E731
    assert longest(few) == 5  # 2 * run_min - 1: longer runs split in two
    assert longest(many) == longest(full) == 14
    assert [len(ws) for ws in few] == [len(few[0])] * 4 and {f[1] for _, fs, _ in few[2] for f in fs} == {2}
    for n, faces, mask in full[1]:
        # the rank mask stands for the places only where no rank comes twice (A..K..A)
        assert mask == (None if n == 14 else sum(1 << r for r, _ in faces))
    hand = parse_cards("3S 4S 5S 6S 7S 8S")
    for options in (SolverOptions(split_long_runs=False), SolverOptions()):
        melds = best_opening(hand, rules, Opening(points=0), options=options)
        assert melds is not None and sum(len(m) for m in melds) == 6


def test_a_remembered_lay_off_belongs_to_its_meld_cards_and_rules() -> None:
    from rami_core.cards import Card

    run = read_meld(parse_cards("JS QS KS"), WRAP)
    assert run is not None
    ace = Card(1, 0, 0)
    melds._LAID_OFF.clear()
    for _ in range(2):  # the second round is answered from the memo
        wrapped = melds.lay_off_positional(run, [ace], [], WRAP)
        assert not isinstance(wrapped, str) and len(wrapped.cards) == 4
        high = melds.lay_off_positional(run, [ace], [], NO_WRAP)
        assert not isinstance(high, str) and high.end == 14
        refused = melds.lay_off_positional(run, [ace], [], NO_HIGH_ACE)
        assert isinstance(refused, str)  # a reason, remembered as such
        # another meld, the same card: its own answer
        low = read_meld(parse_cards("2S 3S 4S"), NO_HIGH_ACE)
        assert low is not None
        below = melds.lay_off_positional(low, [ace], [], NO_HIGH_ACE)
        assert not isinstance(below, str) and below.start == 1
        # a joker given with the face it stands for, or without one
        joker = Card(0, 4, 0)
        named = melds.lay_off_positional(run, [], [(joker, (10, 0))], NO_WRAP)
        assert not isinstance(named, str) and named.start == 10
        plain = melds.lay_off_positional(run, [], [(joker, None)], NO_WRAP)
        assert not isinstance(plain, str) and plain.start == 11
    # an entry that cannot be a key is read afresh, not refused
    unhashable = melds.lay_off_positional(run, [], [[joker, None]], NO_WRAP)  # type: ignore[list-item]
    assert unhashable == plain


def test_the_bots_single_lay_off_memo_follows_meld_card_and_rules() -> None:
    """melds.joins_meld (asked by the bots' lay-off search and Rules.could_join)
    remembers whether a meld takes a card, the cheap refusals (a card of
    another suit and rank) included, per meld, card and rules."""
    from rami_core.cards import parse_card
    from rami_core.cards.melds import _JOINS
    from rami_core.cards.melds import joins_meld as _takes

    run = tuple(parse_cards("JS QS KS"))
    sevens = tuple(parse_cards("7S 7H 7D"))
    _JOINS.clear()
    for _ in range(2):  # the second round is answered from the memo
        assert _takes(run, parse_card("AS"), NO_WRAP)
        assert not _takes(run, parse_card("AS"), NO_HIGH_ACE)
        assert not _takes(run, parse_card("AH"), NO_WRAP)  # another suit and rank: refused unread
        assert _takes(sevens, parse_card("7C"), NO_WRAP)
        assert not _takes(sevens, parse_card("7S"), NO_WRAP)  # the suit is there already
        assert not _takes(sevens, parse_card("8C"), NO_WRAP)
    assert sum(len(known) for _rules, known in _JOINS.values()) == 6  # per rules, meld and card


def test_the_faces_of_run_places_follow_suit_and_places(monkeypatch: pytest.MonkeyPatch) -> None:
    """bots.hand._run_faces remembers the faces at a mask of places per suit
    (place 14 is the high ace); the memo stays bounded."""
    from rami_core.players.bots import hand

    places = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 14
    for _ in range(2):  # the second round from the memo
        assert set(hand._run_faces(0, places)) == set(parse_cards("AS 2S 3S AS"))
        assert set(hand._run_faces(2, places)) == set(parse_cards("AD 2D 3D"))
        assert hand._run_faces(1, 1 << 13) == tuple(parse_cards("KH"))
    monkeypatch.setattr(hand, "_RUN_FACES_MAX", 4)
    for p in range(1, 15):
        assert hand._run_faces(3, 1 << p) == (hand.Card((p - 1) % 13 + 1, 3, 0),)
        assert len(hand._RUN_FACES) <= 4
    assert hand.meldable(parse_cards("QC KC AC 5D"), NO_WRAP) == frozenset(parse_cards("QC KC AC"))


def test_the_new_melds_of_a_lay_off_plan_follow_cards_rules_and_budget() -> None:
    """best_lay_offs remembers the solver's new melds of a rest of hand by the
    cards, the meld rules and the state budget: an answer not proven within a
    small budget stays unproven, and is not the answer for a larger one."""
    from rami_core.solver import best_lay_offs, lay_offs

    lay_offs._HAND_MELDS.clear()
    hand = parse_cards("5S 6S 7S 8S 9S 5H 5D 5C 6H 7H 8H 9D 9C 10S JK")
    for _ in range(2):  # the second round from the memo
        small = best_lay_offs([], hand, NO_WRAP, max_states=5)
        assert not small.optimal
        full = best_lay_offs([], hand, NO_WRAP)
        assert full.optimal and len(full.laid) == 15
    three = parse_cards("5S 6S 7S 9H")
    for _ in range(2):
        assert len(best_lay_offs([], three, NO_WRAP).laid) == 3
        assert best_lay_offs([], three, MeldRules(run_min=4)).laid == []


def test_a_kept_yaml_reading_is_a_fresh_copy_each_time() -> None:
    """The YAML reader keeps what it read by the text: a caller that changes
    the data or the locations it was given changes nothing for the next."""
    from rami_core.profile.loader import safe_yaml

    text = "name: kept\nopening:\n  points: 51\nmelds: [[a, b], [c]]\n"
    first = safe_yaml.load_yaml_text(text, "kept.yaml")
    first.data["opening"]["points"] = 0
    first.data["melds"][0].append("z")
    first.locations.clear()
    again = safe_yaml.load_yaml_text(text, "kept.yaml")
    assert again.data == {"name": "kept", "opening": {"points": 51}, "melds": [["a", "b"], ["c"]]}
    assert again.locations[("opening", "points")] == safe_yaml.Loc("kept.yaml", 3, 3)
    assert safe_yaml.load_yaml_text(text, "other.yaml").locations[()].file == "other.yaml"
    docs = safe_yaml.load_yaml_documents("a: 1\n---\nb: [2]\n", "two.yaml")
    docs[1].data["b"].append(3)
    assert [d.data for d in safe_yaml.load_yaml_documents("a: 1\n---\nb: [2]\n", "two.yaml")] == [
        {"a": 1},
        {"b": [2]},
    ]


def test_a_kept_yaml_reading_follows_the_limits_and_refusals_are_found_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An answer holds only under the limits it was read with, and a refused
    text is refused on every reading, the first as the next."""
    from rami_core.profile.loader import safe_yaml
    from rami_core.words.errors import ProfileError

    deep = "a:\n" + "".join("  " * i + f"  k{i}:\n" for i in range(6)) + "  " * 7 + "x: 1\n"
    assert safe_yaml.load_yaml_text(deep, "deep.yaml").data["a"]["k0"]["k1"]
    monkeypatch.setattr(safe_yaml, "MAX_DEPTH", 4)
    for _ in range(2):
        with pytest.raises(ProfileError, match=r"deep\.yaml"):
            safe_yaml.load_yaml_text(deep, "deep.yaml")
    monkeypatch.undo()
    assert safe_yaml.load_yaml_text(deep, "deep.yaml").data["a"]["k0"]["k1"]
    for _ in range(2):
        with pytest.raises(ProfileError):
            safe_yaml.load_yaml_text("a: [1\n", "broken.yaml")
    with pytest.raises(ProfileError):
        safe_yaml.load_yaml_text("a: 1\n---\nb: 2\n", "two.yaml")  # one document only, kept or not
    safe_yaml.load_yaml_documents("a: 1\n---\nb: 2\n", "two.yaml")
    with pytest.raises(ProfileError):
        safe_yaml.load_yaml_text("a: 1\n---\nb: 2\n", "two.yaml")


def test_the_kept_yaml_readings_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded in entries and in the characters of their texts, the oldest let
    go first; a text over the size a file may have to be kept is not kept."""
    from rami_core.profile.loader import safe_yaml

    monkeypatch.setattr(safe_yaml, "_KEEP_ENTRIES", 3)
    for i in range(10):
        safe_yaml.load_yaml_text(f"n: {i}\n", "bounded.yaml")
    assert len(safe_yaml._kept_docs) <= 3
    assert ("one", "n: 9\n", "bounded.yaml", None, safe_yaml._limits()) in safe_yaml._kept_docs
    monkeypatch.setattr(safe_yaml, "_KEEP_ENTRIES", 100)
    monkeypatch.setattr(safe_yaml, "_KEEP_CHARS", 100)
    for i in range(10):
        safe_yaml.load_yaml_text(f"k: {'x' * 30}{i}\n", "chars.yaml")
    assert sum(len(key[1]) for key in safe_yaml._kept_docs) <= 100
    assert safe_yaml._kept_chars == sum(len(key[1]) for key in safe_yaml._kept_docs)
    big = "k: " + "x" * (safe_yaml._KEEP_TEXT_CHARS + 1) + "\n"
    before = len(safe_yaml._kept_docs)
    assert safe_yaml.load_yaml_text(big, "big.yaml").data["k"].startswith("x")
    assert len(safe_yaml._kept_docs) == before
