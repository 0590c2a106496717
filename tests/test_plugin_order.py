"""Which plugin judges first is defined: the profile's order of plugins.

Where two house plugins both refuse a move, the refusal reported is the first
one's in that order (tryfirst/trylast marks aside), so the code a club sees
does not depend on pluggy's registration details. docs/plugins.md says so.
"""

from __future__ import annotations

import pytest

from rami_core.game import actions as A
from rami_core.profile.hooks import PluginHost
from rami_core.profile.hookspecs import Refusal, hookimpl
from rami_core.profile.loader import load_profile
from rami_core.words.errors import RuleError

STRICT = ["no_joker_split", "joker_freed_from_hand", "joker_replay_new_meld"]


def judged_order(host: PluginHost, hook: str = "rami_table_acceptable") -> list[str]:
    return [impl.plugin_name for impl in host._impls(hook)]


def test_bundled_plugins_judge_in_the_profiles_order():
    profile = load_profile("voleur_002_strict")
    assert list(profile.active_plugins) == STRICT
    host = PluginHost(profile.active_plugins)
    assert judged_order(host) == STRICT
    reversed_host = PluginHost(dict(reversed(list(profile.active_plugins.items()))))
    assert judged_order(reversed_host) == STRICT[::-1]


class Refuser:
    def __init__(self, name: str):
        self.name = name

    @hookimpl
    def rami_table_acceptable(self, rules, state, seat, old_table, new_table, given, action):
        return Refusal("no", f"{self.name} says no")


class EagerRefuser(Refuser):
    @hookimpl(tryfirst=True)
    def rami_table_acceptable(self, rules, state, seat, old_table, new_table, given, action):
        return Refusal("no", f"{self.name} says no first")


def refusal_of(host: PluginHost) -> str:
    with pytest.raises(RuleError) as e:
        host.refuse_if(
            "rami_table_acceptable",
            rules=None,
            state=None,
            seat=0,
            old_table=[],
            new_table=[],
            given=[],
            action=A.EndTurn(0),
        )
    return e.value.code


def test_two_refusals_report_the_first_plugin_in_order():
    assert refusal_of(PluginHost({}, [Refuser("first"), Refuser("second")])) == "first.no"
    assert refusal_of(PluginHost({}, [Refuser("second"), Refuser("first")])) == "second.no"


def test_tryfirst_goes_before_the_order():
    assert refusal_of(PluginHost({}, [Refuser("first"), EagerRefuser("eager")])) == "eager.no"


def test_a_copied_host_keeps_the_order():
    import copy

    host = PluginHost(load_profile("voleur_002_strict").active_plugins)
    assert judged_order(copy.deepcopy(host)) == STRICT
