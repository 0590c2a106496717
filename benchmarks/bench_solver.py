"""Speed and agreement of rami's exact solver against rummikub-solver.

Run by hand (not by CI):

    pip install rummikub-solver          # the peer: an integer-programming solver (cvxpy + HiGHS)
    python benchmarks/bench_solver.py [--positions N] [--seed S] [--no-peer]

Random two-deck positions: a table that is a random valid arrangement of 6-72
cards (random runs and sets), a hand of 5-25 cards from what is left, 0-2
jokers in all. Each position is solved by rami_core.solver.solve and, where
the rules coincide, by rummikub-solver's tile-count mode. The rules coincide
when the ace is low only (rummikub numbers 1..13, 4 colours, 2 copies) and the
table holds no joker that could be removed: rummikub-solver never leaves a
free joker on the table (it refuses melds whose joker can go), which its
``arrange_table`` reports as free jokers. Such positions are counted as not
qualifying. A hand joker that rami lays where it could be removed (say at the
end of a run) is legal in rami but not in rummikub-solver: that disagreement is
reported apart, as a rules difference, after checking it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rami_core.cards import JOKER_SUIT, Card, build_deck
from rami_core.melds import MeldRules, read_meld
from rami_core.solver import check_solution, solve

ACE_LOW = MeldRules(ace_low=True, ace_high=False)


# --------------------------------------------------------------------------- positions


def random_position(rng: random.Random, *, ace_high: bool = False):
    """(table melds, hand) for two decks and 0-2 jokers."""
    jokers = rng.choice([0, 0, 1, 2])
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
            cand = cards[:i] + [joker_cards[-1]] + cards[i + 1 :]
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
    def __init__(self):
        from rummikub_solver import RuleSet, SolverMode

        self.rs = RuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3)
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
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
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
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        for r in [header, *rows]:
            print("  ".join(str(x).rjust(w) for x, w in zip(r, widths)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--positions",
        type=int,
        default=150,
        help="random positions to generate (default 150, about 2-3 minutes)",
    )
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--no-peer", action="store_true", help="time rami only")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    positions = [random_position(rng) for _ in range(args.positions)]
    peer = None
    if not args.no_peer:
        try:
            peer = Peer()
        except ImportError:
            print("rummikub-solver is not installed: timing rami only (pip install rummikub-solver)")
    # warm up both (the peer compiles its cvxpy problem once)
    if peer:
        t0 = [c for m in positions[0][0] for c in m]
        peer.solve(t0, positions[0][1])
    solve([c for m in positions[0][0] for c in m], positions[0][1], ACE_LOW)

    rows = {"all": ([], []), "0 jokers": ([], []), "1-2 jokers": ([], [])}
    qualifying = 0
    disagreements = []
    rule_diffs = 0
    rami_all = []
    for k, (melds, hand) in enumerate(positions):
        table = [c for m in melds for c in m]
        t = time.perf_counter()
        sol = solve(table, hand, ACE_LOW)
        dt_rami = time.perf_counter() - t
        rami_all.append(dt_rami)
        problem = check_solution(table, hand, sol, ACE_LOW)
        if problem or not sol.optimal or not sol.feasible:
            disagreements.append((k, "rami answer rejected", problem))
        if peer is None or not peer.qualifies(table, hand):
            continue
        qualifying += 1
        t = time.perf_counter()
        n_peer = peer.solve(table, hand)
        dt_peer = time.perf_counter() - t
        njok = sum(1 for c in table + hand if c.suit == JOKER_SUIT)
        for key in ("all", "0 jokers" if njok == 0 else "1-2 jokers"):
            rows[key][0].append(dt_rami)
            rows[key][1].append(dt_peer)
        if n_peer != sol.max_cards_laid:
            if sol.max_cards_laid > n_peer and removable_joker(sol.melds, ACE_LOW):
                rule_diffs += 1
            else:
                disagreements.append((k, f"rami {sol.max_cards_laid} vs peer {n_peer}", None))

    print(
        f"positions generated: {len(positions)}; rules coincide (ace low, no removable table joker): {qualifying}"
    )
    print(
        f"rami timing over all {len(positions)} positions: median {fmt_ms(statistics.median(rami_all))} ms, "
        f"p95 {fmt_ms(pct(rami_all, 0.95))} ms, max {fmt_ms(max(rami_all))} ms"
    )
    if peer:
        out = []
        for name, (a, b) in rows.items():
            if not a:
                continue
            ma, mb = statistics.median(a), statistics.median(b)
            pa, pb = pct(a, 0.95), pct(b, 0.95)
            out.append(
                [
                    name,
                    len(a),
                    fmt_ms(ma),
                    fmt_ms(mb),
                    f"{ma / mb:.3f}",
                    fmt_ms(pa),
                    fmt_ms(pb),
                    f"{pa / pb:.3f}",
                    fmt_ms(max(a)),
                    fmt_ms(max(b)),
                ]
            )
        print_table(
            "rami exact solver vs rummikub-solver (ms, same run)",
            [
                "positions",
                "n",
                "rami med",
                "peer med",
                "ratio",
                "rami p95",
                "peer p95",
                "ratio",
                "rami max",
                "peer max",
            ],
            out,
        )
        print(
            f"optima agree on {qualifying - len([d for d in disagreements if 'vs peer' in d[1]]) - rule_diffs} of {qualifying}; "
            f"rules differences (rami lays a joker where rummikub-solver forbids a removable one): {rule_diffs}"
        )
    if disagreements:
        print("DISAGREEMENTS:")
        for d in disagreements:
            print("  position", *d)
    else:
        print("no disagreement")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
