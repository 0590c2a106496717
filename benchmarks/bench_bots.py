"""Bot tournament (by hand, not CI): expert vs greedy and greedy vs random.

For every preset and pairing, N two-player games with the seats alternating
(game i rotates the seats by i), the same seeds for every pairing. Prints per
pairing the first bot's wins, games, win rate and its 95% Wilson interval,
and whether the interval excludes 50%. Drawn or capped games count as not won.

    python benchmarks/bench_bots.py                       # 200 games, 2 workers
    python benchmarks/bench_bots.py --games 60 --presets voleur --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from rich.console import Console
from rich.table import Table

from rami_core.players.bot_games import SimConfig, simulate, wilson
from rami_core.profile.loader import load_profile

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
PAIRINGS = [("expert", "greedy"), ("greedy", "random")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--pairings", default=",".join(f"{a}-{b}" for a, b in PAIRINGS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20240)
    ap.add_argument("--turn-cap", type=int, default=400)
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    console = Console()
    table = Table(
        title=f"Bot tournament: {args.games} two-player games per preset and pairing, seats alternating"
    )
    for col in (
        "preset",
        "pairing",
        "wins",
        "games",
        "win rate",
        "95% Wilson",
        "excludes 50%",
        "draws/capped",
        "refused",
        "timeouts",
        "seconds",
    ):
        table.add_column(col, justify="right" if col not in ("preset", "pairing") else "left")
    rows = []
    for preset in args.presets.split(","):
        profile = load_profile(preset)
        for pairing in args.pairings.split(","):
            a, b = pairing.split("-")
            t0 = time.perf_counter()
            res = simulate(
                SimConfig(profile, 2, (a, b), args.games, seed=args.seed, turn_cap=args.turn_cap),
                workers=args.workers,
            )
            wins = res["bots_stats"][a]["wins"]
            lo, hi = wilson(wins, args.games)
            undecided = res["ties"] + res["unfinished_games"]
            row = {
                "preset": preset,
                "pairing": f"{a} vs {b}",
                "wins": wins,
                "games": args.games,
                "win_rate": round(wins / args.games, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "excludes_50": lo > 0.5 or hi < 0.5,
                "undecided": undecided,
                "refused": res["refused"],
                "timeouts": res["timeouts"],
                "seconds": round(time.perf_counter() - t0, 1),
            }
            rows.append(row)
            table.add_row(
                preset,
                row["pairing"],
                str(wins),
                str(args.games),
                f"{row['win_rate']:.3f}",
                f"[{lo:.3f}, {hi:.3f}]",
                "yes" if row["excludes_50"] else "NO",
                str(undecided),
                str(row["refused"]),
                str(row["timeouts"]),
                str(row["seconds"]),
            )
            print(json.dumps(row), file=sys.stderr, flush=True)
    console.print(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
