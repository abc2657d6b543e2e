"""Hand evaluator speed, side by side with treys, phevaluator and eval7, in one run.

    make bench            # installs the peers (requirements/bench.txt) and runs this
    python -m bench.evaluator [--hands N] [--against PATH]

Every evaluator gets the same random hands. Ratios are the peer's time over ours: above 1
means we are faster. Each figure is the best of several repeats, ours and the peer's taken
in turn so that a slow spell of the machine hits both (the one-call loops a quarter of the
hands at a time, short enough to fit in a quiet moment; rank7's figure is the best of all
its runs, against every peer). phevaluator is called through its C
entry points (``phevaluator._pheval``), the fastest way to reach it from Python, except in
the row marked "wrapper".

``--against PATH`` also runs an earlier checkout of pokerroom (e.g. a git worktree of the
last release) on the same hands: its rank7, rank_batch and exact hold'em equity, in a
subprocess with ``PYTHONPATH=PATH``, ours in an identical subprocess, in turn. The goal is
that no-limit hold'em loses nothing: each ratio (its time over ours) at least 0.95.

Exits 1 if any goal is missed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import version
from itertools import combinations
from pathlib import Path
from typing import TypeVar

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.NAME needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import eval7  # noqa: E402
import numpy as np  # noqa: E402
import treys  # noqa: E402
from phevaluator import _pheval, evaluate_cards  # noqa: E402

from engine import equity  # noqa: E402
from engine.evaluator import rank7, rank_batch, rank_omaha_batch  # noqa: E402

RANKS, SUITS = "23456789TJQKA", "cdhs"
ROOT = Path(__file__).resolve().parents[1]
# (measure, ours, peer, theirs, goal ratio or None); ratio = theirs / ours
Row = tuple[str, float, str, float, float | None]
T = TypeVar("T")


def in_turn(repeats: int, *runs: Callable[[int], object], parts: int = 1) -> list[float]:
    """The best time of each run over ``repeats`` rounds, the runs taken in turn (in
    reverse order every other round). A run is given a part number and timed on each of
    ``parts`` parts of its work, the best part times ``parts`` counting: on a noisy
    machine a quiet moment is likelier to last through a short run."""
    best = [float("inf")] * len(runs)
    for round_ in range(repeats):
        order = range(len(runs)) if round_ % 2 == 0 else range(len(runs) - 1, -1, -1)
        for i in order:
            for part in range(parts):
                start = time.perf_counter()
                runs[i](part)
                best[i] = min(best[i], (time.perf_counter() - start) * parts)
    return best


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


def check_omaha_agreement(holes: np.ndarray, boards: np.ndarray) -> None:
    """phevaluator's Omaha ranks are ours upside down (7463 - ours), hand for hand."""
    ours = rank_omaha_batch(holes, boards).tolist()
    for h, b, mine in zip(holes.tolist(), boards.tolist(), ours, strict=True):
        if 7463 - _pheval.evaluate_omaha_cards(*b, *h) != mine:
            sys.exit(f"phevaluator's Omaha rank disagrees with ours on hole {h}, board {b}")


PROBE_IMPORT = """
import time
start = time.perf_counter()
import engine
engine.evaluate('As Ks Qs Js Ts 2c 3d')
print(time.perf_counter() - start)
"""
PROBE_MEMORY = """
import numpy
def rss():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * 4096 / 1e6
base = rss()
import engine
engine.evaluate('As Ks Qs Js Ts 2c 3d')
engine.rank_batch(numpy.arange(7).reshape(1, 7))  # builds the numpy tables as well
print(rss() - base)
"""


def probe(code: str, path: Path = ROOT) -> float:
    """What ``code`` prints, run in a fresh interpreter on the checkout at ``path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=path, env=env
    )
    return float(out.stdout)


def import_and_memory(paths: list[Path], rounds: int = 5) -> list[tuple[float, float]]:
    """Per checkout: seconds to import engine (numpy included) and evaluate once, in a
    fresh interpreter (best of ``rounds``, the checkouts in turn); and MB of resident memory
    the evaluator's tables add over numpy alone."""
    seconds = [float("inf")] * len(paths)
    for _ in range(rounds):
        for i, path in enumerate(paths):
            seconds[i] = min(seconds[i], probe(PROBE_IMPORT, path))
    return [
        (s, max(probe(PROBE_MEMORY, p) for _ in range(3)))
        for s, p in zip(seconds, paths, strict=True)
    ]


def omaha_first_load() -> float:
    """Seconds for the first Omaha batch in a fresh interpreter: the tables load."""
    code = """
import time
import numpy as np
from engine.evaluator import rank_omaha_batch
hole, board = np.array([[0, 1, 2, 3]]), np.array([[4, 5, 6, 7, 8]])
start = time.perf_counter()
rank_omaha_batch(hole, board)
print(time.perf_counter() - start)
"""
    return min(probe(code) for _ in range(3))


def quarters(items: list[T]) -> list[list[T]]:
    size = len(items) // 4
    return [items[i * size : (i + 1) * size] for i in range(4)]


def single_calls(hands: list[list[int]], repeats: int) -> dict[str, tuple[float, float]]:
    """Seconds per evaluation, (ours, the peer's), on the same hands."""
    # treys and the wrapper are slow: a tenth of the hands is plenty.
    tenth = hands[: len(hands) // 10]
    ours, ours_tenth = quarters(hands), quarters(tenth)
    e7 = quarters([[eval7.Card(text(c)) for c in h] for h in hands])
    tr_eval = treys.Evaluator()
    tr = quarters(
        [
            ([treys.Card.new(text(c)) for c in h[:2]], [treys.Card.new(text(c)) for c in h[2:]])
            for h in tenth
        ]
    )
    ev7 = _pheval.evaluate_7cards
    array = np.array(hands, dtype=np.int8)

    def loop_ours(part: int, parts: list[list[list[int]]] = ours) -> None:
        for h in parts[part]:
            rank7(*h)

    def loop_eval7(part: int) -> None:
        for h in e7[part]:
            eval7.evaluate(h)

    def loop_ph_wrapper(part: int) -> None:
        for h in ours_tenth[part]:
            evaluate_cards(*h)

    def loop_ph(part: int, parts: list[list[list[int]]] = ours) -> None:
        for h in parts[part]:
            ev7(*h)

    def loop_treys(part: int) -> None:
        for hole, board in tr[part]:
            tr_eval.evaluate(hole, board)

    def loop_ours_tenth(part: int) -> None:
        loop_ours(part, ours_tenth)

    n, k = len(hands), len(tenth)
    out: dict[str, tuple[float, float]] = {}
    mine, peer = in_turn(repeats, loop_ours, loop_eval7, parts=4)
    out["eval7"] = mine / n, peer / n
    mine, peer = in_turn(repeats, loop_ours_tenth, loop_treys, parts=4)
    out["treys"] = mine / k, peer / k
    mine, peer = in_turn(repeats, loop_ours_tenth, loop_ph_wrapper, parts=4)
    out["phevaluator wrapper"] = mine / k, peer / k
    mine, peer = in_turn(repeats, loop_ours, loop_ph, parts=4)
    out["phevaluator"] = mine / n, peer / n
    # One figure for rank7, the best of all its runs above: the machine is noisy, and a
    # slow spell during one peer's row should not make rank7 look slower against it.
    rank7_best = min(mine for mine, _ in out.values())
    out = {peer: (rank7_best, theirs) for peer, (_, theirs) in out.items()}
    whole = [hands]
    mine, peer = in_turn(repeats, lambda _: rank_batch(array), lambda _: loop_ph(0, whole))
    out["batch"] = mine / n, peer / n
    return out


def omaha_calls(deals: list[list[int]], repeats: int) -> tuple[float, float]:
    """Seconds per Omaha hand: rank_omaha_batch, phevaluator's C Omaha evaluator in a loop.
    A deal is four hole cards then five board cards."""
    holes = np.array([d[:4] for d in deals], dtype=np.int8)
    boards = np.array([d[4:] for d in deals], dtype=np.int8)
    check_omaha_agreement(holes[:3000], boards[:3000])
    board_first = [d[4:] + d[:4] for d in deals]  # phevaluator: board, then hole cards
    evo = _pheval.evaluate_omaha_cards

    def loop_ph(_: int) -> None:
        for d in board_first:
            evo(*d)

    ours, peer = in_turn(repeats, lambda _: rank_omaha_batch(holes, boards), loop_ph)
    return ours / len(deals), peer / len(deals)


def exact_holdem() -> tuple[float, float]:
    """Seconds for exact AhKh vs QsQd over all 1,712,304 boards: ours, phevaluator's loop."""
    ah, kh, qs, qd = 50, 46, 43, 41  # the codes are phevaluator's too
    ev7 = _pheval.evaluate_7cards
    counts = []

    def ours(_: int) -> None:
        result = equity(["AhKh", "QsQd"], exact=True)
        counts.append((result[0].wins, result[0].ties))

    def theirs(_: int) -> None:
        wins = ties = 0
        for board in combinations([c for c in range(52) if c not in (ah, kh, qs, qd)], 5):
            a = ev7(ah, kh, *board)
            q = ev7(qs, qd, *board)
            wins += a < q  # phevaluator: lower is stronger
            ties += a == q
        counts.append((wins, ties))

    times = in_turn(2, ours, theirs)
    assert set(counts) == {(787_966, 6_732)}, counts
    return times[0], times[1]


def exact_omaha() -> tuple[float, float]:
    """Seconds for exact AsAdKhQc vs JhTh9s8s (pot-limit Omaha) over all 1,086,008 boards:
    ours, phevaluator's Omaha evaluator in a loop over the same boards."""
    a_hand, b_hand = ["As", "Ad", "Kh", "Qc"], ["Jh", "Th", "9s", "8s"]
    a = [RANKS.index(c[0]) * 4 + SUITS.index(c[1]) for c in a_hand]
    b = [RANKS.index(c[0]) * 4 + SUITS.index(c[1]) for c in b_hand]
    evo = _pheval.evaluate_omaha_cards
    equity([a_hand, b_hand], board="2c 3c 4c 5c 6c")  # loads the Omaha tables: not timed
    counts = []

    def ours(_: int) -> None:
        result = equity([a_hand, b_hand], exact=True)
        counts.append((result[0].wins, result[1].wins, result[0].ties))

    def theirs(_: int) -> None:
        a_wins = b_wins = 0
        for board in combinations([c for c in range(52) if c not in a + b], 5):
            x = evo(*board, *a)
            y = evo(*board, *b)
            a_wins += x < y  # phevaluator: lower is stronger
            b_wins += y < x
        counts.append((a_wins, b_wins, 1_086_008 - a_wins - b_wins))

    times = in_turn(2, ours, theirs)
    assert len(set(counts)) == 1, counts
    return times[0], times[1]


# The --against worker: one per checkout, fed commands on stdin, answers seconds (a hand,
# or the whole equity).
WORKER = """
import sys, time
import numpy as np
from engine import equity
from engine.evaluator import rank7, rank_batch
array = np.load(sys.argv[1])
hands = array.tolist()
quarter = len(hands) // 4

def seconds(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start

def loop(hands):
    for h in hands:
        rank7(*h)

def per_hand():
    # The best of four short runs: a quiet moment of a noisy machine is likelier to last.
    parts = [hands[i * quarter : (i + 1) * quarter] for i in range(4)]
    return min(seconds(lambda: loop(part)) for part in parts) / quarter

def exact():
    result = equity(["AhKh", "QsQd"], exact=True)
    assert (result[0].wins, result[0].ties) == (787_966, 6_732)

rank_batch(array)
exact()  # warm up: numpy's tables, the combinations cache
runs = {
    "rank7": per_hand,
    "rank_batch": lambda: seconds(lambda: rank_batch(array)) / len(hands),
    "equity": lambda: seconds(exact),
}
for line in sys.stdin:
    print(runs[line.strip()](), flush=True)
"""


class Worker:
    """A checkout's evaluator in a subprocess (``PYTHONPATH=path``), timing on request."""

    def __init__(self, path: Path, hands_file: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(path)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, hands_file],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=path,  # '' on sys.path is the checkout too
            env=env,
        )

    def pin(self, cpu: int) -> None:
        """Run on that CPU only (where the OS allows)."""
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(self.process.pid, {cpu})

    def time(self, what: str) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(what + "\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def against(path: Path, hands: list[list[int]], rounds: int) -> list[Row]:
    """Rows comparing our checkout with the one at ``path``, the two in turn."""
    ns = 1e9
    with tempfile.TemporaryDirectory() as tmp:
        hands_file = str(Path(tmp) / "hands.npy")
        np.save(hands_file, np.array(hands, dtype=np.int8))
        workers = [Worker(ROOT, hands_file), Worker(path, hands_file)]
        best: dict[str, list[float]] = {}
        # Both on one CPU at a time, a different one each round: on a shared machine one
        # CPU can be slower than another for seconds on end.
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
        try:
            for round_ in range(rounds):  # many short runs in turn: the machine is noisy
                for worker in workers:
                    worker.pin(cpus[round_ % len(cpus)])
                for what in ("rank7", "rank_batch", "equity"):
                    if what == "equity" and round_ % 3:
                        continue  # a second a run: a third of the rounds is plenty
                    times = best.setdefault(what, [float("inf")] * 2)
                    for i in (0, 1) if round_ % 2 else (1, 0):
                        times[i] = min(times[i], workers[i].time(what))
        finally:
            for worker in workers:
                worker.close()
    return [
        ("rank7, one call (ns)", best["rank7"][0] * ns, "", best["rank7"][1] * ns, 0.95),
        (
            "rank_batch, per hand (ns)",
            best["rank_batch"][0] * ns,
            "",
            best["rank_batch"][1] * ns,
            0.95,
        ),
        ("exact AhKh vs QsQd (s)", best["equity"][0], "", best["equity"][1], 0.95),
    ]


def print_rows(rows: list[Row], peer_header: str = "peer") -> bool:
    """Print the table; whether every goal is met."""
    header = (
        f"{'measure':<27} {'ours':>10}  {peer_header:<20} {peer_header:>10} {'ratio':>7}"
        f"  {'goal':<7} ok"
    )
    print(header)
    print("-" * len(header))
    met = True
    for what, mine, peer, theirs, goal in rows:
        ratio = theirs / mine
        ok = "" if goal is None else "yes" if ratio >= goal else "NO"
        met &= ok != "NO"
        wanted = "" if goal is None else f">= {goal:g}"
        print(
            f"{what:<27} {mine:>10.2f}  {peer:<20} {theirs:>10.2f} {ratio:>7.2f}  {wanted:<7} {ok}"
        )
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description="hand evaluator speed, side by side")
    parser.add_argument("--hands", type=int, default=200_000, help="random hands per row")
    parser.add_argument(
        "--repeats", type=int, default=9, help="timed runs per row (the best counts)"
    )
    parser.add_argument(
        "--against", type=Path, metavar="PATH", help="an earlier checkout to compare with"
    )
    args = parser.parse_args()
    rng = random.Random(2026)
    hands = [rng.sample(range(52), 7) for _ in range(args.hands)]
    deals = [rng.sample(range(52), 9) for _ in range(args.hands)]
    check_agreement(hands[:3000])

    t = single_calls(hands, args.repeats)
    omaha_ours, omaha_ph = omaha_calls(deals, args.repeats)
    eq_ours, eq_ph = exact_holdem()
    plo_ours, plo_ph = exact_omaha()
    paths = [ROOT] + ([args.against.resolve()] if args.against else [])
    footprint = import_and_memory(paths)
    (import_s, table_mb), omaha_load = footprint[0], omaha_first_load()
    ns = 1e9
    rows: list[Row] = [
        ("rank7, one call (ns)", t["eval7"][0] * ns, "eval7", t["eval7"][1] * ns, 1.0),
        ("rank7, one call (ns)", t["treys"][0] * ns, "treys", t["treys"][1] * ns, 20.0),
        (
            "rank7, one call (ns)",
            t["phevaluator wrapper"][0] * ns,
            "phevaluator wrapper",
            t["phevaluator wrapper"][1] * ns,
            None,
        ),
        (
            "rank7, one call (ns)",
            t["phevaluator"][0] * ns,
            "phevaluator",
            t["phevaluator"][1] * ns,
            None,
        ),
        (
            "rank_batch, per hand (ns)",
            t["batch"][0] * ns,
            "phevaluator loop",
            t["batch"][1] * ns,
            3.0,
        ),
        ("Omaha batch, per hand (ns)", omaha_ours * ns, "phevaluator loop", omaha_ph * ns, 2.0),
        ("exact AhKh vs QsQd (s)", eq_ours, "phevaluator loop", eq_ph, 2.0),
        ("exact PLO AAKQ vs JT98 (s)", plo_ours, "phevaluator loop", plo_ph, 2.0),
    ]
    peers = ", ".join(f"{p} {version(p)}" for p in ("eval7", "treys", "phevaluator"))
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {peers}")
    print(
        f"{len(hands):,} random 7-card hands and {len(deals):,} Omaha deals; "
        "ratio = peer time / our time"
    )
    met = print_rows(rows)
    for what, value, limit in (
        ("import + first evaluate (s)", import_s, 1.0),
        ("tables memory (MB)", table_mb, 100.0),
        ("Omaha tables first load (s)", omaha_load, 1.0),
    ):
        ok = "yes" if value < limit else "NO"
        met &= ok == "yes"
        wanted = f"< {limit:g}"
        print(f"{what:<27} {value:>10.3f}  {'':<20} {'':>10} {'':>7}  {wanted:<7} {ok}")
    if args.against:
        print()
        print(f"against {args.against} (ratio = its time / ours; memory: its MB / ours)")
        (base_import, base_mb) = footprint[1]
        rows = against(args.against.resolve(), hands, 2 * args.repeats)
        rows += [
            ("import + first evaluate (s)", import_s, "", base_import, None),
            ("tables memory (MB)", table_mb, "", base_mb, 1.0),
        ]
        met &= print_rows(rows, "base")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
