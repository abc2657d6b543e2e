"""Private tables (docs/home-games.md): the invite, seat requests, the host's controls and
their records, and the seat token that brings a player back to their seat. A real
server on 127.0.0.1, real websockets clients."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.app import PokerServer
from server.tables import TableRunner

TIMEOUT = 30.0  # a reply may wait for the records worker to start, on a busy machine
Message = dict[str, Any]


class Client:
    """A websocket client that reads everything into :attr:`messages` and, when
    :attr:`auto` is set, checks or calls every action request."""

    def __init__(self, ws: ClientConnection, table: str = "") -> None:
        self.ws, self.table, self.auto = ws, table, False
        self.messages: list[Message] = []
        self.ids = itertools.count()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                self.messages.append(message)
                if self.auto and message["type"] == "action_request":
                    await self.act(message, "check" if message["menu"]["can_check"] else "call")

    async def autoplay(self) -> None:
        """From now on check or call every request (the last one already here too)."""
        self.auto = True
        requests = [m for m in self.messages if m["type"] == "action_request"]
        if requests:  # answered already, or stale: the server says so, and nothing happens
            last = requests[-1]
            await self.act(last, "check" if last["menu"]["can_check"] else "call")

    async def act(self, request: Message, action: str) -> None:
        await self.ws.send(json.dumps(
            {"type": "act", "table": request["table"], "action": action,
             "action_id": f"a{request['seq']}-{request['hand_number']}", "seq": request["seq"]}
        ))  # fmt: skip

    async def ask(self, **message: Any) -> Message:
        """Send ``message`` and return its reply (an error too)."""
        ident = f"q{next(self.ids)}"
        await self.ws.send(json.dumps({**message, "id": ident}))
        return await self.wait(lambda m: m.get("re") == ident)

    async def host(self, action: str, **fields: Any) -> Message:
        return await self.ask(type="host", table=self.table, action=action, **fields)

    async def wait(self, test: Callable[[Message], bool], start: int = 0) -> Message:
        async with asyncio.timeout(TIMEOUT):
            while True:
                found = next((m for m in self.messages[start:] if test(m)), None)
                if found is not None:
                    return found
                await asyncio.sleep(0.01)

    async def event(self, kind: str, start: int = 0) -> Message:
        return await self.wait(lambda m: m["type"] == "event" and m["event"]["type"] == kind, start)


@contextlib.asynccontextmanager
async def client(address: str, name: str | None = None, **hello: str) -> AsyncIterator[Client]:
    async with connect(f"ws://{address}/ws") as ws:
        c = Client(ws)
        if name is not None or hello:
            welcome = await c.ask(type="hello", **({"name": name} if name else hello))
            assert welcome["type"] == "welcome", welcome
        try:
            yield c
        finally:
            c.task.cancel()


async def open_table(host: Client, **options: Any) -> tuple[str, str]:
    """A private table of host's (blinds 1/2, buy-ins 80..400): its id and invite."""
    reply = await host.ask(type="create_table", name="Friday", small_blind=1, big_blind=2,
                           private=True, decision_seconds=60.0, **options)  # fmt: skip
    assert reply["type"] == "table_created", reply
    host.table = reply["table"]["id"]
    return host.table, reply["invite"]


async def join(host: Client, guest: Client, table: str, invite: str, buy_in: int = 200) -> int:
    """``guest`` asks for a seat and the host approves it: the seat."""
    guest.table = table
    asked = await guest.ask(type="request_seat", table=table, invite=invite, buy_in=buy_in)
    assert asked["type"] == "seat_requested", asked
    await host.wait(lambda m: m["type"] == "seat_request")
    start = len(guest.messages)
    done = await host.host("approve", player=guest_name(guest))
    assert done["type"] == "host_done", done
    seated = await guest.wait(lambda m: m["type"] == "seated", start)
    return int(seated["seat"])


NAMES: dict[Client, str] = {}


def guest_name(c: Client) -> str:
    return NAMES[c]


@contextlib.asynccontextmanager
async def home_game(
    address: str, *names: str, paused: bool = False, **options: Any
) -> AsyncIterator[tuple[str, str, list[Client]]]:
    """A private table (with ``create_table``'s ``options``) hosted by ``names[0]``, who
    sits in seat 0, and the others seated by the host's approval, in order (``paused``:
    the host pauses first, so that nobody plays until everyone is in): the table, its
    invite and the clients."""
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for name in names:
            c = await stack.enter_async_context(client(address, name))
            NAMES[c] = name
            clients.append(c)
        host = clients[0]
        table, invite = await open_table(host, **options)
        if paused:
            await host.host("pause")
        sat = await host.ask(type="sit", table=table, seat=0, buy_in=200)
        assert sat["type"] == "seated", sat
        for guest in clients[1:]:
            await join(host, guest, table, invite)
        yield table, invite, clients


def runner_of(server: PokerServer, table: str) -> TableRunner:
    return server.hosting.tables[table]


async def test_a_private_table_is_not_in_the_lobby_and_needs_its_invite(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with client(address, "hana") as host, client(address, "olly") as other:
        table, invite = await open_table(host)
        assert len(invite) >= 22  # 128 bits and more, URL-safe
        listed = await other.ask(type="list_tables")
        assert table not in [t["id"] for t in listed["tables"]]
        refused = await other.ask(type="spectate", table=table)
        assert refused["code"] == "bad_invite"
        refused = await other.ask(type="spectate", table=table, invite="x" * 32)
        assert refused["code"] == "bad_invite"
        watched = await other.ask(type="spectate", table=table, invite=invite)
        assert watched["type"] == "snapshot"
        sat = await other.ask(type="sit", table=table, buy_in=200)
        assert sat["code"] == "private"
        assert (await host.ask(type="spectate", table=table))["type"] == "snapshot"
        state = await host.wait(lambda m: m["type"] == "host_state")
        assert state["invite"] == invite and state["host"] == "hana"
        assert server.hosting.tables[table].private
        lines = []  # the lobby lines on the bus, which other processes list
        async with server.bus.subscribe(server.bus.topics.lobby("+")) as queue:
            for runner in server.hosting.tables.values():
                runner.publish_summary()
            while not queue.empty():
                lines.append(queue.get_nowait()[0])
        assert server.bus.topics.lobby("demo") in lines
        assert server.bus.topics.lobby(table) not in lines


async def test_the_host_approves_and_rejects_seat_requests(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with (
        client(address, "hana") as host,
        client(address, "bob") as bob,
        client(address, "cat") as cat,
    ):
        table, invite = await open_table(host)
        await host.ask(type="spectate", table=table)  # the host watches: requests come here
        wrong = await bob.ask(type="request_seat", table=table, invite="y" * 32, buy_in=200)
        assert wrong["code"] == "bad_invite"
        outside = await bob.ask(type="request_seat", table=table, invite=invite, buy_in=5)
        assert outside["code"] == "bad_buy_in"
        asked = await bob.ask(type="request_seat", table=table, invite=invite, buy_in=150, seat=3)
        assert asked == {"type": "seat_requested", "table": table, "buy_in": 150, "seat": 3,
                         "re": asked["re"]}  # fmt: skip
        request = await host.wait(lambda m: m["type"] == "seat_request")
        assert request == {"type": "seat_request", "table": table, "player": "bob",
                           "buy_in": 150, "seat": 3}  # fmt: skip
        await cat.ask(type="request_seat", table=table, invite=invite, buy_in=100)
        done = await host.host("approve", player="bob")
        assert done == {"type": "host_done", "table": table, "action": "approve",
                        "player": "bob", "seat": 3, "buy_in": 150, "re": done["re"]}  # fmt: skip
        seated = await bob.wait(lambda m: m["type"] == "seated")
        assert seated["seat"] == 3 and seated["stack"] == 150 and len(seated["seat_token"]) >= 22
        rejected = await host.host("reject", player="cat")
        assert rejected["type"] == "host_done"
        assert (await cat.wait(lambda m: m["type"] == "seat_rejected"))["table"] == table
        again = await host.host("approve", player="cat")
        assert again["code"] == "no_request"
        told = await cat.wait(lambda m: m["type"] == "host_action" and m["action"] == "approve")
        assert told["by"] == "hana" and told["player"] == "bob"
        assert runner_of(server, table).table.stack(3) == 150


@pytest.mark.parametrize(
    "action, fields",
    [("approve", {"player": "bob"}), ("reject", {"player": "bob"}),
     ("chips", {"player": "bob", "amount": 50}), ("pause", {}), ("resume", {}),
     ("blinds", {"small_blind": 2, "big_blind": 4}), ("away", {"player": "hana"}),
     ("remove", {"player": "hana"}), ("transfer", {"player": "bob"}), ("close", {}),
     ("house_bot", {"seat": 4, "strategy": "random"}), ("remove_bot", {"seat": 4})],
)  # fmt: skip
async def test_only_the_host_may_use_a_control(
    app: tuple[PokerServer, str], action: str, fields: dict[str, Any]
) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (_host, bob)):
        refused = await bob.host(action, **fields)
        assert refused["type"] == "error" and refused["code"] == "not_host", refused
        assert "only the host" in refused["message"]
        runner = runner_of(server, table)
        assert not runner.paused and 4 not in runner.seats and sorted(runner.seats) == [0, 1]
        public = await bob.ask(type="host", table="demo", action="pause")
        assert public["code"] == "not_host"


async def test_chips_wait_for_the_next_hand_and_go_in_the_ledger(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        await host.autoplay()
        await bob.wait(lambda m: m["type"] == "action_request")
        runner = runner_of(server, table)
        before = runner.table.stack(1)
        done = await host.host("chips", player="bob", amount=100)
        assert done["amount"] == 100
        assert runner.table.stack(1) == before  # the hand goes on as it was dealt
        await host.host("pause")
        start = len(bob.messages)
        await bob.autoplay()
        ended = await bob.event("hand_ended", start)
        bob.auto = False
        after_hand = dict(ended["event"]["stacks"])[1] + 100
        async with asyncio.timeout(TIMEOUT):
            while runner.table.stack(1) != after_hand:
                await asyncio.sleep(0.01)
        snapshot = await bob.wait(lambda m: m["type"] == "snapshot", start)
        assert snapshot["view"]["seats"][1]["stack"] == after_hand
        async with asyncio.timeout(TIMEOUT):
            while True:
                entries = await server.store.ledger_sessions(table)
                bobs = [s for s in entries if s.nickname == "bob"]
                if bobs and bobs[0].buy_in == 300:
                    break
                await asyncio.sleep(0.05)
        await bob.autoplay()
        start = len(bob.messages)
        await host.host("resume")
        started = await bob.event("hand_started", start)
        stacks = dict(zip(started["event"]["seats"], started["event"]["stacks"], strict=True))
        assert stacks[1] == after_hand


async def test_pause_stops_dealing_after_the_hand_and_resume_deals_again(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        await bob.event("hand_started")
        await host.host("pause")
        start = len(bob.messages)
        await host.autoplay()
        await bob.autoplay()
        await bob.event("hand_ended", start)
        await asyncio.sleep(0.5)
        assert not [m for m in bob.messages[start:] if m.get("event", {}).get("type") ==
                    "hand_started"]  # fmt: skip
        assert runner_of(server, table).paused
        await host.host("resume")
        await bob.event("hand_started", start)


async def test_new_blinds_play_from_the_next_hand(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        first = await bob.event("hand_started")
        assert first["event"]["big_blind"] == 2
        bad = await host.host("blinds", small_blind=5, big_blind=4)
        assert bad["code"] == "refused"
        done = await host.host("blinds", small_blind=2, big_blind=4)
        assert (done["small_blind"], done["big_blind"], done["ante"]) == (2, 4, 0)
        assert runner_of(server, table).table.config.big_blind == 2  # this hand: as dealt
        start = len(bob.messages)
        await host.autoplay()
        await bob.autoplay()
        await bob.event("hand_ended", start)
        second = await bob.event("hand_started", start)
        assert (second["event"]["small_blind"], second["event"]["big_blind"]) == (2, 4)


async def test_away_sits_a_player_out_and_remove_stands_them_up(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with home_game(address, "hana", "bob", "cy") as (table, _, clients):
        host, bob, cy = clients
        await host.host("pause")
        await host.autoplay()
        await bob.autoplay()
        await cy.autoplay()
        runner = runner_of(server, table)
        async with asyncio.timeout(TIMEOUT):
            while runner.table.hand_in_progress:
                await asyncio.sleep(0.01)
        await host.host("away", player="bob")
        await cy.event("player_sat_out")
        assert runner.table.is_sitting_out(1)
        gone = await host.host("remove", player="cy")
        assert gone["player"] == "cy"
        stood = await bob.event("player_stood")
        assert stood["event"]["seat"] == 2 and 2 not in runner.seats
        missing = await host.host("remove", player="cy")
        assert missing["code"] == "no_player"


async def test_the_host_passes_the_role_on(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        done = await host.host("transfer", player="bob")
        assert done["player"] == "bob"
        state = await bob.wait(lambda m: m["type"] == "host_state")
        assert state["host"] == "bob"
        assert (await host.host("pause"))["code"] == "not_host"
        assert (await bob.host("pause"))["type"] == "host_done"
        runner = runner_of(server, table)
        assert runner.paused and runner.host == runner.seats[1].player.id
        stored = await server.store.table_config(server.hosting.db_tables[table])
        assert stored["private"]["host"] == runner.host  # a process taking it over knows


async def test_close_cashes_everyone_out(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        await host.autoplay()
        await bob.autoplay()
        await host.host("close")
        closed = await bob.wait(lambda m: m["type"] == "table_closed")
        assert closed == {"type": "table_closed", "table": table, "reason": "host"}
        assert table not in server.hosting.tables
        async with asyncio.timeout(TIMEOUT):
            while True:
                sessions = await server.store.ledger_sessions(table)
                if sessions and all(s.end is not None for s in sessions):
                    break
                await asyncio.sleep(0.05)
        assert sum(s.net for s in sessions) == 0


async def test_the_host_seats_and_removes_a_house_bot(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with home_game(address, "hana") as (table, _, (host,)):
        await host.host("pause")
        bad = await host.host("house_bot", seat=2, strategy="server.bots:RandomBot")
        assert bad["code"] == "bad_strategy"
        done = await host.host("house_bot", seat=2, strategy="tight-aggressive")
        assert done["player"] == "bot3-tight-aggressive" and done["seat"] == 2
        runner = runner_of(server, table)
        assert 2 in runner.house and runner.seats[2].player.name == "bot3-tight-aggressive"
        taken = await host.host("house_bot", seat=2, strategy="random")
        assert taken["code"] == "seat_taken"
        await host.host("remove_bot", seat=2)
        assert 2 not in runner.house and 2 not in runner.seats
        assert (await host.host("remove_bot", seat=2))["code"] == "illegal"


async def test_every_control_is_recorded_with_who_and_when(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (host, bob)):
        await host.host("pause")
        await host.host("chips", player="bob", amount=-20)
        await host.host("blinds", small_blind=2, big_blind=4, ante=1)
        await bob.host("resume")  # refused: not recorded
        records = await server.store.host_actions(table)
        assert [(r.host, r.action, r.player) for r in records] == [
            ("hana", "approve", "bob"),
            ("hana", "pause", None),
            ("hana", "chips", "bob"),
            ("hana", "blinds", None),
        ]
        assert records[2].details == {"player": "bob", "amount": -20}
        assert records[3].details == {"small_blind": 2, "big_blind": 4, "ante": 1}
        stored = await server.store.table_config(server.hosting.db_tables[table])
        blinds = (stored["small_blind"], stored["big_blind"], stored["ante"], stored["ante_kind"])
        assert blinds == (2, 4, 1, "per_player")
        assert all(r.at.tzinfo is not None or r.at.year > 2000 for r in records)


async def test_a_seat_token_brings_the_player_back_to_their_seat_and_cards(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with home_game(address, "hana", "bob") as (table, _, (_host, bob)):
        token = (await bob.wait(lambda m: m["type"] == "seated"))["seat_token"]
        await bob.event("hole_cards_dealt")
        dealt = next(
            m["event"]["cards"] for m in bob.messages
            if m["type"] == "event" and m["event"]["type"] == "hole_cards_dealt"
            and m["event"]["seat"] == 1
        )  # fmt: skip
        await bob.ws.close()
        async with client(address) as stranger:
            refused = await stranger.ask(type="hello", seat_token="z" * 32)
            assert refused["code"] == "bad_seat_token"
        async with client(address, seat_token=token) as again:
            resumed = await again.ask(type="resume", table=table, last_seq=0)
            assert resumed["type"] == "resumed"
            seat = resumed["view"]["seats"][1]
            assert seat["name"] == "bob" and seat["cards"] == dealt
            assert resumed["view"]["viewer"] == 1
