"""Puzzle generation speed: puzzles found per minute at each grade.

Runs ``attempts`` generation attempts with the shape of each grade (the
shapes `rami puzzle collection` uses) and reports, per shape, the attempts
made, the puzzles proved, what grades they earned, and puzzles per minute of
this process's CPU time (process time, so that the figure says what the
generator costs, not how loaded the machine was). The peer in the same run
is one solve of each puzzle found (``rami solve``'s question on its
position): the ratio says how many solves a found puzzle costs, a figure
that holds on any machine.

    python benchmarks/bench_puzzles.py --attempts 60 --seed 1
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from rami_core.puzzles import generate as G
from rami_core.puzzles.prove import Position, solver_best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attempts", type=int, default=60, help="attempts per grade's shape")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    G._attempt_shape(args.seed, -1, G.SHAPES[1])  # imports and the profile, outside the clock
    print(
        "| shape of grade | attempts | puzzles | grades earned | CPU s | puzzles / CPU min | solves per puzzle |"
    )
    print("|---|---|---|---|---|---|---|")
    total_p, total_t = 0, 0.0
    for grade, shape in G.SHAPES.items():
        t0 = time.process_time()
        got: Counter = Counter()
        found_puzzles = []
        for n in range(args.attempts):
            pz = G._attempt_shape(args.seed, grade * 100_000 + n, shape)
            if pz is not None:
                got[pz.difficulty] += 1
                found_puzzles.append(pz)
        dt = time.process_time() - t0
        t1 = time.process_time()
        for pz in found_puzzles:
            solver_best(Position.of_puzzle(pz))
        solve_t = (time.process_time() - t1) / max(1, len(found_puzzles))
        found = sum(got.values())
        total_p += found
        total_t += dt
        grades = " ".join(f"{g}:{got[g]}" for g in sorted(got)) or "-"
        per = dt / found / solve_t if found and solve_t else float("nan")
        print(
            f"| {grade} | {args.attempts} | {found} | {grades} | {dt:.1f} | {60 * found / dt:.1f} | {per:.0f} |"
        )
    print(
        f"\nall shapes: {total_p} puzzles in {total_t:.1f} CPU s, {60 * total_p / total_t:.1f} per CPU minute"
    )


if __name__ == "__main__":
    main()
