"""Each decision and its clock (server/tables/clock.py): acting once, only from the seated
connection, stale answers, timeouts, end to end; the time bank, on the runner alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from websockets.asyncio.client import connect

from engine import ActionTaken, TableConfig
from server.app import PokerServer
from server.tables import Player, TableRunner, TableSettings
from tests.server.clients import SESSIONS, Inbox, running, seated, send, until
from tests.server.conftest import demo_server


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


async def test_a_decision_spends_only_what_it_takes_past_the_decision_time() -> None:
    """On the table's injected clock: 15 s on a 10 s decision takes 5 s off the bank."""
    now = 0.0
    config = TableConfig(small_blind=1, big_blind=2, seats=2)
    settings = TableSettings("t", "T", config, decision_seconds=10.0, time_bank_seconds=30.0)
    runner = TableRunner(settings, clock=lambda: now)
    inboxes = [Inbox(), Inbox()]
    async with running(runner):
        for chair, inbox in enumerate(inboxes):
            player = Player(chair + 1, f"p{chair}")
            await runner.request("sit", inbox, player=player, seat=chair, buy_in=100, wait=False)
        async with asyncio.timeout(5):  # the hand is dealt once the table's loop goes on
            while (seat := runner.table.to_act) is None:
                await asyncio.sleep(0.01)
        request = await inboxes[seat].until("action_request")
        assert request["time_bank_seconds"] == 30.0
        now += 15.0
        action = "check" if request["menu"]["can_check"] else "call"
        await runner.request(
            "act", inboxes[seat], player=Player(seat + 1, f"p{seat}"), action_id="a",
            action=action, amount=None, seq=request["seq"],
        )  # fmt: skip
        assert runner.seats[seat].time_bank == 25.0
