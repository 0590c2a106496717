"""Random valid house profiles, for the tests that hold every client to the
engine on tables nobody wrote by hand (the bots' held-back runs, the legal
moves' property tests).

A profile is a preset with a random handful of house settings over it:
card values (aces high and low, courts), where an ace stands in a run, the
opening (points, pure run, run and set, jokers, all at once, going out below
the points), the discard and draw switches, what may be done on the table
(new melds, lay offs, rearranging, in the opening turn), the jokers' swap
rules and the bundled plugins, on or off. Each draw goes through the loader
like a user's ``--set`` options; a draw the loader refuses (a contradiction,
an opening nobody can make) is drawn again, so every profile returned is one
a user could load. The same seed gives the same profiles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rami_core.errors import ProfileError
from rami_core.hooks import bundled_plugins
from rami_core.loader import load_profile
from rami_core.profile import Profile

BASES = ("rami51", "rami71", "classic", "kaluki", "voleur", "simple")

# Each house setting and the values a draw picks from (YAML, as `--set` takes them).
SETTINGS: dict[str, tuple[str, ...]] = {
    "scoring.ace_points": ("1", "10", "11", "15"),
    "scoring.ace_low_points": ("1", "5", "11"),
    "scoring.court_points": ("5", "10", "20"),
    "melds.ace": ("low", "high", "both"),
    "melds.wrap": ("true", "false"),
    "opening.required": ("true", "false"),
    "opening.points": ("0", "20", "30", "40", "51"),
    "opening.pure_run": ("true", "false"),
    "opening.jokers": ("true", "false"),
    "opening.run_and_set": ("true", "false"),
    "opening.all_at_once": ("true", "false"),
    "opening.go_out_below_points": ("true", "false"),
    "discard.keep_last": ("true", "false"),
    "discard.throw_back": ("true", "false"),
    "draw.from_discard": ("true", "false"),
    "draw.discard_before_opening": ("true", "false"),
    "draw.taken_discard_must_be_laid": ("true", "false"),
    "table.new_melds": ("true", "false"),
    "table.lay_off": ("true", "false"),
    "table.rearrange": ("true", "false"),
    "table.in_opening_turn": ("true", "false"),
    "jokers.swap": ("never", "on_table", "to_hand"),
    "jokers.replay": ("same_turn", "any_time"),
    "jokers.set_swap": ("fourth_card", "any"),
    "jokers.who": ("opened", "anyone"),
}
# A table without a discard pile: the switches that go with it.
NO_DISCARD = ("discard.enabled=false", "draw.from_discard=false", "deal.upcard=false")


@dataclass(frozen=True)
class RandomProfile:
    """A profile drawn at random, and how to load it again (for a failure's message)."""

    profile: Profile
    base: str
    overrides: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.base} " + " ".join(f"--set {o}" for o in self.overrides)


def draw_overrides(rng: random.Random, settings: int = 6) -> tuple[str, tuple[str, ...]]:
    """A base preset and about `settings` random house settings over it (not checked)."""
    base = rng.choice(BASES)
    keys = rng.sample(sorted(SETTINGS), k=min(settings, len(SETTINGS)))
    out = [f"{k}={rng.choice(SETTINGS[k])}" for k in sorted(keys)]
    if rng.random() < 0.1:
        out = [o for o in out if not o.startswith(("draw.from_discard=", "discard."))] + list(NO_DISCARD)
    plugins = sorted(bundled_plugins())
    for name in rng.sample(plugins, k=rng.choice((0, 0, 1, 1, 2))):
        out.append(f"plugins.{name}={rng.choice(('{}', '{}', 'false'))}")
    return base, tuple(out)


def random_profile(rng: random.Random, players: int = 2, tries: int = 200) -> RandomProfile:
    """One random profile the loader accepts and `players` may play."""
    for _ in range(tries):
        base, overrides = draw_overrides(rng)
        try:
            profile = load_profile(base, overrides)
        except ProfileError:
            continue
        if profile.allows_players(players):
            return RandomProfile(profile, base, overrides)
    raise RuntimeError(f"no valid profile in {tries} draws")  # the settings above are too strict


def random_profiles(n: int, seed: int = 0, players: int = 2) -> list[RandomProfile]:
    """`n` random valid profiles, the same for the same seed."""
    rng = random.Random(f"rami-random-profiles:{seed}")
    return [random_profile(rng, players) for _ in range(n)]


__all__ = ["BASES", "SETTINGS", "RandomProfile", "draw_overrides", "random_profile", "random_profiles"]
