"""The websocket server end to end: a real server on 127.0.0.1, real websockets clients."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from websockets.asyncio.client import connect

from engine import TableConfig
from server import players as players_module
from server.app import PokerServer, ServerSettings
from server.players import Players
from server.store import Store
from server.tables import TableError
from tests.helpers import ask
from tests.server.clients import seated, send, until
from tests.server.conftest import demo_server


async def test_healthz_answers_plain_http(app: tuple[PokerServer, str]) -> None:
    _, address = app
    body = await asyncio.to_thread(
        lambda: urllib.request.urlopen(f"http://{address}/healthz").read()
    )
    assert body == b"ok\n"


async def test_a_player_plays_hands_that_are_stored(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with connect(f"ws://{address}/ws") as ws:
        await send(ws, type="hello", name="alice")
        assert (await until(ws, "welcome"))["player"]["name"] == "alice"
        await send(ws, type="sit", table="demo", seat=5, buy_in=10_000, wait_for_big_blind=False)
        assert (await until(ws, "seated"))["seat"] == 5
        played = 0
        async with asyncio.timeout(60):
            while played < 3:
                message = json.loads(await ws.recv())
                if message["type"] == "action_request":
                    menu = message["menu"]
                    action = "check" if menu["can_check"] else "call"
                    await send(
                        ws, type="act", table="demo", action_id=f"a{message['seq']}", action=action
                    )
                elif message["type"] == "event" and message["event"]["type"] == "hand_ended":
                    seats = [seat for seat, _ in message["event"]["stacks"]]
                    played += 5 in seats
    async with asyncio.timeout(10):
        while not await server.store.list_hands(player="alice"):
            await asyncio.sleep(0.05)
    mine = await server.store.list_hands(player="alice", limit=100)
    assert len(mine) >= 3 - 1  # the last may still be writing


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "act", "table": "demo"}', "bad_message"),
        ('{"type": "act", "table": "demo", "action_id": "x", "action": "fold"}', "hello_first"),
        ('{"type": "spectate", "table": "nowhere"}', "no_table"),
        ('{"type": "hello", "name": "bad name!"}', "bad_message"),
    ],
)
async def test_bad_messages_get_an_error_and_the_connection_stays_open(
    app: tuple[PokerServer, str], raw: str, code: str
) -> None:
    _, address = app
    async with connect(f"ws://{address}/ws") as ws:
        await ws.send(raw)
        assert (await until(ws, "error"))["code"] == code
        await send(ws, type="ping", id="still here")
        assert (await until(ws, "pong"))["re"] == "still here"


async def test_each_hand_is_committed_before_the_deal_and_verifiable_after(
    app: tuple[PokerServer, str],
) -> None:
    from server.fairness import verify_stored

    server, address = app
    player = await seated(address, "gina", 5)
    spectator = await connect(f"ws://{address}/ws")
    try:
        await send(spectator, type="spectate", table="demo")
        commitments: dict[int, str] = {}
        async with asyncio.timeout(60):
            while len(commitments) < 3:  # two hands over, a third dealt
                message = json.loads(await player.recv())
                assert message["type"] != "deck_revealed"  # the seed would show mucked cards
                if message["type"] == "deck_commitment":
                    commitments[message["hand_number"]] = message["commitment"]
                elif message["type"] == "event" and message["event"]["type"] == "hand_started":
                    assert message["hand_number"] in commitments  # committed before the deal
                elif message["type"] == "action_request":
                    action = "check" if message["menu"]["can_check"] else "call"
                    await send(
                        player,
                        type="act",
                        table="demo",
                        action_id=str(message["seq"]),
                        action=action,
                    )
        # A spectator gets commitments too, and never a seed.
        seen: list[str] = []
        while True:
            try:
                seen.append(json.loads(await asyncio.wait_for(spectator.recv(), 0.2))["type"])
            except TimeoutError:
                break
        assert "deck_commitment" in seen and "deck_revealed" not in seen
    finally:
        await player.close()
        await spectator.close()
    # After the hand, the stored seed hashes to the commitment everyone was sent.
    stored = await server.store.list_hands(table="demo", limit=50)
    checked = [s.hand_number for s in stored if s.hand_number in commitments]
    assert len(checked) >= 2
    for summary in stored:
        result = await verify_stored(server.store, summary.id)
        assert result.ok, result.message
        if summary.hand_number in commitments:
            assert result.commitment == commitments[summary.hand_number]


async def test_nobody_can_take_over_another_players_name_or_seat(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    ws = await seated(address, "frank", 5)
    try:
        async with connect(f"ws://{address}/ws") as thief:
            for name in ("frank", "house-1"):  # a guest's name, and a house bot's
                await send(thief, type="hello", name=name)
                assert (await until(thief, "error"))["code"] == "name_taken"
            await send(thief, type="hello", session="x" * 32)
            assert (await until(thief, "error"))["code"] == "bad_session"
            await send(thief, type="resume", table="demo", last_seq=0)
            assert (await until(thief, "error"))["code"] == "hello_first"
    finally:
        await ws.close()


async def test_a_player_creates_tables_up_to_the_limit_and_no_more(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    limit = server.settings.tables_per_player
    async with connect(f"ws://{address}/ws") as ws:
        await send(ws, type="hello", name="builder")
        await until(ws, "welcome")
        for n in range(limit):
            await send(ws, type="create_table", name=f"home {n}", small_blind=1, big_blind=2)
            assert (await until(ws, "table_created"))["table"]["id"] == f"home-{n}"
        await send(ws, type="create_table", name="one more", small_blind=1, big_blind=2, id="x")
        error = await until(ws, "error")
        assert (error["code"], error["re"]) == ("too_many_tables", "x")
        await send(ws, type="list_tables")
        listed = [t["id"] for t in (await until(ws, "tables"))["tables"]]
    assert len(listed) == limit + 1 and "one-more" not in listed  # the demo and theirs


async def test_tables_created_at_once_with_one_name_get_their_own_ids(tmp_path: Path) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'server.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        config = TableConfig(small_blind=1, big_blind=2, seats=2)
        async with asyncio.timeout(10):  # an orphaned table would hold the shutdown up
            async with server.running():
                runners = await asyncio.gather(
                    *(server.hosting.create_table("Same name", config) for _ in range(3))
                )
                ids = [r.settings.table_id for r in runners]
                assert sorted(ids) == ["same-name", "same-name-2", "same-name-3"]
                assert [server.hosting.tables[i] for i in ids] == runners


async def test_created_tables_close_when_idle_and_the_server_caps_them(tmp_path: Path) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'idle.db'}") as store:
        settings = ServerSettings(port=0, idle_table_seconds=0.4, max_tables=1)
        server = PokerServer(store, settings)
        async with server.running() as ws_server:
            address = f"127.0.0.1:{next(iter(ws_server.sockets)).getsockname()[1]}"
            async with connect(f"ws://{address}/ws") as ws, connect(f"ws://{address}/ws") as other:
                for client, name in ((ws, "host"), (other, "other")):
                    await send(client, type="hello", name=name)
                    await until(client, "welcome")
                await send(ws, type="create_table", name="Home", small_blind=1, big_blind=2)
                await until(ws, "table_created")
                await send(other, type="create_table", name="Mine", small_blind=1, big_blind=2)
                assert (await until(other, "error"))["code"] == "too_many_tables"
                # A spectator is no player: the table closes, and the spectator hears of it.
                await send(other, type="spectate", table="home")
                await until(other, "snapshot")
                closed = await until(other, "table_closed", timeout=5)
                assert closed == {"type": "table_closed", "table": "home", "reason": "idle"}
                await send(ws, type="list_tables")
                assert (await until(ws, "tables"))["tables"] == []
                # The cap counts the tables there are: another may be created now.
                await send(other, type="create_table", name="Mine", small_blind=1, big_blind=2)
                assert (await until(other, "table_created"))["table"]["id"] == "mine"
                await send(other, type="sit", table="mine", seat=0, buy_in=200)
                await until(other, "seated")
                async with asyncio.timeout(5):  # the closer has looked, and seen a player
                    while "mine" in server.hosting.idle_since:
                        await asyncio.sleep(0.01)
                assert "mine" in server.hosting.tables


async def test_a_table_plays_on_after_a_restart_with_the_next_hand_numbers(
    tmp_path: Path,
) -> None:
    numbers: list[list[int]] = []
    for _ in range(2):  # the same database, the same table, twice
        async with demo_server(tmp_path / "restart.db", seats=3, bots=2) as demo:
            async with asyncio.timeout(20):
                while demo.runner.finished_through < (max(numbers[0]) + 3 if numbers else 3):
                    await asyncio.sleep(0.01)
        async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}") as store:
            numbers.append([h.hand_number for h in await store.list_hands(limit=1000)])
    first, second = (sorted(n) for n in numbers)
    assert first[:3] == [1, 2, 3]
    assert second[: len(first)] == first and second[len(first)] == first[-1] + 1
    assert len(second) == len(set(second))


async def test_spam_from_one_address_leaves_room_for_everyone_else(tmp_path: Path) -> None:
    """110 throwaway guests at one address try to fill the server with tables, and 200
    accounts: the caps per address hold, the tables nobody sat at close soon, and a
    player at another address still creates a table and an account."""
    settings = ServerSettings(port=0, unused_table_seconds=0.5, idle_table_seconds=300)
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'spam.db'}") as store:
        server = PokerServer(store, settings)
        async with server.running():
            spammers = [await connect(server.hosting.address) for _ in range(110)]
            try:
                created = refused = peak = 0
                for i, ws in enumerate(spammers):
                    await ask(ws, {"type": "hello", "name": f"spam{i}"})
                    for n in range(settings.tables_per_player):
                        reply = await ask(ws, {"type": "create_table", "name": f"s{i}-{n}",
                                               "small_blind": 1, "big_blind": 2})  # fmt: skip
                        if reply["type"] == "table_created":
                            created += 1
                        else:
                            assert reply["code"] == "too_many_tables", reply
                            refused += 1
                        peak = max(peak, len(server.hosting.tables))
                # Never more open at once than the cap (some closed meanwhile, unused,
                # and others took their place).
                assert peak == settings.tables_per_address <= created < refused
                accounts: Counter[str] = Counter()
                for n in range(200):  # from 20 connections, each within the message rate
                    made = await ask(
                        spammers[n % 20], {"type": "create_account", "name": f"acct{n}"}
                    )
                    accounts[made.get("code", made["type"])] += 1
                assert accounts == {
                    "account": settings.accounts_per_address,
                    "too_many_accounts": 200 - settings.accounts_per_address,
                }
                # Someone else, somewhere else, is not stopped by any of it; their table,
                # sat at, stays open while the spam tables close.
                async with connect(server.hosting.address, local_addr=("127.0.0.2", 0)) as ws:
                    await ask(ws, {"type": "hello", "name": "normal"})
                    table = await ask(ws, {"type": "create_table", "name": "Friday",
                                           "small_blind": 1, "big_blind": 2})  # fmt: skip
                    assert table["type"] == "table_created", table
                    sat = await ask(ws, {"type": "sit", "table": "friday", "buy_in": 200})
                    assert sat["type"] in ("seated", "waiting"), sat
                    account = await ask(ws, {"type": "create_account", "name": "normal-acct"})
                    assert account["type"] == "account", account
                    # The spam tables nobody sat at close within a second or so: then the
                    # address may open tables again (at the same pace: no faster).
                    async with asyncio.timeout(10):
                        while any(t.startswith("s") for t in server.hosting.tables):
                            await asyncio.sleep(0.05)
                    assert list(server.hosting.tables) == ["friday"]
                    again = await ask(spammers[1], {"type": "create_table", "name": "again",
                                                    "small_blind": 1, "big_blind": 2})  # fmt: skip
                    assert again["type"] == "table_created"
            finally:
                for ws in spammers:
                    await ws.close()


async def test_stopping_lets_a_lease_round_finish_instead_of_cutting_its_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelled inside its transaction, the lease task could leave SQLite locked while the
    tables cash their players out (a cash-out was lost that way): the server waits for
    the round under way, then stops."""
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'leases.db'}") as store:
        renew = store.renew_leases
        rounds: list[str] = []

        async def slow_renew(holder: str, seconds: float) -> set[int]:
            rounds.append("begun")
            await asyncio.sleep(0.3)  # a round still in its transaction when stopping begins
            held = await renew(holder, seconds)
            rounds.append("done")
            return held

        monkeypatch.setattr(store, "renew_leases", slow_renew)
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running():
            while rounds != ["begun"]:
                await asyncio.sleep(0.01)
        assert rounds == ["begun", "done"]


def test_account_counts_are_forgotten_after_an_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-address account counts hold only the last hour's addresses."""
    now = 0.0
    monkeypatch.setattr(players_module, "time", SimpleNamespace(monotonic=lambda: now))
    players = Players(None, ServerSettings(accounts_per_address=1))  # type: ignore[arg-type]
    players.count_account("10.0.0.1")
    with pytest.raises(TableError, match="accounts an hour"):
        players.count_account("10.0.0.1")
    now = 3601.0
    players.count_account("10.0.0.2")
    assert list(players.accounts_from) == ["10.0.0.2"]
    players.count_account("10.0.0.1")  # its hour is over
