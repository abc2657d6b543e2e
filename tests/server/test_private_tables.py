"""Private tables (docs/home-games.md): the invite, seat requests, the host's controls and
their records, and the seat token that brings a player back to their seat.

The table's rules are tested on a :class:`~server.tables.TableCore` driven by hand
(:class:`tests.server.core_room.Room`: no event loop, a fake clock). A few tests go end
to end, through a real server on 127.0.0.1 and real websockets clients, for what only
the server does: the lobby and the bus, what the store keeps of a table and its host's
controls (what a process taking the table over reads), closing the table and its
sessions in the store, the house bots the server makes, and the hello with a seat token.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server import protocol
from server.app import PokerServer
from server.bots import load_bot
from server.errors import Refusal
from server.tables import Caller, Player, TableRunner
from server.tables.messages import AddHouseBot, Disconnect
from tests.server.clients import Inbox
from tests.server.core_room import TABLE, Room

# -- the table's rules, on the core -------------------------------------------------------

INVITE = "friday-night-invite-0123"
SHOW_SECONDS = 4.0  # a private table's pause after each hand (create_table's default)
Message = dict[str, Any]


def private_room(host: str = "hana", **settings: Any) -> Room:
    """A private table of ``host``'s, as ``create_table`` makes one: blinds 1/2, buy-ins
    80..400, a minute to decide, and a pause after each hand. Nobody is seated."""
    room = Room(decision_seconds=60.0, show_seconds=SHOW_SECONDS, **settings)
    room.core.host.make_private(room.player(host).id, INVITE)
    return room


def control(room: Room, action: str, by: str = "hana", **fields: Any) -> Message:
    """``by``'s host control ``action``: its reply (the refusal raised)."""
    return room.send(by, type="host", action=action, **fields)


def join(room: Room, guest: str, buy_in: int = 200, host: str = "hana") -> int:
    """``guest`` asks for a seat with the invite and the host approves it: the seat."""
    asked = room.send(guest, type="request_seat", invite=INVITE, buy_in=buy_in)
    assert asked["type"] == "seat_requested", asked
    start = len(room.person(guest).messages)
    done = control(room, "approve", by=host, player=guest)
    assert done["type"] == "host_done", done
    return int(since(room.person(guest), start, "seated")[-1]["seat"])


def home_game(*names: str, paused: bool = False) -> Room:
    """A private table hosted by ``names[0]``, who sits in seat 0 with 200, and the others
    seated by the host's approval, in order, with 200 each (``paused``: the host pauses
    first, so that no hand is dealt)."""
    host, *guests = names
    room = private_room(host)
    if paused:
        control(room, "pause", by=host)
    assert room.sit(host, 0, buy_in=200)["seat"] == 0
    for guest in guests:
        join(room, guest, host=host)
    return room


def since(inbox: Inbox, start: int, kind: str) -> list[Message]:
    """The messages of type ``kind`` ``inbox`` got after its first ``start``."""
    return [m for m in inbox.messages[start:] if m["type"] == kind]


def events_since(inbox: Inbox, start: int, kind: str) -> list[Message]:
    """The bodies of the events of type ``kind`` ``inbox`` got after its first ``start``."""
    return [m["event"] for m in since(inbox, start, "event") if m["event"]["type"] == kind]


def test_a_private_table_needs_its_invite_to_be_watched() -> None:
    room = private_room()
    refused = room.refused("olly", type="spectate")
    assert refused.code == "bad_invite"
    refused = room.refused("olly", type="spectate", invite="x" * 32)
    assert refused.code == "bad_invite"
    assert room.person("olly") not in room.core.fanout.subscribers  # refused: not watching
    watched = room.send("olly", type="spectate", invite=INVITE)
    assert watched["type"] == "snapshot"
    assert room.person("olly") in room.core.fanout.subscribers
    sat = room.refused("olly", type="sit", buy_in=200)
    assert sat.code == "private"
    assert not room.core.seats.occupants
    assert room.send("hana", type="spectate")["type"] == "snapshot"  # the host: no invite
    [state] = [m for m in room.person("hana").messages if m["type"] == "host_state"]
    assert state["invite"] == INVITE and state["host"] == "hana"
    assert not [m for m in room.person("olly").messages if m["type"] == "host_state"]
    assert room.core.host.private


def test_the_host_approves_and_rejects_seat_requests() -> None:
    room = private_room()
    room.send("hana", type="spectate")  # the host watches: requests come here
    wrong = room.refused("bob", type="request_seat", invite="y" * 32, buy_in=200)
    assert wrong.code == "bad_invite"
    outside = room.refused("bob", type="request_seat", invite=INVITE, buy_in=5)
    assert outside.code == "bad_buy_in"
    assert not room.core.host.requests
    asked = room.send("bob", type="request_seat", invite=INVITE, buy_in=150, seat=3)
    assert asked == {"type": "seat_requested", "table": TABLE, "buy_in": 150, "seat": 3}
    [request] = [m for m in room.person("hana").messages if m["type"] == "seat_request"]
    assert request == {"type": "seat_request", "table": TABLE, "player": "bob",
                       "buy_in": 150, "seat": 3}  # fmt: skip
    assert not room.core.seats.occupants  # waiting for the host
    room.send("cat", type="request_seat", invite=INVITE, buy_in=100)
    done = control(room, "approve", player="bob")
    assert done == {"type": "host_done", "table": TABLE, "action": "approve",
                    "player": "bob", "seat": 3, "buy_in": 150}  # fmt: skip
    [seated] = [m for m in room.person("bob").messages if m["type"] == "seated"]
    assert seated["seat"] == 3 and seated["stack"] == 150 and len(seated["seat_token"]) >= 22
    rejected = control(room, "reject", player="cat")
    assert rejected["type"] == "host_done"
    [no] = [m for m in room.person("cat").messages if m["type"] == "seat_rejected"]
    assert no["table"] == TABLE
    again = room.refused("hana", type="host", action="approve", player="cat")
    assert again.code == "no_request"
    assert room.core.seats.of_player(room.player("cat")) is None
    [told] = [m for m in room.person("cat").messages
              if m["type"] == "host_action" and m["action"] == "approve"]  # fmt: skip
    assert told["by"] == "hana" and told["player"] == "bob"
    assert room.core.table.stack(3) == 150


CONTROLS = [
    ("approve", {"player": "bob"}), ("reject", {"player": "bob"}),
    ("chips", {"player": "bob", "amount": 50}), ("pause", {}), ("resume", {}),
    ("blinds", {"small_blind": 2, "big_blind": 4}), ("away", {"player": "hana"}),
    ("remove", {"player": "hana"}), ("transfer", {"player": "bob"}), ("close", {}),
    ("house_bot", {"seat": 4, "strategy": "random"}), ("remove_bot", {"seat": 4}),
]  # fmt: skip


def by(room: Room, name: str, action: str, fields: dict[str, Any]) -> Message:
    """``name``'s control ``action``, a house bot's as the server hands it to the table
    (with the bot it made); the reply, the refusal raised."""
    if action != "house_bot":
        return control(room, action, by=name, **fields)
    host = protocol.Host(type="host", table=TABLE, action="house_bot", **fields)
    bot = Player(99, f"bot{fields['seat'] + 1}-{fields['strategy']}", bot=True)
    return room.submit(AddHouseBot(host, bot, load_bot(fields["strategy"])), room.caller(name))


@pytest.mark.parametrize("action, fields", CONTROLS)
def test_only_the_host_may_use_a_control(action: str, fields: dict[str, Any]) -> None:
    room = home_game("hana", "bob")
    start = len(room.person("hana").messages)
    host = room.core.host
    with pytest.raises(Refusal) as refused:
        by(room, "bob", action, fields)
    assert refused.value.code == "not_host", refused.value
    assert "only the host" in str(refused.value)
    assert [r[1] for r in room.host_records] == ["approve"]  # bob's approval alone
    assert not since(room.person("hana"), start, "host_action")
    assert host.host == room.player("hana").id and not host.paused and not host.close_when_over
    assert host.queued_chips == {} and host.queued_blinds is None
    assert sorted(room.core.seats.occupants) == [0, 1] and not room.core.house.bots
    assert not room.core.seats.leaving and not room.core.table.is_sitting_out(0)


@pytest.mark.parametrize("action, fields", CONTROLS)
def test_a_public_table_has_no_host(action: str, fields: dict[str, Any]) -> None:
    room = Room()
    room.sit("hana", 0)
    room.sit("bob", 1)
    with pytest.raises(Refusal) as refused:
        by(room, "bob", action, fields)
    assert refused.value.code == "not_host", refused.value
    assert not room.host_records and not room.core.host.paused


def test_chips_wait_for_the_next_hand_and_go_in_the_ledger() -> None:
    room = home_game("hana", "bob")
    bob = room.person("bob")
    assert room.core.table.hand_in_progress
    before = room.core.table.stack(1)
    done = control(room, "chips", player="bob", amount=100)
    assert done["amount"] == 100
    assert room.core.table.stack(1) == before  # the hand goes on as it was dealt
    control(room, "pause")
    start = len(bob.messages)
    room.play_hand()
    [ended] = events_since(bob, start, "hand_ended")
    at_end = dict(ended["stacks"])[1]
    assert room.core.table.stack(1) == at_end  # the pause after the hand: not yet
    assert not [e for e in room.ledger if e[2] == "host_chips"]
    room.wait(SHOW_SECONDS)
    after_hand = at_end + 100
    assert room.core.table.stack(1) == after_hand
    snapshot = since(bob, start, "snapshot")[-1]
    assert snapshot["view"]["seats"][1]["stack"] == after_hand
    bob_id = room.player("bob").id
    assert [e for e in room.ledger if e[0] == bob_id] == [
        (bob_id, 200, "buy_in"),
        (bob_id, 100, "host_chips"),
    ]
    assert not events_since(bob, start, "hand_started")  # paused
    control(room, "resume")
    [started] = events_since(bob, start, "hand_started")
    stacks = dict(zip(started["seats"], started["stacks"], strict=True))
    assert stacks[1] == after_hand


def test_chips_taken_away_and_for_a_player_gone_by_the_next_hand() -> None:
    room = home_game("hana", "bob", "cy", paused=True)
    control(room, "chips", player="bob", amount=-20)  # between hands: at once
    assert room.core.table.stack(1) == 180
    bob_id = room.player("bob").id
    assert (bob_id, -20, "host_chips") in room.ledger
    control(room, "resume")
    assert room.core.table.hand_in_progress
    control(room, "chips", player="cy", amount=50)
    control(room, "remove", player="cy")  # stands up once the hand is over
    room.play_hand()
    room.wait(SHOW_SECONDS)
    cy_id = room.player("cy").id
    assert room.core.seats.of_player(room.player("cy")) is None
    assert [e[2] for e in room.ledger if e[0] == cy_id] == ["buy_in", "cash_out"]


def test_pause_stops_dealing_after_the_hand_and_resume_deals_again() -> None:
    room = home_game("hana", "bob")
    bob = room.person("bob")
    assert len(bob.events("hand_started")) == 1
    control(room, "pause")
    assert room.core.table.hand_in_progress  # the hand being played goes on
    start = len(bob.messages)
    room.play_hand()
    assert len(events_since(bob, start, "hand_ended")) == 1
    room.wait(600.0)
    assert not events_since(bob, start, "hand_started")
    assert room.core.host.paused and not room.core.table.hand_in_progress
    assert room.stored == [1]
    control(room, "resume")
    assert len(events_since(bob, start, "hand_started")) == 1
    assert room.core.table.hand_in_progress and room.core.table.hand_number == 2


def test_new_blinds_play_from_the_next_hand() -> None:
    room = home_game("hana", "bob")
    bob = room.person("bob")
    [first] = bob.events("hand_started")
    assert first["big_blind"] == 2
    bad = room.refused("hana", type="host", action="blinds", small_blind=5, big_blind=4)
    assert bad.code == "refused"
    assert room.core.host.queued_blinds is None  # refused, not queued
    done = control(room, "blinds", small_blind=2, big_blind=4)
    assert (done["small_blind"], done["big_blind"], done["ante"]) == (2, 4, 0)
    assert room.core.table.config.big_blind == 2  # this hand: as dealt
    start = len(bob.messages)
    room.play_hand()
    assert len(events_since(bob, start, "hand_ended")) == 1
    assert not events_since(bob, start, "hand_started")  # the pause after the hand
    room.wait(SHOW_SECONDS)
    [second] = events_since(bob, start, "hand_started")
    assert (second["small_blind"], second["big_blind"]) == (2, 4)


def test_away_sits_a_player_out_and_remove_stands_them_up() -> None:
    room = home_game("hana", "bob", "cy", paused=True)
    bob, cy = room.person("bob"), room.person("cy")
    assert not room.core.table.hand_in_progress
    cy_token = since(cy, 0, "seated")[-1]["seat_token"]
    start = len(cy.messages)
    control(room, "away", player="bob")
    [sat_out] = events_since(cy, start, "player_sat_out")
    assert sat_out["seat"] == 1
    assert room.core.table.is_sitting_out(1)
    start = len(bob.messages)
    gone = control(room, "remove", player="cy")
    assert gone["player"] == "cy"
    [stood] = events_since(bob, start, "player_stood")
    assert stood["seat"] == 2 and 2 not in room.core.seats.occupants
    cy_id = room.player("cy").id
    assert room.ledger[-1] == (cy_id, -200, "cash_out")
    assert room.core.seats.player_of_token(cy_token) is None  # it names nobody now
    missing = room.refused("hana", type="host", action="remove", player="cy")
    assert missing.code == "no_player"


def test_the_host_passes_the_role_on() -> None:
    room = home_game("hana", "bob")
    bob = room.person("bob")
    assert not since(bob, 0, "host_state")
    done = control(room, "transfer", player="bob")
    assert done["player"] == "bob"
    [state] = since(bob, 0, "host_state")
    assert state["host"] == "bob" and state["invite"] == INVITE
    assert room.refused("hana", type="host", action="pause").code == "not_host"
    assert not room.core.host.paused
    assert control(room, "pause", by="bob")["type"] == "host_done"
    assert (
        room.core.host.paused
        and room.core.host.host == room.core.seats.occupants[1].player.id == room.player("bob").id
    )


def test_close_waits_for_the_hand_and_cashes_everyone_out() -> None:
    room = home_game("hana", "bob")
    bob = room.person("bob")
    assert room.core.table.hand_in_progress
    done = control(room, "close")
    assert done["type"] == "host_done"
    assert not room.core.closing and room.core.table.hand_in_progress  # the hand goes on
    start = len(bob.messages)
    room.play_hand()
    [ended] = events_since(bob, start, "hand_ended")
    assert room.core.closing and room.core.close_reason == "host"  # no pause after it
    assert room.stored == [1]
    room.wait(600.0)
    assert not events_since(bob, start, "hand_started")  # no hand after it
    stacks = dict(ended["stacks"])
    hana, bob_id = room.player("hana").id, room.player("bob").id
    assert stacks[0] != 200  # the hand moved chips: the cash-outs are as it left them
    entries = room.core.cash_out_everyone()
    assert sorted(entries) == sorted(
        [(hana, -stacks[0], "cash_out"), (bob_id, -stacks[1], "cash_out")]
    )
    assert sum(amount for _, amount, _ in room.ledger + entries) == 0


def add_bot(room: Room, seat: int, strategy: str, name: str) -> Message:
    """The host's house bot, as the server hands it to the table (the bot made)."""
    host = protocol.Host(type="host", table=TABLE, action="house_bot", seat=seat,
                         strategy=strategy)  # fmt: skip
    bot = Player(50 + seat, name, bot=True)
    return room.submit(AddHouseBot(host, bot, load_bot(strategy)), room.caller("hana"))


def test_the_host_seats_and_removes_a_house_bot() -> None:
    room = home_game("hana", paused=True)
    done = add_bot(room, 2, "tight-aggressive", "bot3-tight-aggressive")
    assert done["player"] == "bot3-tight-aggressive" and done["seat"] == 2
    assert done["strategy"] == "tight-aggressive"
    assert (
        2 in room.core.house.bots
        and room.core.seats.occupants[2].player.name == "bot3-tight-aggressive"
        and room.core.table.stack(2) == room.core.table.config.max_buy_in
    )
    with pytest.raises(Refusal) as taken:
        add_bot(room, 2, "random", "bot3-random")
    assert taken.value.code == "seat_taken"
    assert room.core.seats.occupants[2].player.name == "bot3-tight-aggressive"
    removed = control(room, "remove_bot", seat=2)
    assert removed["player"] == "bot3-tight-aggressive"
    assert 2 not in room.core.house.bots and 2 not in room.core.seats.occupants
    assert [e for e in room.ledger if e[0] == 52] == [(52, 400, "buy_in"), (52, -400, "cash_out")]
    assert room.refused("hana", type="host", action="remove_bot", seat=2).code == "illegal"


class Wall:
    """The date the table stamps a control with, as a test sets it."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def test_every_control_is_recorded_with_who_and_when() -> None:
    room = private_room()
    start = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
    times = [start + dt.timedelta(minutes=n) for n in range(4)]
    wall = Wall(start)
    room.core.wall = wall
    room.sit("hana", 0, buy_in=200)
    wall.now = times[0]
    join(room, "bob")
    wall.now = times[1]
    control(room, "pause")
    wall.now = times[2]
    control(room, "chips", player="bob", amount=-20)
    wall.now = times[3]
    control(room, "blinds", small_blind=2, big_blind=4, ante=1)
    refused = room.refused("bob", type="host", action="resume")  # refused: not recorded
    assert refused.code == "not_host"
    hana, bob = room.player("hana").id, room.player("bob").id
    done: list[tuple[str, int | None, dict[str, Any]]] = [
        ("approve", bob, {"player": "bob", "seat": 1, "buy_in": 200}),
        ("pause", None, {}),
        ("chips", bob, {"player": "bob", "amount": -20}),
        ("blinds", None, {"small_blind": 2, "big_blind": 4, "ante": 1}),
    ]
    assert room.host_records == [
        (hana, action, player, details, at)
        for (action, player, details), at in zip(done, times, strict=True)
    ]
    told = [m for m in room.person("bob").messages if m["type"] == "host_action"]
    assert told == [
        {"type": "host_action", "table": TABLE, "by": "hana", "action": action, **details,
         "at": at.isoformat()}
        for (action, _, details), at in zip(done, times, strict=True)
    ]  # fmt: skip


def test_a_seat_token_brings_the_player_back_to_their_seat_and_cards() -> None:
    room = home_game("hana", "bob")
    bob = room.player("bob")
    [seated] = since(room.person("bob"), 0, "seated")
    token = seated["seat_token"]
    [dealt] = [e["cards"] for e in room.person("bob").events("hole_cards_dealt")
               if e["seat"] == 1]  # fmt: skip
    assert dealt is not None
    assert room.core.seats.player_of_token(token) == bob
    assert room.core.seats.player_of_token("z" * 32) is None
    room.submit(Disconnect(), room.caller("bob"))
    assert room.core.seats.occupants[1].session is None  # the seat waits for them
    again = Inbox()
    resume = protocol.Resume(type="resume", table=TABLE, last_seq=0)
    resumed = room.submit(resume, Caller(again, bob))
    assert resumed["type"] == "resumed"
    seat = resumed["view"]["seats"][1]
    assert seat["name"] == "bob" and seat["cards"] == dealt
    assert resumed["view"]["viewer"] == 1
    assert room.core.seats.occupants[1].session is again


# -- end to end: the lobby, the store, the server's own parts --------------------------------

TIMEOUT = 30.0  # a reply may wait for the records worker to start, on a busy machine


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


async def wire_join(host: Client, guest: Client, name: str, table: str, invite: str) -> int:
    """``guest`` (called ``name``) asks for a seat and the host approves it: the seat."""
    guest.table = table
    asked = await guest.ask(type="request_seat", table=table, invite=invite, buy_in=200)
    assert asked["type"] == "seat_requested", asked
    await host.wait(lambda m: m["type"] == "seat_request" and m["player"] == name)
    start = len(guest.messages)
    done = await host.host("approve", player=name)
    assert done["type"] == "host_done", done
    seated = await guest.wait(lambda m: m["type"] == "seated", start)
    return int(seated["seat"])


@contextlib.asynccontextmanager
async def wire_home_game(
    address: str, *names: str, paused: bool = False, **options: Any
) -> AsyncIterator[tuple[str, str, list[Client]]]:
    """A private table (with ``create_table``'s ``options``) hosted by ``names[0]``, who
    sits in seat 0, and the others seated by the host's approval, in order (``paused``:
    the host pauses first, so that nobody plays): the table, its invite and the clients."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(client(address, name)) for name in names]
        host = clients[0]
        table, invite = await open_table(host, **options)
        if paused:
            await host.host("pause")
        sat = await host.ask(type="sit", table=table, seat=0, buy_in=200)
        assert sat["type"] == "seated", sat
        for name, guest in zip(names[1:], clients[1:], strict=True):
            await wire_join(host, guest, name, table, invite)
        yield table, invite, clients


def runner_of(server: PokerServer, table: str) -> TableRunner:
    return server.hosting.tables[table]


async def test_a_private_table_is_not_in_the_lobby_and_its_invite_works_on_the_wire(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with client(address, "hana") as host, client(address, "olly") as other:
        table, invite = await open_table(host)
        assert len(invite) >= 22  # 128 bits and more, URL-safe
        listed = await other.ask(type="list_tables")
        assert table not in [t["id"] for t in listed["tables"]]
        assert "demo" in [t["id"] for t in listed["tables"]]
        refused = await other.ask(type="spectate", table=table)
        assert refused["code"] == "bad_invite"
        watched = await other.ask(type="spectate", table=table, invite=invite)
        assert watched["type"] == "snapshot"
        assert runner_of(server, table).core.host.private
        lines = []  # the lobby lines on the bus, which other processes list
        async with server.bus.subscribe(server.bus.topics.lobby("+")) as queue:
            for runner in server.hosting.tables.values():
                runner.publish_summary()
            while not queue.empty():
                lines.append(queue.get_nowait()[0])
        assert server.bus.topics.lobby("demo") in lines
        assert server.bus.topics.lobby(table) not in lines


async def test_the_hosts_controls_are_stored_for_a_process_taking_the_table_over(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    before = dt.datetime.now(dt.UTC)
    async with wire_home_game(address, "hana", "bob", paused=True) as (table, _, (host, bob)):
        await host.host("chips", player="bob", amount=100)  # no hand: at once
        await host.host("blinds", small_blind=2, big_blind=4, ante=1)
        assert (await bob.host("resume"))["code"] == "not_host"  # refused: not recorded
        assert (await host.host("transfer", player="bob"))["type"] == "host_done"
        after = dt.datetime.now(dt.UTC)
        records = await server.store.host_actions(table)
        assert [(r.host, r.action, r.player) for r in records] == [
            ("hana", "pause", None),
            ("hana", "approve", "bob"),
            ("hana", "chips", "bob"),
            ("hana", "blinds", None),
            ("hana", "transfer", "bob"),
        ]
        assert records[2].details == {"player": "bob", "amount": 100}
        assert records[3].details == {"small_blind": 2, "big_blind": 4, "ante": 1}
        ats = [r.at if r.at.tzinfo else r.at.replace(tzinfo=dt.UTC) for r in records]
        assert before <= ats[0] and ats == sorted(ats) and ats[-1] <= after
        stored = await server.store.table_config(server.hosting.db_tables[table])
        blinds = (stored["small_blind"], stored["big_blind"], stored["ante"], stored["ante_kind"])
        assert blinds == (2, 4, 1, "per_player")
        new_host = runner_of(server, table).core.seats.occupants[1].player.id
        assert stored["private"]["host"] == new_host  # a process taking it over knows
        async with asyncio.timeout(TIMEOUT):
            while True:  # the host's chips, a buy-in in the ledger
                entries = await server.store.ledger_sessions(table)
                bobs = [s for s in entries if s.nickname == "bob"]
                if bobs and bobs[0].buy_in == 300:
                    break
                await asyncio.sleep(0.05)


async def test_the_host_closing_the_table_closes_it_on_the_server_and_in_the_store(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with wire_home_game(address, "hana", "bob") as (table, _, (host, bob)):
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
        assert len(sessions) == 2 and sum(s.net for s in sessions) == 0


async def test_the_server_makes_the_house_bot_the_host_asks_for(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with wire_home_game(address, "hana", "bob", paused=True) as (table, _, (host, bob)):
        bad = await host.host("house_bot", seat=2, strategy="server.bots:RandomBot")
        assert bad["code"] == "bad_strategy"  # a built-in strategy, never a module
        other = await bob.host("house_bot", seat=3, strategy="random")
        assert other["code"] == "not_host"
        done = await host.host("house_bot", seat=2, strategy="tight-aggressive")
        assert done["player"] == "bot3-tight-aggressive" and done["seat"] == 2
        core = runner_of(server, table).core
        assert sorted(core.house.bots) == [2]
        bot = core.seats.occupants[2].player
        assert bot.name == "bot3-tight-aggressive" and bot.bot


async def test_a_seat_token_says_hello_as_its_player(app: tuple[PokerServer, str]) -> None:
    _server, address = app
    async with wire_home_game(address, "hana", "bob", paused=True) as (table, _, (_host, bob)):
        token = (await bob.wait(lambda m: m["type"] == "seated"))["seat_token"]
        await bob.ws.close()
        async with client(address) as stranger:
            refused = await stranger.ask(type="hello", seat_token="z" * 32)
            assert refused["code"] == "bad_seat_token"
        async with client(address, seat_token=token) as again:
            resumed = await again.ask(type="resume", table=table, last_seq=0)
            assert resumed["type"] == "resumed"
            assert resumed["view"]["seats"][1]["name"] == "bob"
            assert resumed["view"]["viewer"] == 1
