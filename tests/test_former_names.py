"""The modules that stood at the package's top before its folders existed
still import by their former names (a plugin written against them keeps
working), as the very module they became, with a DeprecationWarning that
names the new place."""

from __future__ import annotations

import importlib
import sys

import pytest

import rami_core
from rami_core.profile.model import Profile


@pytest.mark.parametrize("former", sorted(rami_core.FORMER_NAMES))
def test_a_former_name_is_the_module_it_became(former: str) -> None:
    old, new = f"rami_core.{former}", f"rami_core.{rami_core.FORMER_NAMES[former]}"
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_a_former_submodule_and_the_former_profile_module() -> None:
    sys.modules.pop("rami_core.bots.greedy", None)
    sys.modules.pop("rami_core.bots", None)
    with pytest.warns(DeprecationWarning):
        greedy = importlib.import_module("rami_core.bots.greedy")
    assert greedy is importlib.import_module("rami_core.players.bots.greedy")
    with pytest.warns(DeprecationWarning, match=r"rami_core\.profile\.model\.Profile"):
        from rami_core.profile import Profile as Former
    assert Former is Profile


def test_a_name_that_never_was_is_not_found() -> None:
    assert rami_core.current_name("rami_core.nowhere") is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rami_core.nowhere")
    with pytest.raises(ImportError):
        from rami_core.profile import NoSuchThing  # noqa: F401
