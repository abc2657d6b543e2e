"""Hand evaluator speed, side by side with treys, phevaluator and eval7, in one run.

    make bench            # installs the peers (requirements/bench.txt) and runs this
    python -m bench.evaluator [--hands N]

Every evaluator gets the same random seven-card hands. Ratios are the peer's time over
ours: above 1 means we are faster. Each figure is the best of several repeats.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from itertools import combinations
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.NAME needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import eval7  # noqa: E402
import numpy as np  # noqa: E402
import treys  # noqa: E402
from phevaluator import evaluate_cards  # noqa: E402

from engine import equity  # noqa: E402
from engine.evaluator import rank7, rank_batch  # noqa: E402

RANKS, SUITS = "23456789TJQKA", "cdhs"
ROOT = Path(__file__).resolve().parents[1]


def best_of(repeats: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def text(code: int) -> str:
    return RANKS[code >> 2] + SUITS[code & 3]


def check_agreement(hands: list[list[int]]) -> None:
    """Every peer must order the hands as we do, or the timings compare different work."""
    ours = [rank7(*h) for h in hands]
    peers = {
        "eval7": [eval7.evaluate([eval7.Card(text(c)) for c in h]) for h in hands],
        # phevaluator and treys rank 1 as the best hand: negate to order like ours.
        "phevaluator": [-evaluate_cards(*(text(c) for c in h)) for h in hands],
    }
    evaluator = treys.Evaluator()
    peers["treys"] = [
        -evaluator.evaluate(
            [treys.Card.new(text(c)) for c in h[:2]], [treys.Card.new(text(c)) for c in h[2:]]
        )
        for h in hands
    ]
    for name, values in peers.items():
        for i in range(len(hands) - 1):
            a = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
            b = (values[i] > values[i + 1]) - (values[i] < values[i + 1])
            if a != b:
                sys.exit(f"{name} disagrees with us on {hands[i]} vs {hands[i + 1]}")


def import_and_memory() -> tuple[float, float]:
    """Seconds to import engine (numpy included) and evaluate once, in a fresh interpreter;
    and MB of resident memory the evaluator's tables add over numpy alone."""
    timing = """
import time
start = time.perf_counter()
import engine
engine.evaluate('As Ks Qs Js Ts 2c 3d')
print(time.perf_counter() - start)
"""
    memory = """
import numpy
def rss():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * 4096 / 1e6
base = rss()
import engine
engine.evaluate('As Ks Qs Js Ts 2c 3d')
engine.rank_batch(numpy.arange(7).reshape(1, 7))  # builds the numpy views as well
print(rss() - base)
"""

    def probe(code: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
        )
        return float(out.stdout)

    return min(probe(timing) for _ in range(3)), max(probe(memory) for _ in range(3))


def single_calls(hands: list[list[int]], repeats: int) -> dict[str, float]:
    """Seconds per single evaluation for us and each peer, on the same hands."""
    e7 = [[eval7.Card(text(c)) for c in h] for h in hands]
    tr_eval = treys.Evaluator()
    # treys is slow: a tenth of the hands is plenty.
    tr = [
        ([treys.Card.new(text(c)) for c in h[:2]], [treys.Card.new(text(c)) for c in h[2:]])
        for h in hands[: len(hands) // 10]
    ]

    def loop_ours() -> None:
        for h in hands:
            rank7(*h)

    def loop_eval7() -> None:
        for h in e7:
            eval7.evaluate(h)

    def loop_ph() -> None:
        for h in hands:
            evaluate_cards(*h)

    def loop_treys() -> None:
        for hole, board in tr:
            tr_eval.evaluate(hole, board)

    array = np.array(hands, dtype=np.int8)
    return {
        "ours": best_of(repeats, loop_ours) / len(hands),
        "eval7": best_of(repeats, loop_eval7) / len(hands),
        "phevaluator": best_of(repeats, loop_ph) / len(hands),
        "treys": best_of(repeats, loop_treys) / len(tr),
        "batch": best_of(repeats, lambda: rank_batch(array)) / len(hands),
    }


def exact_equity() -> tuple[float, float]:
    """Seconds for exact AhKh vs QsQd over all 1,712,304 boards: ours, phevaluator's loop."""
    start = time.perf_counter()
    result = equity(["AhKh", "QsQd"], exact=True)
    ours = time.perf_counter() - start
    assert (result[0].wins, result[0].ties) == (787_966, 6_732)

    ah, kh, qs, qd = 50, 46, 43, 41  # the codes are phevaluator's too
    start = time.perf_counter()
    wins = ties = 0
    for board in combinations([c for c in range(52) if c not in (ah, kh, qs, qd)], 5):
        a = evaluate_cards(ah, kh, *board)
        q = evaluate_cards(qs, qd, *board)
        wins += a < q  # phevaluator: lower is stronger
        ties += a == q
    theirs = time.perf_counter() - start
    assert (wins, ties) == (787_966, 6_732), (wins, ties)
    return ours, theirs


def main() -> int:
    parser = argparse.ArgumentParser(description="hand evaluator speed, side by side")
    parser.add_argument("--hands", type=int, default=200_000, help="random hands per row")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(2026)
    hands = [rng.sample(range(52), 7) for _ in range(args.hands)]
    check_agreement(hands[:3000])

    t = single_calls(hands, args.repeats)
    eq_ours, eq_ph = exact_equity()
    import_s, table_mb = import_and_memory()
    ns = 1e9
    # (measure, ours, peer, theirs, goal ratio or None); ratio = theirs / ours
    rows: list[tuple[str, float, str, float, float | None]] = [
        ("rank7, one call (ns)", t["ours"] * ns, "eval7", t["eval7"] * ns, 1.0),
        ("rank7, one call (ns)", t["ours"] * ns, "treys", t["treys"] * ns, 20.0),
        ("rank7, one call (ns)", t["ours"] * ns, "phevaluator", t["phevaluator"] * ns, None),
        (
            "rank_batch, per hand (ns)",
            t["batch"] * ns,
            "phevaluator loop",
            t["phevaluator"] * ns,
            3.0,
        ),
        ("exact AhKh vs QsQd (s)", eq_ours, "phevaluator loop", eq_ph, 2.0),
    ]
    peers = ", ".join(f"{p} {version(p)}" for p in ("eval7", "treys", "phevaluator"))
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {peers}")
    print(f"{len(hands):,} random 7-card hands; ratio = peer time / our time")
    header = f"{'measure':<27} {'ours':>10}  {'peer':<17} {'peer':>10} {'ratio':>7}  {'goal':<7} ok"
    print(header)
    print("-" * len(header))
    failed = False
    for what, mine, peer, theirs, goal in rows:
        ratio = theirs / mine
        ok = "" if goal is None else "yes" if ratio >= goal else "NO"
        failed |= ok == "NO"
        wanted = "" if goal is None else f">= {goal:g}"
        print(
            f"{what:<27} {mine:>10.2f}  {peer:<17} {theirs:>10.2f} {ratio:>7.2f}  {wanted:<7} {ok}"
        )
    for what, value, limit in (
        ("import + first evaluate (s)", import_s, 1.0),
        ("tables memory (MB)", table_mb, 100.0),
    ):
        ok = "yes" if value < limit else "NO"
        failed |= ok == "NO"
        wanted = f"< {limit:g}"
        print(f"{what:<27} {value:>10.3f}  {'':<17} {'':>10} {'':>7}  {wanted:<7} {ok}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
