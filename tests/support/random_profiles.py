"""Random valid house profiles, for property tests that must hold under any
house rule rami accepts.

A profile is a preset with a handful of settings changed: card values (the
courts, the ace high and low), how the ace sits in a run, the opening's
points, pure run, run and set, jokers and all-at-once, the discard and lay-off
switches, and the bundled plugins. A draw the loader refuses (two settings
that contradict each other) is drawn again: only profiles the loader accepts
come out, and each says which settings it changed (``overrides``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rami_core.errors import ProfileError
from rami_core.loader import load_profile
from rami_core.profile import Profile

BASES = ("rami51", "rami71", "kaluki", "classic", "simple", "voleur")

# setting -> the values drawn for it (YAML, as `--set` reads them)
CHOICES: dict[str, tuple[str, ...]] = {
    "scoring.court_points": ("5", "10", "20"),
    "scoring.ace_points": ("1", "11", "15"),
    "scoring.ace_low_points": ("1", "5"),
    "melds.ace": ("both", "high", "low"),
    "opening.points": ("0", "30", "51"),
    "opening.pure_run": ("true", "false"),
    "opening.run_and_set": ("true", "false"),
    "opening.jokers": ("true", "false"),
    "opening.all_at_once": ("true", "false"),
    "draw.from_discard": ("true", "false"),
    "draw.discard_before_opening": ("true", "false"),
    "draw.taken_discard_must_be_laid": ("true", "false"),
    "table.lay_off": ("true", "false"),
    "table.new_melds": ("true", "false"),
    "discard.keep_last": ("true", "false"),
}
# Bundled plugins a profile may name (with no settings).
PLUGINS = (
    "no_playable_discard",
    "no_early_discard_draw",
    "discard_for_opening_only",
    "joker_replay_new_meld",
    "no_joker_split",
)


@dataclass(frozen=True)
class RandomProfile:
    profile: Profile
    base: str
    overrides: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.base} " + " ".join(f"--set {o}" for o in self.overrides)


def random_profile(rng: random.Random, *, changes: int = 4, tries: int = 200) -> RandomProfile:
    """A profile the loader accepts: a preset with up to `changes` settings
    drawn from :data:`CHOICES` and maybe a bundled plugin."""
    for _ in range(tries):
        base = rng.choice(BASES)
        keys = rng.sample(sorted(CHOICES), rng.randint(1, changes))
        overrides = [f"{k}={rng.choice(CHOICES[k])}" for k in keys]
        if rng.random() < 0.3:
            overrides.append(f"plugins.{rng.choice(PLUGINS)}={{}}")
        try:
            profile = load_profile(base, overrides)
        except ProfileError:
            continue  # settings that contradict each other: draw again
        return RandomProfile(profile, base, tuple(overrides))
    raise AssertionError(f"no valid profile in {tries} draws")
