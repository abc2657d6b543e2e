"""The bot SDK's network client: it plays real hands at a real server, survives dropped
connections, re-buys, and runs from the command line. (Its picture of the table:
test_bot_mirror.py; its wire values: test_bot_wire.py; loading bots: test_bot_loader.py.)"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, TableConfig, TableView
from server.app import PokerServer, ServerSettings
from server.bots import Bot, load_bot
from server.bots.client import BotClient, BotClientError
from server.bots.decisions import Decision
from server.bots.wire import act_message
from server.store import Store
from server.tables import TableRunner
from tests.server.conftest import demo_server
from tests.server.test_bot_decisions import _decision

ROOT = Path(__file__).resolve().parents[2]
FAST = (0.05, 0.5)  # reconnect quickly


def test_client_options_are_checked() -> None:
    bot = load_bot("calling-station")
    with pytest.raises(ValueError, match="not both"):
        BotClient(bot, "ws://x/ws", name="a", token="t" * 20)
    with pytest.raises(ValueError, match="guest name"):
        BotClient(bot, "ws://x/ws", name="bad name!")
    with pytest.raises(ValueError, match="at least 1"):
        BotClient(bot, "ws://x/ws", hands=0)
    assert BotClient(bot, "ws://x/ws").name.startswith("CallingStation-")  # type: ignore[union-attr]


# -- against a real server -------------------------------------------------------------------


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[PokerServer, str]]:
    """A server with a six-seat table: three house calling stations, three free seats."""
    async with demo_server(tmp_path / "server.db", bots=3, decision_seconds=5.0) as demo:
        yield demo.server, f"ws://{demo.address}/ws"


class Checked:
    """Wraps a bot: at each decision, compares the client's view with the server's own."""

    def __init__(self, inner: Bot, runner: TableRunner) -> None:
        self.inner, self.runner = inner, runner
        self.decisions = 0
        self.mismatches: list[tuple[TableView, TableView]] = []

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        self.decisions += 1
        truth = self.runner.core.table.view(menu.seat)
        # Players sitting down elsewhere may be a message ahead: compare the hand.
        if _in_hand(view) != _in_hand(truth):
            self.mismatches.append((view, truth))
        return self.inner.act(view, menu)


def _in_hand(view: TableView) -> TableView:
    return dataclasses.replace(view, seats=tuple(s for s in view.seats if s.in_hand))


def _unexpected(errors: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The errors a client should never see. Expected: a lobby listing refused while a
    busted player's hand is being stored (TableRunner.summary() reads the stack of a seat
    the engine has already emptied); the client asks again."""
    return [
        e for e in errors
        if not (str(e.get("re", "")).startswith("tables-")
                and re.fullmatch(r"seat \d+ is empty", e["message"]))
    ]  # fmt: skip


async def _stored(server: PokerServer, name: str, count: int) -> int:
    """How many of ``name``'s hands are stored, waiting up to 10 s for ``count`` (the last
    hand of a busted player is written just after they learn of it)."""
    async with asyncio.timeout(10):
        while len(hands := await server.store.list_hands(player=name, limit=1000)) < count:
            await asyncio.sleep(0.05)
    return len(hands)


async def _gone(runner: TableRunner, name: str) -> None:
    """Wait (up to 10 s) until ``name`` holds no seat: a bust is announced before the
    runner frees the seat, which it does once the hand is stored."""
    async with asyncio.timeout(10):
        while any(seat.player.name == name for seat in runner.core.seats.occupants.values()):
            await asyncio.sleep(0.02)


async def test_bots_of_each_strategy_play_their_hands_and_every_action_is_accepted(
    app: tuple[PokerServer, str],
) -> None:
    server, url = app
    runner = server.hosting.tables["demo"]
    hands = 6
    checked = {
        kind: Checked(load_bot(kind), runner)
        for kind in ("random", "calling-station", "tight-aggressive")
    }
    clients = {
        kind: BotClient(bot, url, name=f"sdk-{kind}", hands=hands, rebuy=True,
                        think_in_thread=False, backoff=FAST)
        for kind, bot in checked.items()
    }  # fmt: skip
    async with asyncio.timeout(120):
        summaries = await asyncio.gather(*(c.run() for c in clients.values()))
    for (kind, client), summary in zip(clients.items(), summaries, strict=True):
        assert summary.reason == "hands", kind
        assert summary.hands_played >= hands
        assert _unexpected(summary.errors) == []  # every action was legal and in time
        assert client.acks == client.actions == summary.actions > 0
        assert checked[kind].decisions == summary.actions
        assert checked[kind].mismatches == []
        assert await _stored(server, f"sdk-{kind}", summary.hands_played) >= hands
    assert all(c.seats_taken and min(c.seats_taken) >= 3 for c in clients.values())  # free ones
    # They left cleanly: nobody holds their seats, nobody waits for them.
    for kind in clients:
        await _gone(runner, f"sdk-{kind}")
    assert not runner.core.seats.waiting


class Stalling:
    """A calling station that, on its first decision of its second hand, waits (in its
    worker thread) until the test has dropped the connection."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.dropped = threading.Event()
        self.hands: set[int] = set()
        self.stalled: tuple[int, int, int] | None = None  # hand, street, street total
        self.asked_again = False

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        self.hands.add(view.hand_number)
        me = next(s for s in view.seats if s.seat == menu.seat)
        point = (view.hand_number, int(view.street or 0), me.street_total)
        self.asked_again = self.asked_again or point == self.stalled
        if len(self.hands) == 2 and not self.asked.is_set():
            self.stalled = point
            self.asked.set()
            self.dropped.wait(10)
        return CheckOrCall(menu.seat)


@pytest.mark.parametrize("how", ["close", "abort"])
async def test_a_bot_whose_connection_drops_mid_hand_resumes_in_its_seat(
    app: tuple[PokerServer, str], how: str
) -> None:
    server, url = app
    bot = Stalling()
    client = BotClient(bot, url, name="sdk-dropped", hands=4, backoff=FAST)
    task = asyncio.create_task(client.run())
    async with asyncio.timeout(60):
        await asyncio.to_thread(bot.asked.wait, 30)
        assert bot.asked.is_set()
        hand = server.hosting.tables["demo"].core.table.hand_number
        session = next(
            s for s in server.sessions if s.player is not None and s.player.name == "sdk-dropped"
        )
        if how == "close":
            await session.websocket.close()
        else:
            session.websocket.transport.abort()
        bot.dropped.set()
        summary = await task
    assert summary.reconnects == 1
    assert summary.reason == "hands" and summary.hands_played >= 4
    assert len(client.seats_taken) == 1  # the seat was kept for it
    assert _unexpected(summary.errors) == []
    # The decision it was thinking about when the line dropped was asked again and played.
    assert bot.asked_again
    assert client.acks == client.actions
    stored = await server.store.list_hands(player="sdk-dropped", limit=100)
    assert hand in {h.hand_number for h in stored}
    assert await _stored(server, "sdk-dropped", summary.hands_played) >= 4


class Shover:
    """All in, every hand."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        if menu.can_raise:
            return BetOrRaiseTo(menu.seat, menu.max_raise_to)
        return CheckOrCall(menu.seat)


async def test_a_busted_bot_stops_or_buys_in_again(app: tuple[PokerServer, str]) -> None:
    server, url = app
    config = server.hosting.tables["demo"].settings.config
    # Without --rebuy: it plays until it busts, then goes home.
    once = BotClient(Shover(), url, name="sdk-bust", buy_in=config.min_buy_in, backoff=FAST)
    async with asyncio.timeout(60):
        summary = await once.run()
    assert summary.reason == "busted" and summary.stack == 0
    assert _unexpected(summary.errors) == [] and summary.rebuys == 0
    # With it: it sits again after busting; stopped, it leaves the table.
    again = BotClient(
        Shover(), url, name="sdk-rebuy", buy_in=config.min_buy_in, rebuy=True, backoff=FAST
    )
    task = asyncio.create_task(again.run())
    async with asyncio.timeout(60):
        while again.rebuys < 1 or again.seat is None:
            await asyncio.sleep(0.02)
        again.stop()
        summary = await task
    assert summary.reason == "stopped" and summary.rebuys >= 1
    assert len(again.seats_taken) == summary.rebuys + 1
    assert _unexpected(summary.errors) == []
    await _gone(server.hosting.tables["demo"], "sdk-rebuy")


class Broken:
    """Answers with nonsense, then with an exception, then properly."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        self.calls += 1
        if self.calls % 3 == 1:
            return BetOrRaiseTo(menu.seat, 10**9)  # more than anyone has
        if self.calls % 3 == 2:
            raise RuntimeError("bug in the bot")
        return CheckOrCall(menu.seat)


async def test_a_broken_bot_is_answered_for_and_keeps_its_seat(
    app: tuple[PokerServer, str], caplog: pytest.LogCaptureFixture
) -> None:
    _, url = app
    bot = Broken()
    client = BotClient(bot, url, name="sdk-broken", hands=3, backoff=FAST)
    async with asyncio.timeout(60):
        summary = await client.run()
    assert summary.reason == "hands" and _unexpected(summary.errors) == []
    assert bot.calls >= 3
    assert "does not allow" in caplog.text and "bug in the bot" in caplog.text


async def test_an_act_the_server_refuses_is_answered_with_a_check_or_fold(
    app: tuple[PokerServer, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import server.bots.client as sdk

    _, url = app
    spoiled: list[dict[str, Any]] = []

    def spoil_the_first(*args: Any) -> dict[str, Any]:
        message = act_message(*args)
        if not spoiled:  # a check or call with an amount: refused as bad_action
            message = {**message, "action": "call", "amount": 1}
            spoiled.append(message)
        return message

    monkeypatch.setattr(sdk, "act_message", spoil_the_first)
    client = BotClient(load_bot("calling-station"), url, name="sdk-spoiled", hands=2)
    async with asyncio.timeout(60):
        summary = await client.run()
    refused = _unexpected(summary.errors)
    assert [(e["code"], e["re"]) for e in refused] == [("bad_action", spoiled[0]["action_id"])]
    # The same decision was answered again, safely, under a new id, and accepted.
    assert summary.reason == "hands" and client.acks == client.actions - 1


class Slow:
    """Checks or calls, after thinking for longer than the table allows (by 0.35 s at a
    table that gives 0.1 s: time enough for the client to hear the clock first on a
    loaded machine; 0.2 s once was not)."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        threading.Event().wait(0.45)
        return CheckOrCall(menu.seat)


async def test_an_answer_the_bot_finishes_after_leaving_is_not_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Left on our turn, the server has folded (or checked) for us at once: an answer the
    bot gives afterwards is dropped, not sent to be refused (``not_your_turn``)."""
    view, menu = _decision(facing_a_bet=False)
    client = BotClient(load_bot("calling-station"), "ws://127.0.0.1:9/ws", name="sdk-late")
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    monkeypatch.setattr(client, "_send", send)
    decision = Decision("demo", "run-7-42", menu, 42)
    client._leave_sent = True  # stop() sent the leave while the bot thought
    await client._think(decision, view, 1.0)
    assert sent == []
    client._leave_sent = False  # still seated: the answer goes
    await client._think(decision, view, 1.0)
    assert [m["action_id"] for m in sent] == ["run-7-42"]


async def test_late_answers_are_dropped_and_a_sat_out_bot_sits_in_and_plays_on(
    app: tuple[PokerServer, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pokerroom.bot")
    server, url = app
    runner = await server.hosting.create_table(
        "Quick", TableConfig(small_blind=50, big_blind=100, seats=2),
        decision_seconds=0.1, time_bank_seconds=0.0,
    )  # fmt: skip
    await server.hosting.add_house_bots(
        runner, {0: ("house-quick", load_bot("calling-station"))}, 10_000
    )
    client = BotClient(Slow(), url, name="sdk-slow", table="quick", hands=3, backoff=FAST)
    async with asyncio.timeout(60):
        summary = await client.run()
    # The clock answered first each time (and sat the bot out after two timeouts): the
    # client saw that, sent no stale answer, sat in again each time and played on.
    assert summary.reason == "hands" and summary.hands_played >= 3
    assert _unexpected(summary.errors) == [] and client.actions == 0
    assert "answered too late" in caplog.text and "sitting in again" in caplog.text
    assert len(client.seats_taken) == 1


async def test_refusals_that_leave_nothing_to_play_for_end_the_run(
    app: tuple[PokerServer, str],
) -> None:
    _, url = app
    with pytest.raises(BotClientError, match="no table 'nowhere'"):
        await BotClient(load_bot("random"), url, name="sdk-lost", table="nowhere").run()
    with pytest.raises(BotClientError, match="cannot sit"):
        await BotClient(load_bot("random"), url, name="sdk-rich", buy_in=10**9).run()
    with pytest.raises(BotClientError, match="hello refused: bad_token"):
        await BotClient(load_bot("random"), url, token="x" * 20).run()
    host_port = url.removeprefix("ws://").removesuffix("/ws")
    with pytest.raises(BotClientError, match="404"):
        await BotClient(load_bot("random"), f"ws://{host_port}/nope").run()


async def test_messages_the_server_did_not_read_are_sent_again(tmp_path: Path) -> None:
    """A server far stricter than its documented rate: messages go unread (rate_limited,
    which names no message), and the client sends again what may have been lost. (Its
    answers to action requests always get through: each request lets one past.)"""
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'strict.db'}") as store:
        settings = ServerSettings(port=0, house_think_seconds=0.0, messages_per_second=1, burst=1)
        server = PokerServer(store, settings)
        async with server.running() as ws_server:
            runner = await server.hosting.create_table(
                "Strict", TableConfig(small_blind=50, big_blind=100, seats=3), decision_seconds=5.0
            )
            await server.hosting.add_house_bots(
                runner, {0: ("h0", load_bot("calling-station"))}, 10_000
            )
            port = next(iter(ws_server.sockets)).getsockname()[1]
            client = BotClient(
                load_bot("calling-station"), f"ws://127.0.0.1:{port}/ws", name="sdk-strict",
                hands=3, backoff=FAST,
            )  # fmt: skip
            async with asyncio.timeout(60):
                summary = await client.run()
    assert summary.reason == "hands" and summary.hands_played >= 3
    codes = {e["code"] for e in summary.errors}
    assert "rate_limited" in codes
    # What a message sent twice can meet: nothing else went wrong.
    assert codes <= {"rate_limited", "already_seated", "not_your_turn", "illegal"}


async def test_an_unreachable_server_is_given_up_on() -> None:
    with pytest.raises(BotClientError, match="gave up after 3 failed connections"):
        await BotClient(
            load_bot("random"), "ws://127.0.0.1:9/ws", max_retries=2, backoff=(0.01, 0.02)
        ).run()


# -- the command line ------------------------------------------------------------------------


async def _cli(*argv: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "bot", *argv,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.parametrize("spec", ["examples.my_bot:MyBot", "examples/my_bot.py:MyBot"])
async def test_the_command_plays_an_example_bot_for_n_hands_and_exits_0(
    app: tuple[PokerServer, str], spec: str
) -> None:
    server, url = app
    name = "cli-" + spec.split(":", maxsplit=1)[0].replace("/", "-").replace(".", "-")
    proc = await _cli("run", spec, "--url", url, "--hands", "3", "--name", name, "--json")
    async with asyncio.timeout(90):
        out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    result = json.loads(out.decode().splitlines()[-1])
    assert result["reason"] == "hands" and result["hands_played"] >= 3, result
    assert _unexpected(tuple(result["errors"])) == []
    assert await _stored(server, name, 3) >= 3


async def test_ctrl_c_leaves_the_table_at_the_end_of_the_hand(
    app: tuple[PokerServer, str],
) -> None:
    server, url = app
    proc = await _cli("run", "tight-aggressive", "--url", url, "--name", "cli-sigint", "--json")
    try:
        await _stored(server, "cli-sigint", 1)
        proc.send_signal(signal.SIGINT)
        async with asyncio.timeout(60):
            out, err = await proc.communicate()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert json.loads(out.decode().splitlines()[-1])["reason"] == "stopped"
    await _gone(server.hosting.tables["demo"], "cli-sigint")


def test_the_command_rejects_a_bad_bot_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    from server.cli.bot import main

    assert main(["run", "no-such-bot", "--url", "ws://127.0.0.1:9/ws"]) == 2
    assert "unknown bot 'no-such-bot'" in capsys.readouterr().err
