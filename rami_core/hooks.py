"""One plugin manager per game: finding, configuring and calling house rules.

Plugins are found among the bundled ones (`rami_core.plugins`) and by the
entry-point group `rami`; a profile names them with their settings, each
plugin validating its own settings with its pydantic model. Code from a
module path is loaded only when a caller (the CLI's `--plugin`, or the API)
passes the object in: never because a YAML file says so.

Deciding hooks are called plugin by plugin rather than through pluggy's
firstresult call, so that a refusal, or an exception, is traced to the plugin
that raised it; the order is pluggy's own (last registered first, tryfirst
and trylast honoured).
"""

from __future__ import annotations

import difflib
import functools
import importlib
import os
import pkgutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

import pluggy
from pydantic import BaseModel, ValidationError

from . import hookspecs
from .errors import ERROR_CODES, InternalError, Problem, ProfileError, RamiError, RuleError
from .hookspecs import Refusal

ENTRY_POINT_GROUP = "rami"


class NoSettings(hookspecs.PluginSettings):
    pass  # what a plugin class without a Settings model takes (no docstring: it would enter the schema)


class PluginError(RamiError):
    """A plugin failed while a hook ran: a bug in that plugin, named with the hook."""

    def __init__(self, plugin: str, hook: str, error: BaseException):
        self.plugin = plugin
        self.hook = hook
        self.error = error
        super().__init__(f"plugin {plugin!r} failed in hook {hook}: {type(error).__name__}: {error}")


# --------------------------------------------------------------------------- discovery


@functools.lru_cache(maxsize=1)
def bundled_plugins() -> dict[str, type]:
    """The house rules shipped with rami, by name (their modules are imported once)."""
    from .resources import plugins_package

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
                f"no plugin named {name!r} is bundled or installed",
                near[0] if near else None,
            )
        )
    obj = found[name]
    if not isinstance(obj, type):
        try:
            obj = obj.load()
        except Exception as e:  # an installed package that fails to import
            raise ProfileError(
                f"plugins.{name}: the plugin failed to load: {type(e).__name__}: {e}"
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
            Problem("<profile>", None, None, ".".join(["plugins", name, *map(str, err["loc"])]), err["msg"])
            for err in e.errors(include_url=False)
        ]
        raise ProfileError(problems) from None
    try:
        return cls(parsed)
    except Exception as e:
        raise ProfileError(f"plugins.{name}: the plugin failed to start: {type(e).__name__}: {e}") from None


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


@dataclass(frozen=True)
class Decision:
    plugin: str
    value: Any


class PluginHost:
    """The plugin manager of one game."""

    def __init__(self, plugins: dict[str, dict[str, Any]] | None = None, extra: Iterable[Any] = ()):
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        for name, settings in (plugins or {}).items():
            self.pm.register(make_plugin(name, settings), name=name)
        for obj in extra:
            self.pm.register(obj, name=getattr(obj, "name", None))
        self.trace = os.environ.get("RAMI_TRACE_HOOKS", "") not in ("", "0")
        self._active = {name for name in hookspecs_names() if getattr(self.pm.hook, name).get_hookimpls()}
        # The specs' firstresult marks say how the host calls each hook: a
        # deciding hook through `decide`/`refuse_if` (the first opinion wins),
        # any other through `call_all`. Calling one the other way is a bug.
        self._deciding = {name for name in hookspecs_names() if _is_firstresult(name)}
        self._impl_cache: dict[str, list] = {}  # plugins are all registered above, once

    def names(self) -> list[str]:
        return [name for p in self.pm.get_plugins() if (name := self.pm.get_name(p)) is not None]

    def has(self, hook: str) -> bool:
        return hook in self._active

    def _impls(self, hook: str):
        cached = self._impl_cache.get(hook)
        if cached is None:
            cached = self._impl_cache[hook] = list(reversed(getattr(self.pm.hook, hook).get_hookimpls()))
        return cached

    def _call(self, impl, hook: str, kwargs: dict[str, Any]) -> Any:
        try:
            result = impl.function(*[kwargs[a] for a in impl.argnames])
        except RamiError:
            raise
        except Exception as e:
            raise PluginError(impl.plugin_name, hook, e) from e
        if self.trace:
            print(f"[rami hook] {hook} <- {impl.plugin_name}: {result!r}", file=sys.stderr)
        return result

    def decide(self, hook: str, **kwargs: Any) -> Decision | None:
        """The first plugin's opinion, or None (a firstresult hook only)."""
        if hook not in self._deciding:
            raise InternalError(f"{hook} is not a deciding (firstresult) hook: call it with call_all")
        if hook not in self._active:
            return None
        for impl in self._impls(hook):
            value = self._call(impl, hook, kwargs)
            if value is not None:
                return Decision(impl.plugin_name, value)
        return None

    def call_all(self, hook: str, **kwargs: Any) -> list[Any]:
        """Every plugin's result, in call order (a hook that is not firstresult)."""
        if hook in self._deciding:
            raise InternalError(f"{hook} is a deciding (firstresult) hook: call it with decide")
        if hook not in self._active:
            return []
        return [self._call(impl, hook, kwargs) for impl in self._impls(hook)]

    def refuse_if(self, hook: str, **kwargs: Any) -> None:
        """Run a refusing hook; raise the RuleError a plugin asks for."""
        d = self.decide(hook, **kwargs)
        if d is None or d.value is True:
            return
        v = d.value
        if isinstance(v, Refusal):
            code, message = v.code, v.message
        elif isinstance(v, str):
            code, message = "refused", v
        else:
            raise PluginError(
                d.plugin, hook, InternalError(f"returned {v!r}; expected None, a Refusal or a reason string")
            )
        if code not in ERROR_CODES:
            code = f"{d.plugin}.{code}"
        raise RuleError(code, message)


def hookspecs_names() -> list[str]:
    return [n for n in dir(hookspecs) if n.startswith("rami_")]


def _is_firstresult(name: str) -> bool:
    opts = getattr(getattr(hookspecs, name), f"{hookspecs.PROJECT}_spec", {})
    return bool(opts.get("firstresult"))
