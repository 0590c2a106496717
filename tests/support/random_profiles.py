"""Random valid house profiles, for property tests that must hold under any
house rule rami accepts.

A profile is a preset with a handful of settings changed: card values (the
courts, the ace high and low), how the ace sits in a run, the opening's
points, pure run, run and set, jokers and all-at-once, the discard and lay-off
switches, and the bundled plugins. A draw the loader refuses (two settings
that contradict each other) is drawn again: only profiles the loader accepts
come out, and each says which settings it changed (``overrides``).

:func:`random_profiles` draws from a wider set (:data:`WIDER_CHOICES`: the
jokers' swap rules, rearranging, the opening turn, going out below the
points, a table without a discard pile, plugins switched off), for the bots'
held-back runs; :func:`random_profile`'s draws stay as they were, so the
tests that name a draw by its seed keep their profile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rami_core.profile.loader import load_profile
from rami_core.profile.model import Profile
from rami_core.words.errors import ProfileError

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

# The wider draw of random_profiles(): the above and the rest of what a house changes.
WIDER_CHOICES: dict[str, tuple[str, ...]] = {
    **CHOICES,
    "scoring.ace_points": ("1", "10", "11", "15"),
    "opening.points": ("0", "20", "30", "40", "51"),
    "opening.required": ("true", "false"),
    "opening.go_out_below_points": ("true", "false"),
    "melds.wrap": ("true", "false"),
    "discard.throw_back": ("true", "false"),
    "table.rearrange": ("true", "false"),
    "table.in_opening_turn": ("true", "false"),
    "jokers.swap": ("never", "on_table", "to_hand"),
    "jokers.replay": ("same_turn", "any_time"),
    "jokers.set_swap": ("fourth_card", "any"),
    "jokers.who": ("opened", "anyone"),
    "discard.enabled": ("false",),  # drawn with the switches a table without a discard pile needs
}
# What goes with discard.enabled=false.
NO_DISCARD = ("draw.from_discard=false", "deal.upcard=false")
WIDER_PLUGINS = (*PLUGINS, "joker_freed_from_hand", "timeout_penalty")


@dataclass(frozen=True)
class RandomProfile:
    profile: Profile
    base: str
    overrides: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.base} " + " ".join(f"--set {o}" for o in self.overrides)


def random_profile(
    rng: random.Random,
    *,
    changes: int = 4,
    tries: int = 200,
    choices: dict[str, tuple[str, ...]] = CHOICES,
    plugins: tuple[str, ...] = PLUGINS,
    players: int | None = None,
) -> RandomProfile:
    """A profile the loader accepts: a preset with up to `changes` settings
    drawn from `choices` and maybe a bundled plugin (on, or off where
    `plugins` is the wider list); `players`: one `players` seats may play."""
    wider = plugins is not PLUGINS
    for _ in range(tries):
        base = rng.choice(BASES)
        keys = rng.sample(sorted(choices), rng.randint(1, changes))
        overrides = [f"{k}={rng.choice(choices[k])}" for k in keys]
        if "discard.enabled=false" in overrides:
            overrides = [o for o in overrides if not o.startswith("draw.from_discard=")] + list(NO_DISCARD)
        if rng.random() < 0.3:
            state = rng.choice(("{}", "{}", "false")) if wider else "{}"
            overrides.append(f"plugins.{rng.choice(plugins)}={state}")
        try:
            profile = load_profile(base, overrides)
        except ProfileError:
            continue  # settings that contradict each other: draw again
        if players is not None and not profile.allows_players(players):
            continue
        return RandomProfile(profile, base, tuple(overrides))
    raise AssertionError(f"no valid profile in {tries} draws")


def random_profiles(n: int, seed: int = 0, players: int = 2) -> list[RandomProfile]:
    """`n` profiles of the wider draw that `players` seats may play, the same for the same seed."""
    rng = random.Random(f"rami-random-profiles:{seed}")
    return [
        random_profile(rng, changes=6, choices=WIDER_CHOICES, plugins=WIDER_PLUGINS, players=players)
        for _ in range(n)
    ]
