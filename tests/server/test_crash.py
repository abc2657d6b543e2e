"""Killing the process (SIGKILL) while hands are written loses no committed hand and
leaves no half-written one, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from engine import ActionTaken, ForcedBetPosted, history
from server.store import Store, migrate
from server.store.models import Action, Hand, HandPlayer, LedgerEntry

ROOT = Path(__file__).resolve().parents[2]


async def test_sigkill_mid_write_leaves_every_committed_hand_whole(db_url: str) -> None:
    if not db_url.startswith("sqlite"):
        engine = create_async_engine(db_url)
        await migrate.upgrade(engine)
        await engine.dispose()
    committed = 0
    with subprocess.Popen(
        [sys.executable, "-m", "tests.server.hand_writer", db_url],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as writer:
        assert writer.stdout is not None
        try:
            while committed < 150:  # let it write a while, then kill it mid-stream
                line = await asyncio.to_thread(writer.stdout.readline)
                assert line, "the writer died on its own"
                committed = int(line)
        finally:
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL

    async with Store.open(db_url) as store, store.engine.connect() as conn:
        hands = (await conn.execute(select(Hand.id, Hand.history))).all()
        assert len(hands) >= committed  # nothing it reported committed is lost
        for hand_id, text in hands:
            replay = history.replay(history.load(text))
            n = len(replay.hand.seats)
            players = await conn.execute(
                select(HandPlayer.final_stack)
                .where(HandPlayer.hand_id == hand_id)
                .order_by(HandPlayer.position)
            )
            assert list(players.scalars()) == replay.hand.stacks
            actions = await conn.execute(
                select(func.count()).select_from(Action).where(Action.hand_id == hand_id)
            )
            assert actions.scalar_one() == sum(
                isinstance(e, ActionTaken | ForcedBetPosted) for e in replay.events
            )
            ledger = await conn.execute(
                select(func.count()).select_from(LedgerEntry).where(LedgerEntry.hand_id == hand_id)
            )
            moved = sum(
                final != start
                for final, start in zip(replay.hand.stacks, replay.hand.setup.stacks, strict=True)
            )
            assert ledger.scalar_one() == moved and n >= 2
