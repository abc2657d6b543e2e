"""What each subscriber may see (server/tables/views.py): no hole card a spectator was
not shown, resuming with a snapshot and the missed events, the lobby line, end to end;
each seat's own hole cards, on the runner alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from websockets.asyncio.client import connect

from engine import TableConfig
from server.app import PokerServer
from server.tables import Player, TableRunner, TableSettings
from tests.helpers import ask
from tests.server.clients import SESSIONS, Inbox, running, seated, send, sit, spectate, until
from tests.server.conftest import demo_server


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


async def test_the_lobby_gives_each_tables_average_pot_and_hands_an_hour(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "lobby.db", seats=3, bots=3) as demo:
        async with asyncio.timeout(20):
            while demo.runner.core.hands_played < 4:
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


async def test_each_seat_sees_its_own_hole_cards_and_a_spectator_none() -> None:
    """Straight from the runner, no server between: the events each subscriber gets are
    redacted for its seat."""
    runner = TableRunner(TableSettings("t", "T", TableConfig(small_blind=1, big_blind=2, seats=2)))
    seated_inboxes, spectator = [Inbox(), Inbox()], Inbox()
    async with running(runner):
        await spectate(runner, spectator)
        for seat, inbox in enumerate(seated_inboxes):
            player = Player(seat + 1, f"p{seat}")
            await sit(runner, inbox, player, seat)
        async with asyncio.timeout(5):  # until the hand is dealt, and everyone told
            while any(len(i.events("hole_cards_dealt")) < 2 for i in [*seated_inboxes, spectator]):
                await asyncio.sleep(0.01)
    for seat, inbox in enumerate(seated_inboxes):
        dealt = {e["seat"]: e["cards"] for e in inbox.events("hole_cards_dealt")}
        assert dealt[seat] is not None and dealt[1 - seat] is None
    dealt = {e["seat"]: e["cards"] for e in spectator.events("hole_cards_dealt")}
    assert dealt == {0: None, 1: None}
