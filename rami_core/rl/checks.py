"""The RL libraries' own checkers, run on every preset and bundled house file.

    python -m rami_core.rl.checks                 # every profile, every checker
    python -m rami_core.rl.checks rami51 voleur   # some profiles
    python -m rami_core.rl.checks --require-sb3   # fail (not skip) without stable-baselines3
    python -m rami_core.rl.checks --jobs 0        # the checks spread over one process per core

PettingZoo's `api_test` (1,000 cycles), `seed_test` (500) and `render_test`
on `rl.env` (the full action space, then the compact one for `api_test`); Gymnasium's
`check_env` and Stable-Baselines3's `check_env` on `rl.single_agent_env`
as it is (both checkers step unmasked samples, which end the episode with
the illegal reward by default). A checker that fails prints its error and
the run exits 1; SB3's checker is skipped with a note when stable-baselines3
is not installed (it needs torch: the `rl-train` extra), unless asked for.
CI runs this against the installed wheel, over one process per core
(`--jobs 0`): each check of each profile is a task of its own, at the same
strength, its report printed in the same order as a run in one process.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import traceback
import warnings
from collections.abc import Callable

from rami_core.files.resources import house_names, preset_names

# The libraries' own strength: PettingZoo's api_test at 1,000 cycles and
# seed_test at 500 (the cycles their own classic environments are tested at).
API_CYCLES = 1000
SEED_CYCLES = 500

CHECKERS = (
    "api_test",
    "api_test_compact",
    "seed_test",
    "render_test",
    "gymnasium_check_env",
    "sb3_check_env",
)


def profiles() -> list[str]:
    """Every preset, then every bundled house file, by name."""
    return [*preset_names(), *house_names()]


def _checks(name: str, require_sb3: bool) -> dict[str, Callable[[], str | None]]:
    """The checkers for one profile; each returns None (passed) or a note (skipped)."""
    from gymnasium.utils.env_checker import check_env as gym_check_env
    from pettingzoo.test import api_test, render_test, seed_test

    from rami_core.rl import env, single_agent_env

    def api() -> None:
        api_test(env(name, seed=5), num_cycles=API_CYCLES, verbose_progress=False)

    def api_compact() -> None:
        api_test(env(name, seed=5, actions="compact"), num_cycles=API_CYCLES, verbose_progress=False)

    def seeds() -> None:
        seed_test(lambda: env(name), num_cycles=SEED_CYCLES)

    def render() -> None:
        render_test(lambda render_mode=None: env(name, render_mode=render_mode))

    def gym() -> None:
        gym_check_env(single_agent_env(name, max_turns=50), skip_render_check=False)

    def sb3() -> str | None:
        try:
            from stable_baselines3.common.env_checker import check_env as sb3_check_env
        except ImportError:
            if require_sb3:
                raise
            return "skipped: stable-baselines3 is not installed (pip install 'rami[rl-train]')"
        sb3_check_env(single_agent_env(name, max_turns=50), warn=False)
        sb3_check_env(
            single_agent_env(name, max_turns=50, mask_in_observation=False, scaled=True),
            warn=False,
        )
        return None

    return {
        "api_test": api,
        "api_test_compact": api_compact,
        "seed_test": seeds,
        "render_test": render,
        "gymnasium_check_env": gym,
        "sb3_check_env": sb3,
    }


def run(names: list[str], checkers: list[str], require_sb3: bool = False, out=sys.stdout) -> int:
    """Run the checkers; the number that failed."""
    failed = 0
    for name in names:
        checks = _checks(name, require_sb3)
        for checker in checkers:
            start = time.perf_counter()
            with warnings.catch_warnings(), _quiet():
                warnings.simplefilter("ignore")
                try:
                    note = checks[checker]()
                except Exception:
                    failed += 1
                    print(f"FAIL {name} {checker}", file=out)
                    traceback.print_exc(file=out)
                    continue
            took = time.perf_counter() - start
            print(f"ok   {name} {checker} ({took:.1f} s){' ' + note if note else ''}", file=out, flush=True)
    return failed


def _one(name: str, checker: str, require_sb3: bool) -> tuple[int, str]:
    """One checker on one profile, in a worker process: how many failed, and its report."""
    out = io.StringIO()
    failed = run([name], [checker], require_sb3, out=out)
    return failed, out.getvalue()


def run_parallel(names: list[str], checkers: list[str], require_sb3: bool, jobs: int, out=sys.stdout) -> int:
    """`run` over `jobs` processes (spawned: no library state is shared), one task per check."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(name, checker) for name in names for checker in checkers]
    failed = 0
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_one, name, checker, require_sb3) for name, checker in tasks]
        for future in futures:
            n, text = future.result()
            failed += n
            print(text, end="", file=out, flush=True)
    return failed


class _quiet:
    """render_test's "human" mode prints the table: kept off the report."""

    def __enter__(self):
        import contextlib
        import io

        self._cm = contextlib.redirect_stdout(io.StringIO())
        self._cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rami_core.rl.checks", description=__doc__.splitlines()[0])
    ap.add_argument("profiles", nargs="*", help="presets or house files by name (default: all bundled)")
    ap.add_argument("--checker", action="append", choices=CHECKERS, help="only these checkers")
    ap.add_argument("--require-sb3", action="store_true", help="fail when stable-baselines3 is missing")
    ap.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="processes to spread the checks over (0: one per core)",
    )
    args = ap.parse_args(argv)
    if args.jobs < 0:
        ap.error("--jobs takes 0 (one per core) or more")
    names = args.profiles or profiles()
    checkers = args.checker or list(CHECKERS)
    out = sys.stdout
    jobs = args.jobs or os.cpu_count() or 1
    if jobs > 1:
        failed = run_parallel(names, checkers, args.require_sb3, jobs, out=out)
    else:
        failed = run(names, checkers, args.require_sb3, out=out)
    total = len(names) * len(args.checker or CHECKERS)
    print(f"{total - failed} of {total} checks passed over {len(names)} profiles", file=out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
