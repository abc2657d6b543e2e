"""Several server processes sharing the real PostgreSQL (127.0.0.1:5432) and the real
Mosquitto (127.0.0.1:1883): the lobby and spectating across processes, a player sent to
the process hosting a table, and a killed process's table taken over with every chip
accounted for. These start real ``pokerroom serve`` processes and kill one with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from websockets.asyncio.client import ClientConnection, connect

from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.bots.client import BotClient
from server.store import Store
from tests.helpers import ask
from tests.server.conftest import create_pg_database, drop_pg_database
from tests.server.mqtt import MOSQUITTO, clear_retained, own_prefix, plant_foreign, test_bus

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 1.5


@dataclass
class Process:
    proc: asyncio.subprocess.Process
    address: str  # ws://127.0.0.1:PORT/ws


@contextlib.asynccontextmanager
async def serve(db: str, log: Path, prefix: str, *options: str) -> AsyncIterator[Process]:
    """``pokerroom serve`` in a process of its own, on a free port, its MQTT topics under
    ``prefix``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("wb") as errors:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "serve", "--db", db, "--bus", MOSQUITTO,
            "--mqtt-prefix", prefix, "--port", "0", "--lease-seconds", str(LEASE_SECONDS),
            *options,
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
            yield Process(proc, address)
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    async with asyncio.timeout(20):
                        await proc.wait()
                except TimeoutError:
                    proc.kill()
                    await proc.wait()


async def hello(address: str, name: str) -> ClientConnection:
    ws = await connect(address)
    welcome = await ask(ws, {"type": "hello", "version": 1, "name": name})
    assert welcome["type"] == "welcome", welcome
    return ws


async def until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    """Poll an async check until it gives something true."""
    async with asyncio.timeout(seconds):
        while not (found := await check()):
            await asyncio.sleep(0.1)
    return found


async def table_in_lobby(
    ws: ClientConnection, table: str, address: str, players: int = 5
) -> dict[str, Any]:
    """The table's lobby line once it shows the address and the number of players."""

    async def listed() -> dict[str, Any] | None:
        tables = (await ask(ws, {"type": "list_tables"}))["tables"]
        return next(
            (t for t in tables
             if t["id"] == table and t.get("address") == address and len(t["players"]) == players),
            None,
        )  # fmt: skip

    found: dict[str, Any] = await until(listed)
    return found


async def play_checks(ws: ClientConnection) -> None:
    """Answer every action request with a check, or a fold when checking is not free
    (so that this player keeps chips at the table), until cancelled."""
    n = 0
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] == "action_request":
            n += 1
            menu = message["menu"]
            action = "check" if menu["can_check"] else "fold"
            await ws.send(json.dumps(
                {"type": "act", "table": message["table"], "action": action,
                 "action_id": f"a{n}", "seq": message["seq"]}
            ))  # fmt: skip


async def test_two_processes_share_the_lobby_spectators_and_a_dead_ones_tables(
    tmp_path: Path,
) -> None:
    url = await create_pg_database()
    # Another deployment left a table "demo" (and "ghost") retained under the same root:
    # neither server may list, follow or take it.
    prefix = own_prefix()
    await plant_foreign(MOSQUITTO, prefix)
    try:
        async with Store.open(url, upgrade=True):
            pass
        plain = url.replace("postgresql+asyncpg://", "postgresql://")
        async with (
            serve(plain, tmp_path / "a.log", prefix, "--demo", "--demo-games", "nlhe") as a,
            serve(plain, tmp_path / "b.log", prefix) as b,
        ):
            await across(a, b, plain)
    finally:
        await drop_pg_database(url)
        await clear_retained(MOSQUITTO, prefix)


async def across(a: Process, b: Process, db: str) -> None:
    watcher = await hello(b.address, "watcher")
    # The lobby on B lists the table A hosts, with A's address.
    line = await table_in_lobby(watcher, "demo", a.address)
    assert line["name"] == "Demo"
    listed = (await ask(watcher, {"type": "list_tables"}))["tables"]
    assert [t["id"] for t in listed] == ["demo"]  # not the other deployment's "ghost"

    # A player asking B for a seat there is sent to A.
    refused = await ask(watcher, {"type": "sit", "table": "demo", "buy_in": 5_000})
    assert refused["code"] == "elsewhere" and refused["address"] == a.address

    # Alice plays at A, watched from B and from A.
    local = await hello(a.address, "local-watcher")
    alice = await hello(a.address, "alice")
    player = await spectated_across(watcher, local, alice)

    # Kill A mid-play: B takes its table over.
    a.proc.kill()
    await a.proc.wait()
    player.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await player
    moved = await table_in_lobby(watcher, "demo", b.address)
    assert {p["name"] for p in moved["players"]} == {f"house-{s}" for s in range(1, 6)}
    conn = await asyncpg.connect(db)
    try:
        await chips_accounted_for(conn)
        await plays_on(watcher, conn)
    finally:
        await conn.close()
    for ws in (watcher, local, alice):
        await ws.close()


async def spectated_across(
    watcher: ClientConnection, local: ClientConnection, alice: ClientConnection
) -> asyncio.Task[None]:
    """Spectating on B, through the broker, and on A directly: the same messages, while
    alice plays (the task playing for her is returned)."""
    remote_snapshot = await ask(watcher, {"type": "spectate", "table": "demo"})
    local_snapshot = await ask(local, {"type": "spectate", "table": "demo"})
    assert remote_snapshot["type"] == local_snapshot["type"] == "snapshot"
    seated = await ask(alice, {"type": "sit", "table": "demo", "buy_in": 10_000})
    assert seated["type"] == "seated", seated
    player = asyncio.create_task(play_checks(alice))
    start = max(remote_snapshot["seq"], local_snapshot["seq"])
    async with asyncio.timeout(60):
        there, here = await asyncio.gather(
            event_texts(watcher, start, 3), event_texts(local, start, 3)
        )
    common = sorted(there.keys() & here.keys())
    assert len(common) > 20
    assert all(there[seq] == here[seq] for seq in common)  # what a spectator on A sees
    assert common == list(range(common[0], common[0] + len(common)))  # none missing
    for text in there.values():  # alice's cards never reach a spectator unshown
        event = json.loads(text)["event"]
        if event["type"] == "hole_cards_dealt":
            assert event["cards"] is None
    return player


async def event_texts(ws: ClientConnection, after: int, hands: int) -> dict[int, str]:
    """Event messages (as sent) by seq after ``after``, until ``hands`` hands have ended."""
    seen: dict[int, str] = {}
    ended = 0
    while ended < hands:
        raw = await ws.recv()
        message = json.loads(raw)
        if message["type"] == "event" and message["seq"] > after:
            seen[message["seq"]] = raw if isinstance(raw, str) else raw.decode()
            ended += message["event"]["type"] == "hand_ended"
    return seen


async def plays_on(watcher: ClientConnection, conn: asyncpg.Connection) -> None:
    """B plays on at the table, numbering its hands after the voided one."""

    async def played() -> bool:
        tables = (await ask(watcher, {"type": "list_tables"}))["tables"]
        line = next(t for t in tables if t["id"] == "demo")
        return bool(line["hands_played"] >= 2)

    await until(played, 60)
    voided = await conn.fetchval("SELECT hand_number FROM hand_voids")
    after = await conn.fetchval(
        "SELECT min(hand_number) FROM hands WHERE started_at > (SELECT voided_at FROM hand_voids)"
    )
    assert after == voided + 1


async def chips_accounted_for(conn: asyncpg.Connection) -> None:
    """The void: one record, and every player at the table got back exactly the chips
    their last stored hand left them (or their buy-in, with no hand stored since)."""
    void = await conn.fetchrow("SELECT * FROM hand_voids")
    assert void is not None
    refunds = {int(k): v for k, v in json.loads(void["refunds"]).items()}
    names = dict(await conn.fetch("SELECT id, name FROM players"))
    # Alice and the house bots with chips at the table (one busted in the last hand
    # stored has none, unless it had bought in again).
    assert "alice" in {names[p] for p in refunds}
    assert {names[p] for p in refunds} <= {"alice"} | {f"house-{s}" for s in range(1, 6)}
    # As of the takeover, nobody has a chip at the table by the ledger.
    settled = await conn.fetchval("SELECT max(id) FROM ledger WHERE reason = 'void_cash_out'")
    owed = await conn.fetch(
        "SELECT player_id, sum(amount) AS chips FROM ledger WHERE id <= $1 GROUP BY player_id "
        "HAVING sum(amount) != 0", settled,
    )  # fmt: skip
    assert owed == []
    for player, chips in refunds.items():
        # Before the void: what the ledger held for them at the table.
        entries = await conn.fetch(
            "SELECT amount, reason, hand_id FROM ledger WHERE player_id = $1 ORDER BY id", player
        )
        void_at = [i for i, e in enumerate(entries) if e["reason"] == "void_cash_out"]
        assert len(void_at) == 1
        before = entries[: void_at[0]]
        assert entries[void_at[0]]["amount"] == -chips == -sum(e["amount"] for e in before)
        last = await conn.fetchrow(
            "SELECT hp.final_stack, h.hand_number FROM hand_players hp JOIN hands h "
            "ON h.id = hp.hand_id WHERE hp.player_id = $1 AND h.hand_number < $2 "
            "ORDER BY h.hand_number DESC LIMIT 1",
            player, void["hand_number"],
        )  # fmt: skip
        buy_ins = [e["amount"] for e in before if e["reason"] == "buy_in"]
        # A player who busted in their last hand bought in again (house bots do).
        expected = last["final_stack"] if last is not None and last["final_stack"] else buy_ins[-1]
        assert chips == expected
    # Alice's account at the table is settled: in, hands, out.
    alice = next(p for p, n in names.items() if n == "alice")
    assert await conn.fetchval("SELECT sum(amount) FROM ledger WHERE player_id = $1", alice) == 0


async def test_the_bot_sdk_sits_at_the_process_hosting_its_table(tmp_path: Path) -> None:
    """Two server processes (in this one, on one SQLite file and the real broker): a bot
    asking the one that does not host its table is sent to the one that does."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    settings = ServerSettings(port=0, house_think_seconds=0.0)
    prefix = own_prefix()
    async with (
        Store.open(db) as store_a,
        Store.open(db) as store_b,
        test_bus(await store_a.deployment(), prefix=prefix) as bus_a,
        test_bus(await store_b.deployment(), prefix=prefix) as bus_b,
    ):
        a = PokerServer(store_a, settings, bus=bus_a)
        async with a.running():
            config = TableConfig(small_blind=50, big_blind=100, seats=2)
            runner = await a.hosting.create_table(f"sdk {uuid.uuid4().hex[:8]}", config)
            await a.hosting.add_house_bots(runner, {0: ("house-sdk", "calling-station")}, 10_000)
            table = runner.settings.table_id
            b = PokerServer(store_b, settings, bus=bus_b)
            async with b.running():
                async with asyncio.timeout(10):  # b's lobby learns of a's table
                    while table not in b.hosting.hosts or table not in b.lobby.elsewhere:
                        await asyncio.sleep(0.05)
                client = BotClient(load_bot("calling-station"), b.hosting.address, name="wanderer",
                                   table=table, hands=3)  # fmt: skip
                async with asyncio.timeout(60):
                    summary = await client.run()
    assert summary.hands_played >= 3 and summary.table == table
    assert [e["code"] for e in summary.errors] == ["elsewhere"]
    assert client.url == a.hosting.address != b.hosting.address
    async with Store.open(db) as store:
        assert len(await store.list_hands(player="wanderer", limit=10)) >= 3
