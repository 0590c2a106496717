"""Puzzle generation speed: puzzles found per minute at each grade.

Runs the first ``attempts`` attempts of a collection (the schedule of table
shapes `rami puzzle collection` uses, every puzzle kept) and reports, per
grade, the puzzles found and puzzles per minute of this process's CPU time
(process time, so that the figure says what the generator costs, not how
loaded the machine was). The peer in the same run is one solve of each
puzzle found (``rami solve``'s question on its position): the ratio says how
many solves a found puzzle costs, a figure that holds on any machine.

    python benchmarks/bench_puzzles.py --attempts 200 --seed 1
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from rami_core.puzzles.collection import collection_attempt
from rami_core.puzzles.prove import Position, solver_best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attempts", type=int, default=200, help="attempts of the collection schedule")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    collection_attempt(args.seed, -1)  # imports and the profile, outside the clock
    t0 = time.process_time()
    found = []
    for n in range(args.attempts):
        pz = collection_attempt(args.seed, n)
        if pz is not None:
            found.append(pz)
    dt = time.process_time() - t0
    t1 = time.process_time()
    for pz in found:
        solver_best(Position.of_puzzle(pz))
    solve_t = (time.process_time() - t1) / max(1, len(found))
    got = Counter(pz.difficulty for pz in found)
    print(f"{args.attempts} attempts, {len(found)} puzzles, {dt:.1f} CPU s\n")
    print("| grade | puzzles | puzzles / CPU min | schedule CPU s per puzzle of the grade |")
    print("|---|---|---|---|")
    for g in range(1, 11):
        per = f"{dt / got[g]:.1f}" if got[g] else "-"
        print(f"| {g} | {got[g]} | {60 * got[g] / dt:.1f} | {per} |")
    per_solve = dt / len(found) / solve_t if found and solve_t else float("nan")
    print(
        f"\nall grades: {60 * len(found) / dt:.1f} puzzles per CPU minute;"
        f" a puzzle costs {per_solve:.0f} solves of its position"
    )


if __name__ == "__main__":
    main()
