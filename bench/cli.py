"""How long ``pokerroom`` commands take, each in a fresh process, start to exit.

    python -m bench.cli [--runs 5] [--before PATH]

Each command runs ``--runs`` times (after one untimed run that writes the bytecode
caches); the figure is the median wall time. ``--before PATH`` runs the same commands
from another checkout (``git worktree add /tmp/before COMMIT``), with PYTHONPATH set to
it, alternating run by run with this one so that load on the machine falls on both, and
prints how many times longer each took there. The goal for the hand tools (eval, compare,
--help) is under 0.25 s; the hand tools import no database or server code
(tests/server/test_cli_imports.py), so what is left is Python, numpy and the
evaluator's tables.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EULER = ROOT.parent / "shared" / "data" / "euler54" / "poker.txt"
GOAL = 0.25  # seconds, for the commands marked *

COMMANDS: list[tuple[str, list[str]]] = [
    ("--help *", ["--help"]),
    ("eval *", ["eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"]),
    ("compare *", ["compare", "2H 2D AH KC 3D", "4H 4C JC TC 3H"]),
    ("equity (1,000 boards)", ["equity", "AhKh", "QsQd", "--samples", "1000", "--seed", "1"]),
    ("demo --hands 1", ["demo", "--hands", "1", "--seed", "1"]),
    ("showdown (Euler 54)", ["showdown", str(EULER)]),
    ("hands --help", ["hands", "--help"]),
    ("serve --help", ["serve", "--help"]),
]


def timed(checkout: Path, argv: list[str]) -> tuple[float, float]:
    """Seconds ``pokerroom ARGV`` takes from ``checkout``, start to exit, and the CPU
    seconds it used (which other work on the machine changes less)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "server.cli", *argv],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def medians(checkouts: list[Path], argv: list[str], runs: int) -> list[tuple[float, float]]:
    """The median wall and CPU time of ``argv`` in each checkout, their runs interleaved."""
    for checkout in checkouts:
        timed(checkout, argv)  # bytecode caches, file cache
    times: list[list[tuple[float, float]]] = [[] for _ in checkouts]
    for _ in range(runs):
        for i, checkout in enumerate(checkouts):
            times[i].append(timed(checkout, argv))
    return [(statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs a command (default 5)")
    parser.add_argument("--before", type=Path, metavar="PATH", help="another checkout to compare")
    args = parser.parse_args()
    checkouts = [ROOT] + ([args.before.resolve()] if args.before else [])
    print(f"pokerroom commands: median seconds of {args.runs} fresh processes, wall and CPU")
    print(f"* the hand tools' goal: under {GOAL} s wall")
    header = f"{'command':<24}{'wall':>8}{'CPU':>8}"
    if args.before:
        header += f"{'before wall':>13}{'CPU':>8}{'before/this wall':>18}{'CPU':>7}"
    print(header)
    for label, argv in COMMANDS:
        if "showdown" in argv and not EULER.exists():
            continue
        figures = medians(checkouts, argv, args.runs)
        (wall, cpu), line = figures[0], f"{label:<24}{figures[0][0]:>8.3f}{figures[0][1]:>8.3f}"
        if args.before:
            old_wall, old_cpu = figures[1]
            line += f"{old_wall:>13.3f}{old_cpu:>8.3f}"
            line += f"{old_wall / wall:>17.1f}x{old_cpu / max(cpu, 1e-3):>6.1f}x"
        print(line, flush=True)
    if args.before:
        print(f"before: {args.before}")


if __name__ == "__main__":
    main()
