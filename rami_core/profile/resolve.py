"""A profile resolved into the rules of one game, its plugins included.

`rules_for` is the one way to the `Rules` of a game: it builds the game's
plugin host (the plugins the profile names, and those a caller passes in)
and hands it to `Rules.read`, which reads every setting. It sits above both
modules because each names the other: the host's hooks are typed with
`Rules`, and `Rules` holds the host.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rami_core.profile.hooks import PluginHost
from rami_core.profile.model import Profile
from rami_core.profile.rules import Rules


def rules_for(profile: Profile, players: int, plugins: Iterable[Any] = ()) -> Rules:
    """The rules of a game of `profile` at `players`. `plugins`: plugin
    objects passed in by the caller (the CLI's --plugin or the API), on top
    of those the profile names."""
    return Rules.read(profile, players, PluginHost(profile.active_plugins, plugins))
