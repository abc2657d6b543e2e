"""Seats and the ledger (server/tables/seating.py).

The rules, on the table core alone with a fake clock (tests/server/core_room.py): leaving
mid-hand, the waiting list, a busted player's seat freed once the hand is stored, and what
a stopped table cashes out. End to end through the server, only what needs it: a stopped
table's cash-out in the database (shut down, or unable to store a hand), and a busted
player sitting again while the database is away (the runner holds her sit meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from engine import TableConfig
from server import protocol
from server.store import HandRows, HandWriter, Store, StoreError
from server.store.models import LedgerEntry
from server.store.models import Player as PlayerRecord
from server.tables import Caller, Player, TableRunner, TableSettings
from tests.server.clients import Inbox, connect, running, seated, send, sit, until
from tests.server.conftest import demo_server
from tests.server.core_room import Room


def taken(room: Room, name: str, seat: int) -> list[dict[str, Any]]:
    """The ``action_taken`` events of ``seat`` that ``name`` has been sent, in order."""
    return [e for e in room.person(name).events("action_taken") if e["seat"] == seat]


def requests(room: Room, name: str) -> int:
    """How many action requests ``name`` has been sent."""
    return sum(1 for m in room.person(name).messages if m["type"] == "action_request")


def final_stack(room: Room, name: str, seat: int) -> int:
    """``seat``'s stack at the end of the last hand ``name`` saw end."""
    ended = room.person(name).events("hand_ended")[-1]
    stacks: dict[int, int] = dict(ended["stacks"])  # [[seat, stack], ...]
    return stacks[seat]


def entries(room: Room, name: str) -> list[tuple[int, str]]:
    """``name``'s ledger entries so far: (amount, reason)."""
    player = room.player(name).id
    return [(amount, reason) for who, amount, reason in room.ledger if who == player]


# -- on the core ------------------------------------------------------------------------


@pytest.mark.parametrize("on_turn", [True, False])
def test_leaving_mid_hand_folds_without_waiting_for_the_clock(on_turn: bool) -> None:
    """A player who leaves while a hand is running is folded at once if it is their turn,
    else as soon as the action reaches them (checked when that is free: here on the flop),
    with no request and no wait on their 30 s clock. They stand up when the hand ends,
    their chips cashed out."""
    config = TableConfig(small_blind=1, big_blind=2, seats=3)
    room = Room(config, decision_seconds=30.0, time_bank_seconds=60.0)
    for seat, name in enumerate(("a", "b", "quitter")):
        room.sit(name, seat)
    room.play_hand()  # the first hand, dealt when b sat, is a's and b's
    hand = room.core.table.hand_number
    assert room.core.table.hand is not None and 2 in room.core.table.hand.seats
    while room.to_act() != "quitter":
        room.check_or_call()
    if not on_turn:  # act, then leave while the others act
        room.check_or_call()
        assert room.to_act() != "quitter"
    menu = room.request("quitter")["menu"]
    asked, acted = requests(room, "quitter"), len(taken(room, "a", 2))

    assert room.send("quitter", type="leave") == {"type": "leaving", "table": "t", "seat": 2}
    if on_turn:  # folded (or checked, if free) at once
        assert [e["kind"] for e in taken(room, "a", 2)[acted:]] == [
            "check" if menu["can_check"] else "fold"
        ]
    else:
        assert len(taken(room, "a", 2)) == acted
    while room.core.table.hand_number == hand and room.core.table.hand_in_progress:
        assert room.to_act() != "quitter"  # nobody waits for them
        room.check_or_call()
    after = taken(room, "a", 2)[acted:]
    assert after and all(e["kind"] in ("check", "fold") for e in after)
    if not on_turn:  # the action reached them again, after the flop was dealt
        assert after[0]["street"] != "preflop"
    assert requests(room, "quitter") == asked  # never asked again

    assert hand in room.stored
    assert 2 not in room.core.seats.occupants  # stood up at the end of the hand
    stack = final_stack(room, "a", 2)
    stood = room.person("a").events("player_stood")
    assert stood[-1] == {"type": "player_stood", "seat": 2, "stack": stack, "reason": "left"}
    assert entries(room, "quitter") == [(100, "buy_in"), (-stack, "cash_out")]


def test_a_player_on_the_waiting_list_gets_the_seat_a_leaver_frees() -> None:
    """A full table puts a newcomer on the waiting list (once: no buy-in yet), and the
    seat a player leaves mid-hand is theirs when the hand is over: they buy in then, and
    are sent the table as they see it from it."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2))
    room.sit("p0", 0)
    room.sit("p1", 1)
    assert room.core.table.hand_in_progress  # dealt as soon as two sit
    assert room.sit("p2") == {"type": "waiting", "table": "t", "position": 1}
    assert room.core.views.summary()["waiting"] == ["p2"]
    assert room.refused("p2", type="sit", buy_in=100).code == "already_waiting"
    assert entries(room, "p2") == []  # nothing bought in while waiting

    if room.to_act() == "p0":  # p1 to act: the hand goes on after p0 leaves
        room.check_or_call()
    assert room.send("p0", type="leave") == {"type": "leaving", "table": "t", "seat": 0}
    assert room.core.seats.occupants[0].player == room.player("p0")  # until the hand ends
    room.play_hand()  # p1 checks or calls; p0 is folded (or checks) when to act
    assert room.stored[0] == 1

    assert room.core.seats.occupants[0].player == room.player("p2")
    assert not room.core.seats.waiting
    assert room.core.views.summary()["waiting"] == []
    assert entries(room, "p0") == [(100, "buy_in"), (-final_stack(room, "p1", 0), "cash_out")]
    assert entries(room, "p2") == [(100, "buy_in")]
    snapshot = [m for m in room.person("p2").messages if m["type"] == "snapshot"][-1]
    assert snapshot["view"] is not None
    assert [s["name"] for s in snapshot["summary"]["players"]] == ["p2", "p1"]


def test_a_busted_players_seat_is_freed_once_the_hand_is_stored() -> None:
    """A player the engine stands up (busted) at the end of a hand that is not stored yet
    hears ``player_stood``, and holds her seat until the hand is stored: a sit of hers
    waits for that (the runner holds it), and then seats her. The end to end test below
    has the runner do so while the database is away."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=3))
    room.store_later = True  # each finished hand waits for room.store()
    room.sit("gambler", 2, buy_in=80)
    room.sit("caller", 0, buy_in=400)
    sit = protocol.Sit(type="sit", table="t", seat=2, buy_in=100)
    assert not room.core.waits_for_settling(sit, room.caller("gambler"))  # seated: not held
    assert room.refused("gambler", type="sit", seat=1, buy_in=100).code == "already_seated"
    for _ in range(30):  # all in every hand against a calling station
        while room.held is None:
            if room.to_act() == "gambler":
                menu = room.request("gambler")["menu"]
                if menu["can_raise"]:
                    room.act("gambler", menu["raise_kind"], amount=menu["max_raise_to"])
                    continue
            room.check_or_call()
        stood = room.person("gambler").events("player_stood")
        if stood and stood[-1]["seat"] == 2:
            break
        room.store()
        room.advance()
    else:
        raise AssertionError("never busted in 30 all-ins")

    assert stood[-1] == {"type": "player_stood", "seat": 2, "stack": 0, "reason": "busted"}
    assert 2 not in room.core.table.occupied()
    assert room.core.seats.of_player(room.player("gambler")) == 2  # hers until stored
    assert room.core.waits_for_settling(sit, room.caller("gambler"))
    leave = protocol.Leave(type="leave", table="t")  # by connection: carried out at once
    assert not room.core.waits_for_settling(leave, room.caller("gambler"))
    assert [p["name"] for p in room.core.views.summary()["players"]] == ["caller"]
    room.store()
    room.advance()
    assert room.core.seats.of_player(room.player("gambler")) is None
    assert not room.core.waits_for_settling(sit, room.caller("gambler"))
    seated_again = room.send("gambler", type="sit", seat=2, buy_in=100)
    assert (seated_again["type"], seated_again["seat"], seated_again["stack"]) == ("seated", 2, 100)
    assert entries(room, "gambler") == [(80, "buy_in"), (100, "buy_in")]  # nothing to cash out


def test_a_stopped_table_cashes_out_as_of_the_last_hand_stored() -> None:
    """What the runner records when the table stops: each seated player leaves with what
    they had before a hand that did not finish, or finished and was not stored (it never
    happened), and with what they have once it is stored. Recorded end to end below."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=3))
    room.sit("a", 0)
    room.sit("b", 1)
    room.play_hand()  # hand 1, stored
    started = room.person("a").events("hand_started")[-1]
    assert started["hand_number"] == 2
    before = dict(zip(started["seats"], started["stacks"], strict=True))
    room.sit("c", 2)  # seated during hand 2, not dealt in
    raiser = room.to_act()
    assert raiser is not None
    room.act(raiser, "raise", amount=room.request(raiser)["menu"]["min_raise_to"])

    def cash_out() -> dict[int, int]:
        return {player: -amount for player, amount, _ in room.core.cash_out_everyone()}

    ids = [room.player(name).id for name in ("a", "b", "c")]
    assert cash_out() == {ids[0]: before[0], ids[1]: before[1], ids[2]: 100}
    assert {r for _, _, r in room.core.cash_out_everyone()} == {"cash_out"}
    room.store_later = True
    folder = room.to_act()
    assert folder is not None and folder != raiser
    room.act(folder, "fold")
    assert room.held is not None  # over, not stored
    table = room.core.table
    assert (table.stack(0), table.stack(1)) != (before[0], before[1])  # the hand moved chips
    assert cash_out() == {ids[0]: before[0], ids[1]: before[1], ids[2]: 100}
    room.store()
    assert cash_out() == {ids[0]: table.stack(0), ids[1]: table.stack(1), ids[2]: 100}


# -- end to end -------------------------------------------------------------------------


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


def test_a_hand_ended_as_the_table_closes_is_stored_not_voided() -> None:
    """An action that ends the hand, carried out after the table was told to close (a
    server shutting down): the hand was played, so it is stored, and the cash-outs are
    the stacks after it."""
    room = Room(TableConfig(small_blind=1, big_blind=2, seats=2))
    room.sit("ann", 0)
    room.sit("bob", 1)
    folder = room.to_act()
    assert folder is not None and room.core.table.hand_in_progress
    room.core.close()
    room.act(folder, "fold")
    assert room.stored == [1]
    after = {o.player.id: room.core.table.stack(s) for s, o in room.core.seats.occupants.items()}
    assert sorted(after.values()) == [99, 101]
    cash_outs = {player: -amount for player, amount, _ in room.core.cash_out_everyone()}
    assert cash_outs == after


async def test_the_runner_records_a_buy_in_made_mid_hand_after_the_hand_is_stored() -> None:
    """The order of what a table writes: a hand is stored before the ledger entries made
    while it was played (someone sitting down meanwhile), and the next hand is dealt once
    those are on record."""
    written: list[str] = []

    async def store_hand(*args: Any) -> None:
        written.append("hand")

    async def record_ledger(player_id: int, amount: int, reason: str) -> None:
        written.append(f"{reason} {player_id}")

    config = TableConfig(small_blind=1, big_blind=2, seats=3)
    settings = TableSettings("t", "T", config)
    runner = TableRunner(settings, store_hand=store_hand, record_ledger=record_ledger)
    inboxes = {n: Inbox() for n in (1, 2, 3)}
    async with running(runner), asyncio.timeout(10):
        for n in (1, 2):
            await sit(runner, inboxes[n], Player(n, f"p{n}"), n - 1)
        while runner.core.table.to_act is None:
            await asyncio.sleep(0.01)
        assert written == ["buy_in 1", "buy_in 2"]  # on record before the first hand
        await sit(runner, inboxes[3], Player(3, "p3"), 2)  # in the next hand
        seat = runner.core.table.to_act
        request = await inboxes[seat + 1].until("action_request")
        fold = protocol.Act(type="act", table="t", action_id="f", action="fold",
                            seq=request["seq"])  # fmt: skip
        await runner.submit(fold, Caller(inboxes[seat + 1], Player(seat + 1, f"p{seat}")))
        while runner.core.table.hand_number < 2:
            await asyncio.sleep(0.01)
        assert written == ["buy_in 1", "buy_in 2", "hand", "buy_in 3"]
