"""CPU time of ``best_opening``: its search in C (``_openingc``) against its
Python twin, in one process, on the same seeded hands.

Run by hand (not by CI), from the repository's root, after building the
extension (``pip install -e .`` or ``python setup.py build_ext --inplace``)::

    python benchmarks/bench_opening.py [--hands N] [--games G] [--seed S] [--repeat R]

Two samples, each timed apart. "dealt": for each preset (classic, rami51, rami71, simple, kaluki, voleur), N seeded
deals of a hand of the preset's size plus one (the hand after a draw, when a
bot asks for its opening), asked with the preset's opening settings and with
no minimum (points 0: the going-out question the bots also ask). "games":
every question the bots and the referee asked ``best_opening`` while playing
G seeded two-seat games of each preset (greedy against expert, expert
against expert in voleur; one round each), recorded and asked again as they
were (their hands, settings and limits). Each
question is timed (``time.process_time``) with ``SolverOptions(compiled=True)``
and ``compiled=False`` (the Python search, as under ``RAMI_SOLVER_PURE=1``),
R times each, alternately; the answers and the states spent are checked equal.
Printed: per preset and in all, the questions, the states searched, the CPU
seconds of each path and their ratio (Python / C) for the whole
``best_opening`` call (the candidates' building is shared Python code; only
the search is compiled), then for the search alone (``_search`` against
``_openingc.search`` on the same prepared data, recorded once).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rami_core.cards import build_deck
from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for
from rami_core.solver import SolverOptions, best_opening
from rami_core.solver.best_opening import StateBudget, compiled_opening

PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")
BIG = 10**12


def questions(preset: str, hands: int, seed: int):
    """(hand, meld rules, opening, score) of `hands` seeded deals."""
    rules = rules_for(load_profile(preset), 2)
    rng = random.Random(f"{seed}:{preset}")
    deck = build_deck(rules.decks, rules.deck_jokers)
    out = []
    for _ in range(hands):
        hand = rng.sample(deck, rules.hand_size + 1)
        for spec in (rules.opening, replace(rules.opening, points=0, pure_run=False, run_and_set=False)):
            out.append((hand, rules.melds, spec, rules.score_args))
    return out


def game_questions(preset: str, games: int, seed: int):
    """The best_opening questions asked in `games` seeded games of the preset,
    as (hand, meld rules, opening, score, max_states)."""
    from rami_core.game.state import OVER
    from rami_core.players.bots import candidates, make_bot
    from rami_core.referee import legal
    from rami_core.referee.caps import STEP_CAP
    from rami_core.referee.engine import Game

    asked = []

    def recording(hand, rules, opening, *, score=None, max_states=None, **kw):
        asked.append((list(hand), rules, opening, score, max_states))
        return best_opening(hand, rules, opening, score=score, max_states=max_states, **kw)

    saved = candidates.best_opening, legal.best_opening
    candidates.best_opening = legal.best_opening = recording  # type: ignore[assignment]
    try:
        names = ["expert", "expert"] if preset == "voleur" else ["greedy", "expert"]
        for g in range(games):
            game = Game.new(load_profile(preset), 2, seed=seed * 1000 + g)
            bots = [make_bot(n, g * 8 + i) for i, n in enumerate(names)]
            steps = 0
            while game.state.phase != OVER and steps < 20 * STEP_CAP:
                seat = game.state.turn
                game.apply(bots[seat].choose(game.view(seat), game.rules))
                steps += 1
    finally:
        candidates.best_opening, legal.best_opening = saved
    return asked


def timed(qs, compiled: bool):
    """(CPU seconds, answers, states spent) over the questions."""
    opts = SolverOptions(compiled=compiled)
    answers, states = [], 0
    t = time.process_time()
    for hand, melds, spec, score, *limit in qs:
        budget = StateBudget(BIG)
        max_states = limit[0] if limit else None
        answers.append(
            best_opening(hand, melds, spec, score=score, options=opts, budget=budget, max_states=max_states)
        )
        states += BIG - budget.left
    return time.process_time() - t, answers, states


def search_args(qs):
    """The prepared data each question hands to the search (recorded from
    the compiled path: the arguments of ``_openingc.search``)."""
    bo = importlib.import_module("rami_core.solver.best_opening")
    mod, recorded = bo.compiled_opening(), []

    class Recorder:
        @staticmethod
        def search(*args):
            recorded.append(args)
            return mod.search(*args)

    saved = bo.compiled_opening
    bo.compiled_opening = lambda: Recorder
    try:
        timed(qs, True)
    finally:
        bo.compiled_opening = saved
    return recorded


def timed_search(args_list, compiled: bool) -> float:
    """CPU seconds of the search alone (``_openingc.search`` or Python's
    ``_search``) over the recorded arguments."""
    bo = importlib.import_module("rami_core.solver.best_opening")
    search = bo.compiled_opening().search if compiled else bo._search
    t = time.process_time()
    for args in args_list:
        search(*args)
    return time.process_time() - t


def table(title: str, samples, repeat: int) -> bool:
    """Time both paths on each preset's questions and print a table; False
    where the answers or the states differ."""
    rows = []
    for preset, qs in samples:
        timed(qs, True)  # warm the caches both paths share (run windows, readings)
        recorded = search_args(qs)
        c_s = p_s = cs_s = ps_s = 0.0
        for _ in range(repeat):
            tp, ap_, sp = timed(qs, False)
            tc, ac, sc = timed(qs, True)
            if ac != ap_ or sc != sp:
                print(f"{title} {preset}: the two searches differ", file=sys.stderr)
                return False
            c_s, p_s = c_s + tc, p_s + tp
            ps_s += timed_search(recorded, False)
            cs_s += timed_search(recorded, True)
        rows.append((preset, len(qs), sp, p_s / repeat, c_s / repeat, ps_s / repeat, cs_s / repeat))
    total = ("all", *(sum(r[i] for r in rows) for i in range(1, 7)))
    print(f"{title}: CPU seconds a pass (mean of {repeat}); best_opening whole, then its search alone")
    print(
        f"{'preset':<8} {'questions':>9} {'states':>10} {'python s':>9} {'C s':>8} {'ratio':>6}"
        f" {'search py s':>11} {'search C s':>10} {'ratio':>6}"
    )
    for name, n, states, p, c, ps, cs in [*rows, total]:
        print(
            f"{name:<8} {n:>9} {states:>10} {p:>9.3f} {c:>8.3f} {p / c if c else float('nan'):>6.2f}"
            f" {ps:>11.3f} {cs:>10.4f} {ps / cs if cs else float('nan'):>6.1f}"
        )
    print()
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="hands a preset (default 200; two questions each)")
    ap.add_argument(
        "--games", type=int, default=3, help="seeded games a preset whose questions are replayed (0: none)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed passes of each path (default 3)")
    args = ap.parse_args(argv)
    if compiled_opening() is None:
        print(
            "the compiled opening search is not built (or RAMI_SOLVER_PURE / RAMI_PURE is set)",
            file=sys.stderr,
        )
        return 1
    dealt = [(p, questions(p, args.hands, args.seed)) for p in PRESETS]
    ok = table(f"dealt hands (seed {args.seed})", dealt, args.repeat)
    if ok and args.games:
        played = [(p, game_questions(p, args.games, args.seed)) for p in PRESETS]
        ok = table(f"questions of {args.games} seeded games a preset (seed {args.seed})", played, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
