"""Speed and agreement of rami's exact solver against rummikub-solver, in one run.

Run by hand (not by CI), in a venv of its own so the peer never becomes a
dependency of rami:

    python -m venv /tmp/bench && /tmp/bench/bin/pip install -e . rummikub-solver
    /tmp/bench/bin/python benchmarks/bench_solver.py [--positions N] [--seed S] [--no-peer] [--cpu] [--first-solve] [--tail N]
        [--lp-after N] [--relax-after N]

Random two-deck positions of the kinds voleur players meet: a table that is a
random valid arrangement of 6-72 cards (runs and sets, aces present, some
jokers inside melds), a hand of 5-25 cards from what is left, 0, 1, 2 or 4
jokers in all. rummikub-solver reads black, blue, orange, red as S, H, D, C.

Two comparisons, both timed in the same run:

* voleur: rami solves each position under voleur's rules (the ace low or
  high), the peer the same cards under its own (numbers 1..13: the ace low
  only). Not the same problem (rami's is larger: the ace may also close a
  run), so only times are compared.
* comparable: the subset where the rules coincide. rami solves with the ace
  low only, and the table holds no joker that could be removed (the peer
  never leaves a free joker on the table: its ``arrange_table`` reports such
  jokers). Times and optima are compared; a hand joker that rami lays where
  it could be removed (legal in rami, not in the peer) is counted apart as a
  rules difference.

Reported: the median and 95th percentile of the per-position ratio rami time
/ peer time, and rami's slowest position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

# --rami-path DIR times another copy of rami (say, an export of an older commit)
_at = sys.argv.index("--rami-path") + 1 if "--rami-path" in sys.argv else 0
sys.path.insert(0, sys.argv[_at] if _at else str(Path(__file__).resolve().parents[1]))

from rami_core.cards import JOKER_SUIT, Card, build_deck  # noqa: E402
from rami_core.cards.melds import MeldRules, read_meld  # noqa: E402
from rami_core.profile.loader import load_profile  # noqa: E402
from rami_core.profile.rules import meld_rules_for  # noqa: E402
from rami_core.solver import check_solution  # noqa: E402
from rami_core.solver import solve as _solve  # noqa: E402

try:
    from rami_core.solver import SolverOptions
except ImportError:  # an older rami: no options

    def SolverOptions(**kw):  # type: ignore[no-redef]
        return None


ACE_LOW = MeldRules(ace_low=True, ace_high=False)
VOLEUR = meld_rules_for(load_profile("voleur"))


# --------------------------------------------------------------------------- positions


def random_position(rng: random.Random, *, jokers: int, ace_high: bool = True):
    """(table melds, hand) for two decks and ``jokers`` jokers in all."""
    deck = build_deck(2, jokers)
    free = Counter(c[:2] for c in deck if c.suit != JOKER_SUIT)
    copies = {}
    for c in deck:
        if c.suit != JOKER_SUIT:
            copies.setdefault(c[:2], []).append(c)
    joker_cards = [c for c in deck if c.suit == JOKER_SUIT]
    target = rng.randint(6, 72)
    melds: list[list[Card]] = []
    size = 0
    tries = 0
    rules = MeldRules(ace_low=True, ace_high=ace_high)
    while size < target and tries < 400:
        tries += 1
        if rng.random() < 0.5:
            s = rng.randrange(4)
            n = rng.randint(3, 6)
            hi = 14 if ace_high else 13
            lo = rng.randint(1, hi - n + 1)
            faces = [((p - 1) % 13 + 1, s) for p in range(lo, lo + n)]
        else:
            r = rng.randint(1, 13)
            n = rng.choice([3, 4])
            faces = [(r, s) for s in rng.sample(range(4), n)]
        if any(free[f] <= 0 for f in faces):
            continue
        cards = []
        for f in faces:
            free[f] -= 1
            cards.append(copies[f].pop())
        if joker_cards and rng.random() < 0.35:
            # an inner joker keeps the meld valid and the joker not removable
            i = 1 if len(cards) == 3 else rng.randrange(1, len(cards) - 1)
            if faces[0][0] == faces[1][0]:
                i = rng.randrange(len(cards))
            cand = [*cards[:i], joker_cards[-1], *cards[i + 1 :]]
            if read_meld(cand, rules) is not None:
                back = cards[i]
                copies[back[:2]].append(back)
                free[back[:2]] += 1
                cards = cand
                joker_cards.pop()
        melds.append(cards)
        size += len(cards)
    rest = [c for f, lst in copies.items() for c in lst] + joker_cards
    rng.shuffle(rest)
    hand = rest[: rng.randint(5, 25)]
    return melds, hand


# --------------------------------------------------------------------------- peer


class Peer:
    def __init__(self, jokers: int = 4):
        from rummikub_solver import RuleSet, SolverMode

        self.rs = RuleSet(numbers=13, repeats=2, colours=4, jokers=jokers, min_len=3)
        self.mode = SolverMode.TILE_COUNT
        self.tiles = self.rs.tiles  # colour-major: colour c, number n at index c*13 + n-1; joker last

    def tile(self, c: Card):
        if c.suit == JOKER_SUIT:
            return self.tiles[-1]
        return self.tiles[c.suit * 13 + c.rank - 1]

    def state(self, table, hand):
        st = self.rs.new_game()
        st.add_table(*[self.tile(c) for c in table])
        st.add_rack(*[self.tile(c) for c in hand])
        st.initial = False
        return st

    def qualifies(self, table, hand) -> bool:
        st = self.state(table, hand)
        arr = self.rs.arrange_table(st)
        return arr is not None and arr.free_jokers == 0

    def solve(self, table, hand) -> int:
        st = self.state(table, hand)
        sol = self.rs.solve(st, mode=self.mode)
        return 0 if sol is None else len(sol.tiles)


def removable_joker(melds, rules) -> bool:
    """True if some meld holds a joker it could do without."""
    for mm in melds:
        if any(c.suit == JOKER_SUIT for c in mm):
            for i, c in enumerate(mm):
                if c.suit == JOKER_SUIT and read_meld(mm[:i] + mm[i + 1 :], rules) is not None:
                    return True
    return False


# --------------------------------------------------------------------------- report


def pct(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def fmt_ms(x):
    return f"{x * 1000:.2f}"


def print_table(title, header, rows):
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(title=title)
        for h in header:
            t.add_column(h, justify="right" if h != header[0] else "left")
        for r in rows:
            t.add_row(*[str(x) for x in r])
        Console(width=160).print(t)
    except ImportError:  # pragma: no cover
        print(title)
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
        for r in [header, *rows]:
            print("  ".join(str(x).rjust(w) for x, w in zip(r, widths, strict=False)))


def ratio_row(name, pairs):
    """pairs: (rami seconds, peer seconds) per position."""
    ratios = [a / b for a, b in pairs]
    ra = [a for a, _ in pairs]
    pb = [b for _, b in pairs]
    return [
        name,
        len(pairs),
        fmt_ms(statistics.median(ra)),
        fmt_ms(statistics.median(pb)),
        f"{statistics.median(ratios):.3f}",
        f"{pct(ratios, 0.95):.3f}",
        fmt_ms(max(ra)),
        fmt_ms(max(pb)),
    ]


HEADER = [
    "positions",
    "n",
    "rami med ms",
    "peer med ms",
    "median ratio",
    "p95 ratio",
    "rami max ms",
    "peer max ms",
]


# --cpu: times are the process's CPU time (time.process_time, every thread of
# it counted, the peer's included), which a machine shared with other jobs
# inflates far less than the wall clock
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def timed(fn):
    t = CLOCK()
    out = fn()
    return out, CLOCK() - t


def _count_lp() -> list[float] | None:
    """Time every LP the solver asks (``--tail``): the list the times go to,
    or None where this rami has no LP path to wrap."""
    mod = sys.modules.get("rami_core.solver.whole_table")
    lp = getattr(mod, "_lp", None)
    if lp is None:
        return None
    log: list[float] = []
    real = lp.lp_solve

    def counted(*a, **kw):
        t = CLOCK()
        try:
            return real(*a, **kw)
        finally:
            log.append(CLOCK() - t)

    lp.lp_solve = counted
    return log


def first_solve(k: int, seed: int, n: int) -> None:
    """Print the time of position ``k`` solved as the first solve of this
    process (rami imported, nothing solved yet), then solved again."""
    rng = random.Random(seed)
    positions = []
    for i in range(n):
        jokers = (0, 1, 2, 4)[i % 4]
        positions.append((jokers, *random_position(rng, jokers=jokers)))
    _j, melds, hand = positions[k]
    table = [c for m in melds for c in m]
    _sol, first = timed(lambda: _solve(table, hand, VOLEUR))
    _sol, again = timed(lambda: _solve(table, hand, VOLEUR))
    print(
        f"position {k} as the first solve of a process: {fmt_ms(first)} ms; solved again: {fmt_ms(again)} ms"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=120, help="random positions (default 120)")
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--no-peer", action="store_true", help="time rami only")
    ap.add_argument(
        "--lp-after", type=int, default=None, help="SolverOptions.lp_after (default: the solver's)"
    )
    ap.add_argument(
        "--relax-after", type=int, default=None, help="SolverOptions.relax_after (default: the solver's)"
    )
    ap.add_argument("--rami-path", default=None, help="time the rami package found in this directory")
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process instead of the wall clock")
    ap.add_argument(
        "--first-solve",
        action="store_true",
        help="also time the slowest position as the first solve of a fresh process",
    )
    ap.add_argument(
        "--tail",
        type=int,
        default=0,
        metavar="N",
        help="also list the N positions with the highest ratio to the peer, with the LP's share of each",
    )
    ap.add_argument("--child-first", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_first is not None:
        first_solve(args.child_first, args.seed, args.positions)
        return 0
    tuned = {
        k: v for k, v in (("lp_after", args.lp_after), ("relax_after", args.relax_after)) if v is not None
    }
    options = SolverOptions(**tuned)
    print("rami from", Path(sys.modules["rami_core"].__file__).parent)

    def solve(table, hand, rules, **kw):
        return _solve(table, hand, rules, **({"options": options} if options is not None else {}))

    lp_log = _count_lp() if args.tail else None
    tail = []
    rng = random.Random(args.seed)
    positions = []
    for k in range(args.positions):
        jokers = (0, 1, 2, 4)[k % 4]
        positions.append((jokers, *random_position(rng, jokers=jokers)))
    peer = None
    if not args.no_peer:
        try:
            peer = Peer()
        except ImportError:
            print("rummikub-solver is not installed: timing rami only (pip install rummikub-solver)")
    # warm up both (the peer compiles its cvxpy problem once; rami imports scipy once)
    table0 = [c for m in positions[0][1] for c in m]
    if peer:
        peer.solve(table0, positions[0][2])
    solve(table0, positions[0][2], VOLEUR)
    solve(table0, positions[0][2], ACE_LOW)

    voleur: dict[str, list] = {"all": [], "0 jokers": [], "1 joker": [], "2 jokers": [], "4 jokers": []}
    comparable: dict[str, list] = {"all": [], "0 jokers": [], "1-4 jokers": []}
    rami_times = []
    problems = []
    disagreements = []
    rule_diffs = 0
    not_proven = 0
    for k, (jokers, melds, hand) in enumerate(positions):
        table = [c for m in melds for c in m]
        if lp_log is not None:
            lp_log.clear()
        sol, dt = timed(lambda: solve(table, hand, VOLEUR))  # noqa: B023
        lp_asks = list(lp_log) if lp_log is not None else []
        rami_times.append((dt, k, jokers, len(table), len(hand)))
        problem = check_solution(table, hand, sol, VOLEUR)
        if problem or not sol.feasible:
            problems.append((k, "voleur answer rejected", problem))
        not_proven += not sol.optimal
        if peer is None:
            continue
        arr = peer.rs.arrange_table(peer.state(table, hand))
        if arr is None:
            continue  # the peer's rules cannot lay this table (Q-K-A): no fair time
        n_peer, dt_peer = timed(lambda: peer.solve(table, hand))  # noqa: B023
        key = {0: "0 jokers", 1: "1 joker", 2: "2 jokers", 4: "4 jokers"}[jokers]
        tail.append((dt / dt_peer, k, jokers, len(table), len(hand), dt, dt_peer, lp_asks))
        voleur["all"].append((dt, dt_peer))
        voleur[key].append((dt, dt_peer))
        if arr.free_jokers:
            continue
        low, dt_low = timed(lambda: solve(table, hand, ACE_LOW))  # noqa: B023
        comparable["all"].append((dt_low, dt_peer))
        comparable["0 jokers" if jokers == 0 else "1-4 jokers"].append((dt_low, dt_peer))
        if check_solution(table, hand, low, ACE_LOW):
            problems.append((k, "ace-low answer rejected", None))
        if n_peer != low.max_cards_laid:
            if low.max_cards_laid > n_peer and removable_joker(low.melds, ACE_LOW):
                rule_diffs += 1
            elif low.optimal:
                disagreements.append((k, f"rami {low.max_cards_laid} vs peer {n_peer}"))

    times = [t for t, *_ in rami_times]
    slow = max(rami_times)
    clock = "CPU time" if args.cpu else "wall clock"
    print(f"{len(positions)} positions (0/1/2/4 jokers in turn), seed {args.seed}, {clock}; {options}")
    print(
        f"rami, voleur rules, all positions: median {fmt_ms(statistics.median(times))} ms, "
        f"p95 {fmt_ms(pct(times, 0.95))} ms, max {fmt_ms(slow[0])} ms "
        f"(position {slow[1]}: {slow[2]} jokers, {slow[3]} table cards, {slow[4]} in hand); "
        f"over 1 s: {sum(t > 1 for t in times)}; not proven: {not_proven}"
    )
    if peer:
        print_table(
            "voleur positions: rami (voleur rules) vs rummikub-solver (its rules), same run",
            HEADER,
            [ratio_row(n, v) for n, v in voleur.items() if v],
        )
        print_table(
            "comparable subset: both with the ace low, no removable table joker, same run",
            HEADER,
            [ratio_row(n, v) for n, v in comparable.items() if v],
        )
        agree = len(comparable["all"]) - len(disagreements) - rule_diffs
        print(
            f"optima agree on {agree} of {len(comparable['all'])}; rules differences "
            f"(rami lays a joker the peer would call removable): {rule_diffs}"
        )
    if args.tail and tail:
        tail.sort(key=lambda row: -row[0])
        print_table(
            f"the {min(args.tail, len(tail))} positions with the highest ratio (voleur rules)",
            ["position", "jokers", "table", "hand", "ratio", "rami ms", "peer ms", "LP asks", "LP ms"],
            [
                [k, j, nt, nh, f"{r:.2f}", fmt_ms(a), fmt_ms(b), len(asks), fmt_ms(sum(asks))]
                for r, k, j, nt, nh, a, b, asks in tail[: args.tail]
            ],
        )
    if args.first_solve:
        import subprocess

        child = [sys.executable, str(Path(__file__).resolve()), "--child-first", str(slow[1])]
        child += ["--seed", str(args.seed), "--positions", str(args.positions)]
        child += ["--cpu"] if args.cpu else []
        child += ["--rami-path", args.rami_path] if args.rami_path else []
        print(subprocess.run(child, capture_output=True, text=True, check=True).stdout.strip())
    for d in problems + disagreements:
        print("PROBLEM: position", *d)
    if not problems and not disagreements:
        print("no disagreement; every answer re-checked")
    return 1 if problems or disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
