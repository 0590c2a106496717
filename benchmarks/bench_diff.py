"""`rami diff` at its default budget, pair by pair (by hand, not CI).

For every ordered pair of presets (or of presets and bundled house files with
--houses), the search `rami diff A B` runs with its default budget and seed:
its CPU and wall time, the settings that differ, the situations found, and
the settings neither a situation nor the deal summary shows, each with the
code of the reason the report gives (reasons.py: clock, same_outcome,
after_swap, inert, masked, unshared, not_found). The last line gives the
median and the slowest pair.

    python benchmarks/bench_diff.py                 # the 30 pairs of presets
    python benchmarks/bench_diff.py --houses        # every pair of presets and house files (552)
    python benchmarks/bench_diff.py --pair rami51 rami51_atlas --json out.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time

from rami_core.diff.deal import deal_difference, shown_by_deal
from rami_core.diff.reasons import reason_for
from rami_core.diff.search import DEFAULT_BUDGET, Search
from rami_core.diff.settings import settings_diff
from rami_core.diff.situation import Referee
from rami_core.files.resources import house_names, preset_names
from rami_core.profile.loader import load_profile


def measure(a: str, b: str, seed: int, budget: int) -> dict[str, object]:
    pa, pb = load_profile(a), load_profile(b)
    t0, w0 = time.process_time(), time.perf_counter()
    changes = settings_diff(pa, pb)
    ra, rb = Referee(pa), Referee(pb)
    result = Search(ra, rb, changes, seed, budget).run() if changes else None
    deal = deal_difference(pa, pb, seed) if changes else None
    explained = {p for f in result.found for p in f.causes} if result else set()
    untouched = [c for c in changes if c.path not in explained and not shown_by_deal(c.path, deal)]
    why = [reason_for(c, changes, ra, rb, result).code for c in untouched] if result else []
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return {
        "a": a,
        "b": b,
        "settings": len(changes),
        "found": len(result.found) if result else 0,
        "tried": result.tried if result else 0,
        "untouched": [f"{c.path}({w})" for c, w in zip(untouched, why, strict=True)],
        "deal": deal is not None,
        "cpu": cpu,
        "wall": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--houses", action="store_true", help="presets and bundled house files")
    ap.add_argument(
        "--pair", nargs=2, action="append", metavar=("A", "B"), help="only this pair (repeatable)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    names = preset_names() + (house_names() if args.houses else [])
    pairs = [tuple(p) for p in args.pair] if args.pair else list(itertools.permutations(names, 2))
    rows = []
    print(f"{'A':<34} {'B':<34} {'set':>3} {'found':>5} {'tried':>5} {'cpu s':>6} {'wall s':>6}  untouched")
    for a, b in pairs:
        row = measure(a, b, args.seed, args.budget)
        rows.append(row)
        print(
            f"{a:<34} {b:<34} {row['settings']:>3} {row['found']:>5} {row['tried']:>5}"
            f" {row['cpu']:>6.2f} {row['wall']:>6.2f}  {' '.join(row['untouched'])}",  # type: ignore[arg-type]
            flush=True,
        )
    cpus = [float(r["cpu"]) for r in rows]  # type: ignore[arg-type]
    slow = max(rows, key=lambda r: float(r["cpu"]))  # type: ignore[arg-type]
    print(
        f"{len(rows)} pairs, budget {args.budget}, seed {args.seed}: CPU median {statistics.median(cpus):.2f} s,"
        f" mean {statistics.mean(cpus):.2f} s, slowest {slow['a']} -> {slow['b']} {float(slow['cpu']):.2f} s"  # type: ignore[arg-type]
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
