"""PettingZoo's AEC wrappers (the chain `rl.env()` builds), with the
attributes a learning loop reads at every sub-step served directly.

PettingZoo's `BaseWrapper` passes attributes through in `__getattr__`,
which Python calls only after the ordinary lookup has failed (an
AttributeError made and dropped per wrapper of the chain): `env.last()`
reads five of them, `env.step` two or three more. These subclasses name
those attributes on the class as non-data descriptors that do what
`__getattr__` would: an instance attribute of the wrapper still wins (a
non-data descriptor is looked up after the instance's dict), the
OrderEnforcingWrapper's "cannot be accessed before reset" is the same
AttributeError, and every other name, method and behaviour (order
enforcement, illegal-action handling, `unwrapped`, `str`) is PettingZoo's,
inherited. `isinstance(env, pettingzoo.utils.wrappers.OrderEnforcingWrapper)`
holds; the classes keep PettingZoo's names.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

# What a step of the loop reads through the chain (AECEnv.last, the wrappers' step).
PASSED = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "infos",
    "rewards",
    "_cumulative_rewards",
)
# What OrderEnforcingWrapper.__getattr__ refuses before reset (of PASSED).
BEFORE_RESET = frozenset(PASSED) - {"_cumulative_rewards"}


class _Through:
    """`wrapper.<name>`: the wrapped env's, as BaseWrapper.__getattr__ gives it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:  # the class has no such attribute (as without the descriptor)
            raise AttributeError(
                f"type object {owner.__name__ if owner else None!r} has no attribute {self.name!r}"
            )
        return getattr(obj.env, self.name)


class _AfterReset(_Through):
    """As _Through, refused before reset as OrderEnforcingWrapper.__getattr__ refuses it."""

    __slots__ = ()

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return super().__get__(obj, owner)
        if not obj._has_reset:
            raise AttributeError(f"{self.name} cannot be accessed before reset")
        return getattr(obj.env, self.name)


def _passed(cls: type, refuse_before_reset: frozenset[str] = frozenset()) -> type:
    for name in PASSED:
        setattr(cls, name, _AfterReset(name) if name in refuse_before_reset else _Through(name))
    return cls


class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """PettingZoo's, the loop's attributes passed through directly."""


class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's, the loop's attributes passed through directly."""


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's, the loop's attributes passed through directly (refused before reset as there)."""

    def __str__(self) -> str:
        # PettingZoo's, whose test `self.__class__ is OrderEnforcingWrapper` names its own class.
        if hasattr(self, "metadata"):
            return (
                str(self.env)
                if self.__class__ is OrderEnforcingWrapper
                else f"{type(self).__name__}<{self.env!s}>"
            )
        return repr(self)


_passed(TerminateIllegalWrapper)
_passed(AssertOutOfBoundsWrapper)
_passed(OrderEnforcingWrapper, BEFORE_RESET)
