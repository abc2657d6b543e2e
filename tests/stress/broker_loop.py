"""The broker and tournament tests, each file alone, again and again, on the shared
Mosquitto with another deployment's retained messages on the default topics:

    python -m tests.stress.broker_loop [--runs 50]

Before each run the other deployment's messages are planted again (a test file's own
session clears what it planted when it ends); at the end they are cleared. Each run is
``pytest FILE`` in a process of its own; a failed run's output is kept in
``artifacts/broker-loop/`` (emptied at the start). Prints a table of runs, failures and
mean seconds per file, and exits 1 if any run failed.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiomqtt

from server.bus import DEFAULT_PREFIX
from server.bus.mqtt import MqttBus
from tests.server.mqtt import MOSQUITTO, foreign_lines, plant_foreign

ROOT = Path(__file__).resolve().parents[2]
FILES = (
    "tests/server/test_bus.py",
    "tests/server/test_tournament_server.py",
    "tests/server/test_remote.py",
    "tests/server/test_processes.py",
)
ARTIFACTS = ROOT / "artifacts" / "broker-loop"
RUN_SECONDS = 1800
"""A run still going after this long is stopped and counted as failed (each test has
pytest-timeout's 600 s of its own; this catches a hang outside a test)."""


@dataclass
class Tally:
    seconds: list[float] = field(default_factory=list)
    failures: int = 0


async def clear_foreign(url: str = MOSQUITTO, prefix: str = DEFAULT_PREFIX) -> None:
    """Clear what :func:`plant_foreign` leaves retained: an empty retained payload on
    each of its topics."""
    host, port = MqttBus.address(url)
    async with aiomqtt.Client(host, port) as client:
        for topic in foreign_lines(prefix):
            await client.publish(topic, b"", retain=True)


def run_once(file: str, run: int) -> tuple[bool, float]:
    """``pytest FILE`` alone, after planting the other deployment's messages again:
    whether it passed, and its seconds. A failed run's output goes to ARTIFACTS."""
    asyncio.run(plant_foreign(MOSQUITTO, DEFAULT_PREFIX))
    command = [sys.executable, "-m", "pytest", file, "-q", "-p", "no:cacheprovider"]
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_SECONDS, check=False
        )
        passed, output = done.returncode == 0, done.stdout + done.stderr
        status = f"exit {done.returncode}"
    except subprocess.TimeoutExpired as exc:
        passed, status = False, f"still running after {RUN_SECONDS} s: stopped"
        output = "".join(
            part.decode(errors="replace") if isinstance(part, bytes) else part or ""
            for part in (exc.stdout, exc.stderr)
        )
    seconds = time.monotonic() - started
    if not passed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        kept = ARTIFACTS / f"{Path(file).stem}-run{run}.txt"
        kept.write_text(f"$ {' '.join(command)}\n{status}, {seconds:.1f} s\n\n{output}")
    return passed, seconds


def table(tallies: dict[str, Tally]) -> str:
    width = max(len(f) for f in tallies)
    lines = [f"{'file':<{width}}  {'runs':>5}  {'failures':>8}  {'mean s':>7}"]
    for file, tally in tallies.items():
        mean = statistics.fmean(tally.seconds) if tally.seconds else 0.0
        runs = len(tally.seconds)
        lines.append(f"{file:<{width}}  {runs:>5}  {tally.failures:>8}  {mean:>7.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stress.broker_loop")
    parser.add_argument("--runs", type=int, default=50, help="runs of each file (default 50)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: give at least 1")
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    tallies = {file: Tally() for file in FILES}
    try:
        # Run by run, each file in turn: a bad minute on the machine falls on all of them.
        for run in range(1, args.runs + 1):
            for file, tally in tallies.items():
                passed, seconds = run_once(file, run)
                tally.seconds.append(seconds)
                tally.failures += not passed
                verdict = "passed" if passed else f"FAILED (output in {ARTIFACTS})"
                print(f"run {run}/{args.runs} {file}: {verdict} in {seconds:.1f} s", flush=True)
    finally:
        asyncio.run(clear_foreign())
        print(table(tallies), flush=True)
    return 1 if any(t.failures for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
