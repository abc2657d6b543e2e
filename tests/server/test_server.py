"""The websocket server end to end: a real server on 127.0.0.1, real websockets clients."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect

from engine import ActionTaken, TableConfig
from server.app import PokerServer, ServerSettings
from server.store import HandRows, HandWriter, Store, StoreError
from server.store.models import LedgerEntry
from server.store.models import Player as PlayerRecord
from tests.helpers import ask
from tests.server.conftest import demo_server


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[PokerServer, str]]:
    async with demo_server(tmp_path / "server.db", decision_seconds=5.0) as demo:
        yield demo.server, demo.address


async def send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message))


async def until(ws: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of ``kind`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message  # type: ignore[no-any-return]


async def test_healthz_answers_plain_http(app: tuple[PokerServer, str]) -> None:
    _, address = app
    body = await asyncio.to_thread(
        lambda: urllib.request.urlopen(f"http://{address}/healthz").read()
    )
    assert body == b"ok\n"


async def test_a_spectator_never_sees_a_hole_card_that_was_not_shown(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    async with connect(f"ws://{address}/ws") as ws:
        await send(ws, type="spectate", table="demo")
        snapshot = await until(ws, "snapshot")
        assert all(seat["cards"] is None for seat in snapshot["view"]["seats"])
        hands = shown = 0
        async with asyncio.timeout(30):
            while hands < 3:
                message = json.loads(await ws.recv())
                if message["type"] != "event":
                    continue
                event = message["event"]
                if event["type"] == "hole_cards_dealt":
                    assert event["cards"] is None
                shown += event["type"] == "cards_shown"
                hands += event["type"] == "hand_ended"
        assert shown > 0  # calling stations reach showdowns: shown cards do arrive


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


SESSIONS: dict[str, str] = {}  # guest name -> the session token its welcome gave


async def seated(address: str, name: str, seat: int) -> ClientConnection:
    ws = await connect(f"ws://{address}/ws")
    await send(ws, type="hello", name=name)
    SESSIONS[name] = (await until(ws, "welcome"))["session"]
    await send(ws, type="sit", table="demo", seat=seat, buy_in=10_000, wait_for_big_blind=False)
    await until(ws, "seated")
    return ws


async def test_an_action_retried_with_the_same_id_acts_once(app: tuple[PokerServer, str]) -> None:
    server, address = app
    ws = await seated(address, "bob", 5)
    try:
        request = await until(ws, "action_request", timeout=30)
        action = "check" if request["menu"]["can_check"] else "call"
        for _ in range(2):
            await send(ws, type="act", table="demo", action_id="once", action=action, id="r")
        first = await until(ws, "ack")
        again = await until(ws, "ack")
        assert first["action_id"] == again["action_id"] == "once"
        assert "duplicate" not in first and again["duplicate"] is True
        runner = server.hosting.tables["demo"]
        hand = runner.table.hand
        assert hand is not None
        mine = [e for e in hand.log if isinstance(e, ActionTaken) and e.seat == 5]
        assert len(mine) == 1
    finally:
        await ws.close()


async def test_two_clients_racing_for_one_seat_act_at_most_once(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    ws = await seated(address, "carol", 5)
    other = await connect(f"ws://{address}/ws")
    try:
        # The same player on a second connection, proving it with the session token.
        await send(other, type="hello", session=SESSIONS["carol"])
        await until(other, "welcome")
        request = await until(ws, "action_request", timeout=30)
        action = "check" if request["menu"]["can_check"] else "call"
        await asyncio.gather(
            send(ws, type="act", table="demo", action_id="a", action=action),
            send(other, type="act", table="demo", action_id="b", action=action),
        )
        assert (await until(ws, "ack"))["action_id"] == "a"
        refused = await until(other, "error")
        assert refused["code"] == "not_seated"  # only the seated connection acts for the seat
    finally:
        await ws.close()
        await other.close()


async def test_reconnecting_mid_hand_resumes_with_a_snapshot_and_the_missed_events(
    app: tuple[PokerServer, str],
) -> None:
    _, address = app
    ws = await seated(address, "dave", 5)
    request = await until(ws, "action_request", timeout=30)
    last_seq = request["seq"]
    await ws.close()  # dropped mid-hand, before acting
    async with connect(f"ws://{address}/ws") as again:
        await send(again, type="hello", session=SESSIONS["dave"])
        await until(again, "welcome")
        await send(again, type="resume", table="demo", last_seq=last_seq - 5)
        resumed = await until(again, "resumed")
        assert resumed["complete"] is True
        assert [m["seq"] for m in resumed["missed"]] == list(
            range(last_seq - 4, resumed["seq"] + 1)
        )
        mine = next(s for s in resumed["view"]["seats"] if s["seat"] == 5)
        assert mine["cards"] is not None  # the snapshot shows the player's own cards
        assert all(s["cards"] is None for s in resumed["view"]["seats"] if s["seat"] != 5)
        # The seat was kept, and the decision is asked again on the new connection.
        request = await until(again, "action_request", timeout=30)
        assert request["seat"] == 5


async def test_timeouts_check_or_fold_and_then_sit_the_player_out(tmp_path: Path) -> None:
    clock = {"decision_seconds": 0.2, "time_bank_seconds": 0.3}
    async with demo_server(tmp_path / "clock.db", seats=3, bots=1, **clock) as demo:
        runner = demo.runner
        ws = await seated(demo.address, "erin", 1)
        try:
            kinds: list[str] = []
            first = await until(ws, "action_request", timeout=10)
            assert first["decision_seconds"] == 0.2 and first["time_bank_seconds"] == 0.3
            async with asyncio.timeout(20):
                while "player_sat_out" not in kinds:
                    message = json.loads(await ws.recv())
                    if message["type"] == "event" and message["event"].get("seat") == 1:
                        kinds.append(
                            message["event"]["type"] + ":" + str(message["event"].get("kind", ""))
                        )
                        if message["event"]["type"] == "player_sat_out":
                            kinds.append("player_sat_out")
            acted = [k for k in kinds if k.startswith("action_taken")]
            assert len(acted) == 2 and all(
                k in ("action_taken:check", "action_taken:fold") for k in acted
            )
            assert runner.seats[1].time_bank == 0.0  # the bank went on the first timeout
        finally:
            await ws.close()


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


async def test_an_answer_to_a_decision_the_clock_settled_is_stale(tmp_path: Path) -> None:
    clock = {"decision_seconds": 0.3, "time_bank_seconds": 0.0}
    async with demo_server(tmp_path / "stale.db", seats=2, bots=1, **clock) as demo:
        ws = await seated(demo.address, "late", 1)
        try:
            missed = await until(ws, "action_request", timeout=10)
            # Unanswered: the clock checks or folds, and the player's turn comes again.
            later = await until(ws, "action_request", timeout=10)
            assert later["seq"] > missed["seq"]
            answer = {"type": "act", "table": "demo", "action": "fold", "id": "x"}
            await send(ws, **answer, action_id="late-1", seq=missed["seq"])
            refused = await until(ws, "error")
            assert (refused["code"], refused["re"]) == ("stale", "x")
            action = "check" if later["menu"]["can_check"] else "call"
            await send(ws, **answer | {"action": action}, action_id="late-2", seq=later["seq"])
            assert (await until(ws, "ack"))["action_id"] == "late-2"
        finally:
            await ws.close()


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


async def test_the_lobby_gives_each_tables_average_pot_and_hands_an_hour(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "lobby.db", seats=3, bots=3) as demo:
        async with asyncio.timeout(20):
            while demo.runner.hands_played < 4:
                await asyncio.sleep(0.01)
        summary = demo.runner.summary()  # no await since: hands_played is what it counts
        played = summary["hands_played"]
        async with asyncio.timeout(10):
            while await demo.server.store.count_hands() < played:
                await asyncio.sleep(0.01)
        hands = await demo.server.store.list_hands(table="demo", limit=1000)
        pots = [h.pot for h in sorted(hands, key=lambda h: h.hand_number)][:played]
        assert summary["average_pot"] == sum(pots) // played > 0
        assert summary["hands_per_hour"] == played * 60  # open under a minute: per minute


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
                # Someone else, somewhere else, is not stopped by any of it.
                async with connect(server.hosting.address, local_addr=("127.0.0.2", 0)) as ws:
                    await ask(ws, {"type": "hello", "name": "normal"})
                    table = await ask(ws, {"type": "create_table", "name": "Friday",
                                           "small_blind": 1, "big_blind": 2})  # fmt: skip
                    assert table["type"] == "table_created", table
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


async def test_resume_takes_a_bounded_seq_and_one_ahead_of_the_table_is_incomplete(
    tmp_path: Path,
) -> None:
    async with (
        demo_server(tmp_path / "seq.db", bots=2) as demo,
        connect(f"ws://{demo.address}/ws") as ws,
    ):
        await ask(ws, {"type": "hello", "name": "seqs"})
        for huge in (2**53, 2**64):
            reply = await ask(ws, {"type": "resume", "table": "demo", "last_seq": huge})
            assert reply["code"] == "bad_message", reply
        ahead = await ask(ws, {"type": "resume", "table": "demo", "last_seq": 2**53 - 1})
        assert ahead["type"] == "resumed" and ahead["complete"] is False
        assert ahead["missed"] == []


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


async def test_a_disconnected_player_is_folded_on_their_clock_then_sat_out(
    tmp_path: Path,
) -> None:
    """A seat whose connection dropped while it faced a decision is checked or folded when
    its clock runs out, and is sat out: the next hands are dealt without it, and nobody
    waits for it again."""
    clock = {"decision_seconds": 0.3, "time_bank_seconds": 0.0}
    async with demo_server(tmp_path / "gone.db", seats=3, bots=2, **clock) as demo:
        runner = demo.runner
        ws = await seated(demo.address, "gone", 2)
        request = await until(ws, "action_request", timeout=10)
        await ws.close()
        hand = request["hand_number"]
        async with asyncio.timeout(5):
            while runner.finished_through < hand + 3:
                await asyncio.sleep(0.01)
        assert runner.table.is_sitting_out(2)
        assert runner.seats[2].timeouts == 1  # one clock ran out, and only one
