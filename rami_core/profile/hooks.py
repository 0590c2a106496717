"""One plugin manager per game: finding, configuring and calling house rules.

Plugins are found among the bundled ones (`rami_core.plugins`) and by the
entry-point group `rami`; a profile names them with their settings, each
plugin validating its own settings with its pydantic model. Code from a
module path is loaded only when a caller (the CLI's `--plugin`, or the API)
passes the object in: never because a YAML file says so.

Every call to a plugin goes through :meth:`PluginHost._call`, the one guard:
an exception, a value of the wrong type or an impossible value (penalties of
the wrong length, a verdict that is not a boolean, a hand cost that is not a
non-negative whole number) becomes a :class:`PluginError` naming the plugin and
the hook. Hooks that judge (the ``firstresult`` ones) must not change the state
they are shown: a snapshot of the state is taken before the call (the turn
machine's own working copy, cheap) and compared with the state after, and a
change is a PluginError too. Hooks that may adjust the state
(``rami_deal``, ``rami_timeout``) must conserve the cards: none created, none
lost. The engine works on a copy and commits only after every hook has run, so
a PluginError leaves the game as it was.

The ``firstresult`` marks of the hook specs are honoured: a ``firstresult`` hook
is asked plugin by plugin (:meth:`PluginHost.decide`, the first opinion wins,
so that a refusal is traced to its plugin) and the others are called on every
plugin (:meth:`PluginHost.call_all`); calling a hook the other way is a bug in
rami and raises InternalError. The order is pluggy's own (last registered
first, tryfirst and trylast honoured).
"""

from __future__ import annotations

import difflib
import functools
import importlib
import os
import pickle
import pkgutil
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

import pluggy
from pydantic import BaseModel, ValidationError

from rami_core.game.state import GameState
from rami_core.profile import hookspecs
from rami_core.profile.hookspecs import PluginSettings, Refusal
from rami_core.words.errors import ERROR_CODES, InternalError, Problem, ProfileError, RamiError, RuleError
from rami_core.words.problems import Said, from_validation
from rami_core.words.refusals import Reason

ENTRY_POINT_GROUP = "rami"

NoSettings = PluginSettings  # a plugin with no `Settings` takes none


class PluginError(RamiError):
    """A plugin failed while a hook ran: a bug in that plugin, named with the hook."""

    def __init__(self, plugin: str, hook: str, error: BaseException | str):
        self.plugin = plugin
        self.hook = hook
        self.error = error
        what = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        what = " ".join(str(what).split())  # one line, whatever the plugin's message holds
        if len(what) > 200:
            what = what[:197] + "..."
        super().__init__(f"plugin {plugin!r} failed in hook {hook}: {what}")
        self.what = what

    @property
    def said(self) -> Said:
        """The failure as a problem (rami_core.words.problems): the plugin's own
        words, or a Said where the error carries one (a scenario's reshuffle)."""
        error = self.error
        detail: Said
        if isinstance(error, BaseException) and error.args and isinstance(error.args[0], Said):
            detail = error.args[0]
        else:
            detail = Said("text", text=self.what)
        return Said("plugin_failed_hook", plugin=repr(self.plugin), hook=self.hook, error=detail)


# --------------------------------------------------------------------------- discovery


@functools.lru_cache(maxsize=1)
def bundled_plugins() -> dict[str, type]:
    """The house rules shipped with rami, by name (their modules are imported once)."""
    from rami_core.files.resources import plugins_package

    package = plugins_package()

    found: dict[str, type] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        cls = getattr(module, "Plugin", None)
        if cls is not None:
            found[getattr(cls, "name", info.name)] = cls
    return found


def installed_plugins() -> dict[str, Any]:
    """Plugins installed by other packages under the entry-point group `rami` (not loaded yet)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def available_plugins() -> dict[str, Any]:
    out: dict[str, Any] = dict(installed_plugins())
    out.update(bundled_plugins())
    return out


def plugin_class(name: str) -> type:
    bundled = bundled_plugins()
    if name in bundled:
        return bundled[name]
    found = available_plugins()
    if name not in found:
        near = difflib.get_close_matches(name, list(found), n=1)
        raise ProfileError(
            Problem(
                "<profile>",
                None,
                None,
                f"plugins.{name}",
                Said("plugin_unknown", name=repr(name)),
                near[0] if near else None,
            )
        )
    obj = found[name]
    if not isinstance(obj, type):
        try:
            obj = obj.load()
        except Exception as e:  # an installed package that fails to import
            raise ProfileError(
                Problem(
                    "<profile>", None, None, f"plugins.{name}", Said("plugin_failed_load", error=_failure(e))
                )
            ) from None
    return obj


def settings_model(cls: type) -> type[BaseModel]:
    return getattr(cls, "Settings", NoSettings)


def make_plugin(name: str, settings: dict[str, Any] | None) -> Any:
    cls = plugin_class(name)
    model = settings_model(cls)
    try:
        parsed = model.model_validate(settings or {})
    except ValidationError as e:
        problems = [
            Problem(
                "<profile>",
                None,
                None,
                ".".join(["plugins", name, *map(str, err["loc"])]),
                from_validation(err),
            )
            for err in e.errors(include_url=False)
        ]
        raise ProfileError(problems) from None
    try:
        return cls(parsed)
    except Exception as e:
        raise ProfileError(
            Problem(
                "<profile>", None, None, f"plugins.{name}", Said("plugin_failed_start", error=_failure(e))
            )
        ) from None


def _failure(e: BaseException) -> str:
    """A plugin's exception as a problem names it: its class and its own words, on one line."""
    text = " ".join(str(e).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def check_plugins(plugins: dict[str, dict[str, Any]]) -> None:
    """Refuse unknown plugins and bad plugin settings, as a profile error."""
    problems: list[Problem] = []
    for name, settings in plugins.items():
        try:
            make_plugin(name, settings)
        except ProfileError as e:
            problems.extend(e.problems)
    if problems:
        raise ProfileError(problems)


# --------------------------------------------------------------------------- calling


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_hand_cost(value: Any, kwargs: dict[str, Any]) -> str | None:
    if not _whole(value) or value < 0 or value > 10**9:
        return f"returned {value!r:.60}; expected None or a non-negative whole number"
    return None


def _check_round_scores(value: Any, kwargs: dict[str, Any]) -> str | None:
    n = len(kwargs["penalties"])
    if not isinstance(value, (list, tuple)) or len(value) != n:
        return f"returned {value!r:.60}; expected None or a list of {n} whole numbers, one per seat"
    if not all(_whole(x) and abs(x) <= 10**9 for x in value):
        return f"returned {value!r:.60}; every penalty must be a whole number"
    return None


def _check_verdict(value: Any, kwargs: dict[str, Any]) -> str | None:
    if not isinstance(value, bool):
        return f"returned {value!r:.60}; expected None, True or False"
    return None


def _check_refusal(value: Any, kwargs: dict[str, Any]) -> str | None:
    if value is True or isinstance(value, (Refusal, str)):
        return None
    return f"returned {value!r:.60}; expected None, a Refusal or a reason string"


# What a deciding hook may answer (None, "no opinion", is always allowed).
def _check_reshuffle(result: Any, kwargs: dict[str, Any]) -> str | None:
    """A reshuffle returns the very cards it was given, each once, in a list."""
    if not isinstance(result, list):
        return f"expected a list of cards, got {type(result).__name__}"
    if Counter(result) != Counter(kwargs["cards"]):
        return "a reshuffle must return exactly the cards it was given, in a new order"
    return None


RESULT_CHECKS: dict[str, Callable[[Any, dict[str, Any]], str | None]] = {
    "rami_hand_cost": _check_hand_cost,
    "rami_round_scores": _check_round_scores,
    "rami_game_over": _check_verdict,
    "rami_draw_allowed": _check_refusal,
    "rami_meld_valid": _check_refusal,
    "rami_opening_met": _check_refusal,
    "rami_table_acceptable": _check_refusal,
    "rami_discard_allowed": _check_refusal,
    "rami_reshuffle": _check_reshuffle,
}

# Hooks that may adjust the state they are given, as long as no card is created or lost.
ADJUSTING_HOOKS = frozenset({"rami_deal", "rami_timeout"})


def _snapshot(state: Any) -> Any:
    """What a state holds before a judging hook, to compare after it (`_unchanged`).

    A GameState's fields are scalars, immutable values (cards, table melds) and
    lists of them (hands: lists of lists); its ``copy`` copies every list, so
    the copy's fields keep the old contents whatever a plugin does to the
    state's lists, and comparing the fields afterwards (list equality, at C
    speed, identical items first) finds any change. Anything else shown as a
    state is compared by a full serialisation."""
    if type(state) is GameState:
        return state.fields_copy()
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def _unchanged(state: Any, snapshot: Any) -> bool:
    if isinstance(snapshot, dict):
        return type(state) is GameState and state.__dict__ == snapshot
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL) == snapshot


def _cards_of(state: Any) -> Counter:
    return Counter(state.all_cards())


class _Manager(pluggy.PluginManager):
    """pluggy's manager, reading the hook marks of rami's own code once.

    Registering a plugin makes pluggy look up every attribute of it, without
    running descriptors (``inspect.getattr_static``): most of the cost of
    building a game's host. The marks of rami's hook specs and of the bundled
    plugins' classes are fixed when their modules are imported, so they are
    read once per class and attribute name and copied from then on (pluggy
    completes the options in place). Any other plugin, and any attribute held
    by the plugin object itself, is read by pluggy as always."""

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
        if module_or_class is not hookspecs:
            return super().parse_hookspec_opts(module_or_class, name)
        try:
            opts = _SPEC_MARKS[name]
        except KeyError:
            opts = _SPEC_MARKS[name] = super().parse_hookspec_opts(module_or_class, name)
        return None if opts is None else dict(opts)

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        cls = type(plugin)
        if name in getattr(plugin, "__dict__", ()) or cls not in _bundled_classes():
            return super().parse_hookimpl_opts(plugin, name)
        key = (cls, name)
        try:
            opts = _IMPL_MARKS[key]
        except KeyError:
            opts = _IMPL_MARKS[key] = super().parse_hookimpl_opts(plugin, name)
        return None if opts is None else dict(opts)


_SPEC_MARKS: dict[str, Any] = {}
_IMPL_MARKS: dict[tuple[type, str], Any] = {}


def _bundled_classes() -> frozenset[type]:
    return _bundled_class_set(tuple(bundled_plugins().values()))


@functools.lru_cache(maxsize=8)
def _bundled_class_set(classes: tuple[type, ...]) -> frozenset[type]:
    """The bundled classes whose attributes are the class's alone (no slot
    holding a value per object)."""
    return frozenset(
        c for c in classes if not any(vars(k).get("__slots__") for k in c.__mro__ if "__slots__" in vars(k))
    )


@dataclass(frozen=True)
class _ModuleRef:
    """A plugin module in a pickled host: imported again by its name."""

    name: str


@dataclass(frozen=True)
class Decision:
    plugin: str
    value: Any


class PluginHost:
    """The plugin manager of one game."""

    def __init__(self, plugins: dict[str, dict[str, Any]] | None = None, extra: Iterable[Any] = ()):
        extra = tuple(extra)
        self._named = dict(plugins or {})
        self._extra = extra
        self.pm = _Manager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.pm_order: list[str] = []
        for name, settings in (plugins or {}).items():
            self.pm.register(make_plugin(name, settings), name=name)
            self.pm_order.append(name)
        for obj in extra:
            registered = self.pm.register(obj, name=getattr(obj, "name", None))
            if registered is not None:
                self.pm_order.append(registered)
        _refuse_wrappers(self.pm)
        self.trace = os.environ.get("RAMI_TRACE_HOOKS", "") not in ("", "0")
        self._active = {name for name in hookspecs_names() if getattr(self.pm.hook, name).get_hookimpls()}
        self._impl_cache: dict[str, list] = {}  # plugins are all registered above, once
        self._firstresult = {
            name: bool(getattr(self.pm.hook, name).spec.opts.get("firstresult")) for name in hookspecs_names()
        }

    def __getstate__(self) -> dict[str, Any]:
        """What a copy or a pickle carries: the plugins' names and settings and
        the objects passed in, not the manager (pluggy's, which holds the hook
        specs' module): `__setstate__` builds the host again from them. A
        plugin passed in as a module is carried by its name and imported again."""
        extra = [_ModuleRef(o.__name__) if isinstance(o, types.ModuleType) else o for o in self._extra]
        return {"plugins": self._named, "extra": extra}

    def __setstate__(self, state: dict[str, Any]) -> None:
        extra = [importlib.import_module(o.name) if isinstance(o, _ModuleRef) else o for o in state["extra"]]
        self.__init__(state["plugins"], extra)  # type: ignore[misc]

    def names(self) -> list[str]:
        return [self.pm.get_name(p) or "?" for p in self.pm.get_plugins()]

    def has(self, hook: str) -> bool:
        return hook in self._active

    def _impls(self, hook: str):
        cached = self._impl_cache.get(hook)
        if cached is None:
            # The documented order (docs/plugins.md, "Which plugin judges first"):
            # tryfirst implementations, then the plain ones, then trylast; within
            # each, the profile's order of plugins (a parent's first, then the
            # file's own as written), then the plugins passed in code.
            order = {name: i for i, name in enumerate(self.pm_order)}
            impls = getattr(self.pm.hook, hook).get_hookimpls()
            cached = self._impl_cache[hook] = sorted(
                impls,
                key=lambda impl: (
                    0 if impl.tryfirst else 2 if impl.trylast else 1,
                    order.get(impl.plugin_name, len(order)),
                ),
            )
        return cached

    def _call(self, impl, hook: str, kwargs: dict[str, Any]) -> Any:
        """The one guard around every call to a plugin (see the module's docstring)."""
        state = kwargs.get("state")
        adjusting = hook in ADJUSTING_HOOKS
        before: Any = None
        if state is not None:
            before = _cards_of(state) if adjusting else _snapshot(state)
        try:
            result = impl.function(*[kwargs[a] for a in impl.argnames])
        except RuleError:
            raise  # a plugin may refuse by raising the engine's own error
        except RamiError as e:
            raise PluginError(impl.plugin_name, hook, e) from e
        except Exception as e:
            raise PluginError(impl.plugin_name, hook, e) from e
        kept = state is None or (_cards_of(state) == before if adjusting else _unchanged(state, before))
        if not kept:
            what = "created or lost cards" if adjusting else "changed the game state it was shown"
            raise PluginError(impl.plugin_name, hook, f"{what}: a hook must not do that")
        if result is not None:
            check = RESULT_CHECKS.get(hook)
            problem = check(result, kwargs) if check is not None else None
            if problem is not None:
                raise PluginError(impl.plugin_name, hook, problem)
        if self.trace:
            print(f"[rami hook] {hook} <- {impl.plugin_name}: {result!r}", file=sys.stderr)
        return result

    def decide(self, hook: str, **kwargs: Any) -> Decision | None:
        """The first plugin's opinion on a ``firstresult`` hook, or None."""
        if not self._firstresult.get(hook, False):
            raise InternalError(f"{hook} is not a firstresult hook: call it with call_all")
        if hook not in self._active:
            return None
        for impl in self._impls(hook):
            value = self._call(impl, hook, kwargs)
            if value is not None:
                return Decision(impl.plugin_name, value)
        return None

    def call_all(self, hook: str, **kwargs: Any) -> list[Any]:
        """Every plugin's answer to a hook that is not ``firstresult``."""
        if self._firstresult.get(hook, True):
            raise InternalError(f"{hook} is a firstresult hook (or unknown): ask it with decide")
        if hook not in self._active:
            return []
        return [self._call(impl, hook, kwargs) for impl in self._impls(hook)]

    def refuse_if(self, hook: str, **kwargs: Any) -> None:
        """Run a refusing hook; raise the RuleError a plugin asks for."""
        if hook not in self._active and self._firstresult.get(hook, False):
            return  # no plugin implements it (asked per card by the legal moves: no call built)
        d = self.decide(hook, **kwargs)
        if d is None or d.value is True:
            return
        v = d.value
        params = texts = None
        if isinstance(v, Refusal):
            code, message, params, texts = v.code, v.message, v.params, v.texts
        else:  # a reason string: the guard let nothing else through
            code, message = "refused", v
        if code not in ERROR_CODES:
            code = f"{d.plugin}.{code}"
        if isinstance(message, Reason):
            raise RuleError(code, message)
        raise RuleError(code, str(message), reason=None, params=params, texts=texts)


def _refuse_wrappers(pm: pluggy.PluginManager) -> None:
    """Refuse wrapper implementations when the plugin is registered, not on their first call.

    The host asks a deciding hook plugin by plugin (so that a refusal names
    its plugin) and guards every call; a wrapper (``wrapper=True`` or the old
    ``hookwrapper=True``) is a generator around the others' calls, which that
    loop cannot drive. Saying so at registration points at the plugin and the
    hook, and tells what to write instead."""
    for name in hookspecs_names():
        for impl in getattr(pm.hook, name).get_hookimpls():
            if impl.wrapper or impl.hookwrapper:
                raise PluginError(
                    impl.plugin_name,
                    name,
                    "the implementation is a wrapper (wrapper=True or hookwrapper=True), which rami does not run: "
                    "each plugin's hook is called on its own so that a refusal names its plugin; "
                    "implement the hook as a plain @hookimpl (tryfirst=True or trylast=True set its order)",
                )


def hookspecs_names() -> list[str]:
    return [n for n in dir(hookspecs) if n.startswith("rami_")]
