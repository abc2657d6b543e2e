"""A `pokerroom serve --demo` killed (SIGKILL) and started again, on SQLite and on
PostgreSQL: the restarted process hosts the demo table once, takes back its own demo table
rather than adding another, exits promptly on SIGTERM, and leaves every player's ledger
balanced. Run with ``POKERROOM_STRESS_RUNS=10`` (``make stress``) for ten rounds each.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect

from server.store import Store
from server.store.models import Hand, HandVoid, LedgerEntry, Player, TableLease, TableRecord
from tests.helpers import ask

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 1.5
RUNS = int(os.environ.get("POKERROOM_STRESS_RUNS", "1"))


@dataclass
class Served:
    proc: asyncio.subprocess.Process
    address: str
    log: Path


@contextlib.asynccontextmanager
async def serve(db: str, log: Path) -> AsyncIterator[Served]:
    """`pokerroom serve --demo` in a process of its own, on a free port."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    config = log.with_name("pokerroom.toml")  # house bots that do not pause to be watched
    config.write_text("[serve]\nhouse_think_seconds = 0.0\n")
    with log.open("ab") as errors:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "serve", "--db", db, "--demo",
            "--demo-games", "nlhe", "--port", "0", "--lease-seconds", str(LEASE_SECONDS),
            "--bus", "local", "--config", str(config),
            stdout=asyncio.subprocess.PIPE, stderr=errors, env=env, cwd=ROOT,
        )  # fmt: skip
    try:
        assert proc.stdout is not None
        address = ""
        async with asyncio.timeout(30):
            while not address:
                line = (await proc.stdout.readline()).decode()
                assert line, f"the server exited: {log.read_text()}"
                if line.startswith("bots and other clients: "):
                    address = line.split(": ", 1)[1].strip()
        yield Served(proc, address, log)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def until(check: object, seconds: float = 30.0) -> None:
    """Wait for an async condition."""
    assert callable(check)
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.05)


async def hands_stored(store: Store, more_than: int) -> bool:
    return await store.count_hands() > more_than


async def lease_expired(store: Store) -> bool:
    async with store.engine.connect() as conn:
        until_ = (await conn.execute(select(TableLease.expires_at))).scalars().all()
    now = dt.datetime.now(dt.UTC)
    return all((u if u.tzinfo else u.replace(tzinfo=dt.UTC)) < now for u in until_)


async def lobby(address: str) -> list[str]:
    async with connect(address) as ws:
        await ask(ws, {"type": "hello", "name": f"looker{time.monotonic_ns()}"})
        tables = (await ask(ws, {"type": "list_tables"}))["tables"]
    return [t["id"] for t in tables]


async def stop(served: Served) -> float:
    """SIGTERM; the seconds until the process exited."""
    started = time.monotonic()
    served.proc.send_signal(signal.SIGTERM)
    try:
        async with asyncio.timeout(20):
            await served.proc.wait()
    except TimeoutError:
        pytest.fail(f"still running 20 s after SIGTERM: {served.log.read_text()[-2000:]}")
    return time.monotonic() - started


async def one_host_and_balanced(store: Store, log: Path) -> None:
    """One demo table, its hands dealt one at a time with no number twice, and every
    player's chips at it back with them."""
    async with store.engine.connect() as conn:
        tables = (await conn.execute(select(TableRecord.name))).scalars().all()
        assert tables == ["demo"]
        hands = (
            await conn.execute(
                select(Hand.hand_number, Hand.started_at, Hand.ended_at).order_by(Hand.hand_number)
            )
        ).all()
        voids = set((await conn.execute(select(HandVoid.hand_number))).scalars())
        numbers = [h.hand_number for h in hands]
        assert sorted(set(numbers) | voids) == list(range(1, max([*numbers, *voids]) + 1))
        assert not set(numbers) & voids  # a voided hand is never also played
        # One host deals one hand at a time: each starts after the one before has ended.
        for before, after in itertools.pairwise(hands):
            if after.hand_number == before.hand_number + 1:
                assert after.started_at >= before.ended_at, (before, after)
        owed = (
            await conn.execute(
                select(Player.name, func.sum(LedgerEntry.amount))
                .join(Player)
                .group_by(Player.name)
                .having(func.sum(LedgerEntry.amount) != 0)
            )
        ).all()
        assert owed == [], owed
    text = log.read_text()
    for bad in ("Traceback", "UNIQUE", "duplicate key", "stopped by an error"):
        assert bad not in text, text[-3000:]


async def crash_and_restart(db_url: str, tmp: Path, *, past_the_lease: bool) -> None:
    log = tmp / "server.log"
    db = _plain(db_url)
    async with Store.open(db_url, upgrade=True) as store:
        async with serve(db, log) as first:
            await until(lambda: hands_stored(store, 3))
            first.proc.kill()  # SIGKILL: no cash-out, the lease left to expire
            await first.proc.wait()
        if past_the_lease:
            await until(lambda: lease_expired(store))
        played = await store.count_hands()
        async with serve(db, log) as second:
            # The demo table back, playing on: hands after those stored before the crash.
            await until(lambda: hands_stored(store, played + 5), 60)
            assert await lobby(second.address) == ["demo"]
            await until(lambda: hands_stored(store, played + 30), 60)
            assert await lobby(second.address) == ["demo"]
            seconds = await stop(second)
        assert second.proc.returncode == 0, log.read_text()[-2000:]
        assert seconds < 2.0, f"SIGTERM took {seconds:.2f} s"
        await one_host_and_balanced(store, log)


@pytest.mark.parametrize("run", range(RUNS))
async def test_a_restart_after_the_lease_hosts_the_demo_table_once(
    db_url: str, tmp_path: Path, run: int
) -> None:
    await crash_and_restart(db_url, tmp_path, past_the_lease=True)


@pytest.mark.parametrize("run", range(RUNS))
async def test_a_restart_within_the_lease_takes_back_its_own_demo_table(
    db_url: str, tmp_path: Path, run: int
) -> None:
    await crash_and_restart(db_url, tmp_path, past_the_lease=False)


def _plain(db_url: str) -> str:
    """The URL as a user gives it to ``pokerroom serve``."""
    return db_url.replace("postgresql+asyncpg://", "postgresql://").replace(
        "sqlite+aiosqlite://", "sqlite://"
    )
