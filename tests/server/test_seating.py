"""Seats and the ledger (server/tables/seating.py): leaving mid-hand and the cash-out of
whoever is seated when a table stops, end to end; the waiting list, on the runner alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from engine import TableConfig
from server.store import HandRows, HandWriter, Store, StoreError
from server.store.models import LedgerEntry
from server.store.models import Player as PlayerRecord
from server.tables import Player, TableRunner, TableSettings
from tests.server.clients import Inbox, connect, running, seated, send, until
from tests.server.conftest import demo_server


@pytest.mark.parametrize("on_turn", [True, False])
async def test_leaving_mid_hand_folds_without_waiting_for_the_clock(
    tmp_path: Path, on_turn: bool
) -> None:
    """A player who leaves while a hand is running is folded at once if it is their turn,
    else as soon as the action reaches them (here on the flop: the calling stations keep
    the hand going): with a 30 s clock, the hand is over within a moment. They stand up
    when it ends, their chips cashed out."""
    clock = {"decision_seconds": 30.0, "time_bank_seconds": 60.0}
    async with demo_server(tmp_path / "leave.db", seats=3, bots=2, **clock) as demo:
        runner = demo.runner
        ws = await seated(demo.address, "quitter", 2)
        try:
            request = await until(ws, "action_request", timeout=10)
            hand = request["hand_number"]
            if not on_turn:  # act, then leave while the others act
                action = "check" if request["menu"]["can_check"] else "call"
                await send(ws, type="act", table="demo", action_id="a1", action=action)
                await until(ws, "ack")
            await send(ws, type="leave", table="demo", id="bye")
            assert (await until(ws, "leaving"))["seat"] == 2
            started = asyncio.get_running_loop().time()
            async with asyncio.timeout(5):
                while runner.finished_through < hand:
                    await asyncio.sleep(0.01)
            assert asyncio.get_running_loop().time() - started < 2.0
            assert 2 not in runner.seats  # stood up at the end of the hand
        finally:
            await ws.close()
        async with demo.server.store.engine.connect() as conn:
            rows = await conn.execute(
                select(LedgerEntry.amount).join(PlayerRecord).where(PlayerRecord.name == "quitter")
            )
            assert sum(rows.scalars()) == 0  # bought in, played, cashed out


@pytest.mark.parametrize("stop", ["shutdown", "database_fails"])
async def test_a_stopped_table_cashes_out_whoever_is_seated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    """Stopped mid-hand (the server shuts down) or unable to store a hand: the hand never
    happened, and the ledger records each seated player leaving with what they had
    before it, so their buy-in, stored hands and cash-out add up to nothing."""
    db = tmp_path / "stopped.db"
    writes = 0
    original = HandWriter.write

    async def failing(self: HandWriter, rows: HandRows) -> int:
        nonlocal writes
        writes += "alice" in rows.hand["history"]
        if writes > 2:
            raise StoreError("the database refused the hand")
        return await original(self, rows)

    if stop == "database_fails":
        monkeypatch.setattr(HandWriter, "write", failing)
    async with (
        demo_server(db, seats=3, bots=2) as demo,
        connect(f"ws://{demo.address}/ws") as ws,
    ):
        await send(ws, type="hello", name="alice")
        await send(ws, type="sit", table="demo", seat=2, buy_in=10_000)
        in_pot = 0  # alice's chips in the hand being played

        def playing() -> bool:
            if stop == "database_fails":  # until alice's third hand, over, cannot be stored
                return not demo.runner.stopped
            return demo.runner.finished_through < 2 or in_pot == 0  # then shut down

        async with asyncio.timeout(30):
            while playing():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.1))
                except TimeoutError:
                    continue
                if message["type"] == "action_request":
                    action = "check" if message["menu"]["can_check"] else "call"
                    await send(
                        ws, type="act", table="demo", action_id=f"a{message['seq']}",
                        action=action, seq=message["seq"],
                    )  # fmt: skip
                elif message["type"] == "event":
                    event = message["event"]
                    if event["type"] == "hand_started":
                        in_pot = 0
                    elif event.get("seat") == 2 and "hand_total" in event:
                        in_pot = event["hand_total"]
    async with Store.open(f"sqlite+aiosqlite:///{db}") as store, store.engine.connect() as conn:
        rows = await conn.execute(
            select(LedgerEntry.reason, LedgerEntry.amount)
            .join(PlayerRecord)
            .where(PlayerRecord.name == "alice")
        )
        ledger = list(rows)
    reasons = [reason for reason, _ in ledger]
    assert reasons.count("buy_in") == 1 and reasons.count("cash_out") == 1
    assert sum(amount for _, amount in ledger) == 0


async def test_a_player_on_the_waiting_list_gets_the_seat_a_leaver_frees() -> None:
    """Straight from the runner: a full table puts a newcomer on the waiting list, and the
    seat a player leaves mid-hand is theirs when the hand is over."""
    config = TableConfig(small_blind=1, big_blind=2, seats=2)
    # A short clock, whoever is to act: nobody answers for the player who stays.
    settings = TableSettings("t", "T", config, decision_seconds=0.2, time_bank_seconds=0.0)
    runner = TableRunner(settings)
    inboxes = [Inbox(), Inbox(), Inbox()]
    players = [Player(n + 1, f"p{n}") for n in range(3)]
    async with running(runner):
        for seat in (0, 1):
            await runner.request(
                "sit", inboxes[seat], player=players[seat], seat=seat, buy_in=100, wait=False
            )
        waiting = await runner.request(
            "sit", inboxes[2], player=players[2], seat=None, buy_in=100, wait=False
        )
        assert (waiting["type"], waiting["position"]) == ("waiting", 1)
        assert runner.summary()["waiting"] == ["p2"]
        left = await runner.request("leave", inboxes[0])
        assert left["type"] in ("leaving", "left")  # "left" if no hand was dealt yet
        async with asyncio.timeout(5):
            while 0 not in runner.seats or runner.seats[0].player != players[2]:
                await asyncio.sleep(0.01)
        assert not runner.waiting
        assert (await inboxes[2].until("snapshot"))["view"] is not None


async def test_a_busted_player_sitting_again_while_the_database_is_away_is_seated(
    tmp_path: Path,
) -> None:
    """A player the engine stands up (busted) at the end of a hand the database cannot
    take yet hears ``player_stood`` and sits again. Her seat is freed only once the hand
    is stored, so the sit waits for that, and then seats her: no ``already_seated``
    (before: refused at once, and a client that had sat again after a bust sat nowhere
    for good; found by tests/stress/test_connections.py under load)."""
    db = tmp_path / "busted.db"
    async with demo_server(db, seats=3, bots=2) as demo:
        ws = await seated(demo.address, "gambler", 2)
        # The server may be mid-write when the test takes the lock: wait for it (5 s, the
        # default, ran out once in CI on a loaded machine).
        holder = sqlite3.connect(db, isolation_level=None, timeout=60)
        try:
            for _ in range(30):  # all in every hand against two calling stations
                request = await until(ws, "action_request", timeout=10)
                holder.execute("BEGIN IMMEDIATE")  # another process holds the database
                menu = request["menu"]
                await send(ws, type="act", table="demo", action_id=f"a{request['seq']}",
                           action=menu["raise_kind"], amount=menu["max_raise_to"])  # fmt: skip
                busted = False
                while True:  # the hand runs out; its end waits for the database
                    message = await until(ws, "event", "table_waiting")
                    if message["type"] == "table_waiting":
                        break
                    event = message["event"]
                    busted |= event["type"] == "player_stood" and event["seat"] == 2
                if busted:
                    break
                holder.execute("ROLLBACK")  # she won: the next hand
            else:
                raise AssertionError("never busted in 30 all-ins")
            await send(ws, type="sit", table="demo", seat=2, buy_in=10_000, id="again")
            with contextlib.suppress(TimeoutError):  # nothing yet: it waits for the hand
                answer = await until(ws, "error", "seated", timeout=1.0)
                raise AssertionError(f"answered while the hand was not stored: {answer}")
            holder.execute("ROLLBACK")
            # The hand is stored (the table says so), then the seat is hers again.
            assert (await until(ws, "table_waiting", "error"))["waiting_for"] is None
            answer = await until(ws, "error", "seated")
            assert answer["type"] == "seated" and answer["seat"] == 2, answer
            assert answer.get("re") == "again"
        finally:
            holder.close()
            await ws.close()
