"""Hostile clients, end to end: a real server on 127.0.0.1, real websockets clients, house
bots playing all along.

Each test states a promise the server makes to everyone else while one client misbehaves:
validation answers every bad message and moves no chip; abuse closes only the abuser;
no hole card reaches anyone who may not see it; spectators behind by hands or seconds
really are behind; and one connection's failure stays with that connection.

What "right" is comes from docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import socket
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engine import (
    Action,
    ActionMenu,
    ActionTaken,
    BetOrRaiseTo,
    CardsShown,
    Event,
    HandEnded,
    HoleCardsDealt,
    PlayerSat,
    PlayerSatOut,
    PlayerStood,
    TableConfig,
    TableView,
    history,
)
from server.app import PokerServer, ServerSettings
from server.bots import CallingStation, RandomBot, TightAggressive
from server.connections import POLICY_VIOLATION, Session
from server.store import Store
from server.store.models import Hand, HandPlayer, LedgerEntry
from server.tables import Caller, TableRunner
from server.tables.views import Views

JSON = dict[str, Any]
MESSAGE_TOO_BIG = 1009  # RFC 6455: what websockets answers a frame over max_size with
UNSOLICITED = frozenset(
    {"event", "deck_commitment", "action_request", "player_joined", "chat", "reaction",
     "straddle", "bomb_pot_votes"}
)  # fmt: skip
"""Messages a table sends on its own; anything else a client receives answers a request."""
HUMAN_SEATS = (4, 5)  # house bots sit at 0..3 of the six-seat demo table
RANKS, SUITS = frozenset("23456789TJQKA"), frozenset("cdhs")


ROOT = Path(__file__).resolve().parents[2]


# -- a room: one server, the demo table, and a record of everything the table published ------


@dataclass(frozen=True)
class Published:
    """One event as the table published it, before any redaction."""

    seq: int
    hand_number: int
    event: Event
    at: float  # time.monotonic() when it was published


@dataclass
class Room:
    server: PokerServer
    runner: TableRunner
    url: str
    published: list[Published]

    def hands_ended(self) -> int:
        return sum(isinstance(p.event, HandEnded) for p in self.published)

    async def more_hands(self, count: int, timeout: float = 20.0) -> None:
        """Wait until ``count`` more hands have ended: the table is still playing."""
        target = self.hands_ended() + count
        async with asyncio.timeout(timeout):
            while self.hands_ended() < target:
                await asyncio.sleep(0.01)

    async def until_published(self, where: Callable[[Published], bool], timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not any(where(p) for p in self.published):
                await asyncio.sleep(0.01)


def record(runner: TableRunner, monkeypatch: pytest.MonkeyPatch) -> list[Published]:
    """Everything ``runner`` publishes from now on, unredacted, with its seq and time."""
    published: list[Published] = []
    core = runner.core
    original = core.publish

    def publish(events: list[Event]) -> None:
        now = time.monotonic()
        for i, event in enumerate(events, start=1):
            published.append(Published(core.fanout.seq + i, core.table.hand_number, event, now))
        original(events)

    monkeypatch.setattr(core, "publish", publish)
    return published


@contextlib.asynccontextmanager
async def serving(
    store: Store, monkeypatch: pytest.MonkeyPatch, *, steady: bool = False, **settings: Any
) -> AsyncIterator[Room]:
    """A server with the demo table: four house bots (a calling station, two random bots
    that raise and go all in, a tight-aggressive bot; with ``steady``, four calling
    stations, whose hands all take about as long), two free seats (4 and 5)."""
    options: dict[str, Any] = {"port": 0, "house_think_seconds": 0.0, **settings}
    server = PokerServer(store, ServerSettings(**options))
    async with server.running() as ws_server:
        runner = await server.hosting.create_table(
            "Demo", TableConfig(small_blind=50, big_blind=100, seats=6), decision_seconds=5.0
        )
        published = record(runner, monkeypatch)
        bots = {
            0: ("house-0", CallingStation()),
            1: ("house-1", RandomBot(seed=1)),
            2: ("house-2", TightAggressive()),
            3: ("house-3", RandomBot(seed=3)),
        }
        if steady:
            bots = {seat: (name, CallingStation()) for seat, (name, _) in bots.items()}
        await server.hosting.add_house_bots(runner, bots, stack=10_000)
        port = next(iter(ws_server.sockets)).getsockname()[1]
        yield Room(server, runner, f"ws://127.0.0.1:{port}/ws", published)


@contextlib.asynccontextmanager
async def room_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: Any
) -> AsyncIterator[Room]:
    async with (
        Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hostile.db'}") as store,
        serving(store, monkeypatch, **settings) as room,
    ):
        yield room


# -- clients that read everything --------------------------------------------------------------


class Client:
    """A websocket client whose reader keeps every message with its arrival time."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.log: list[tuple[float, JSON]] = []
        self.inbox: asyncio.Queue[JSON] = asyncio.Queue()
        self.pending: JSON | None = None  # an action request not answered yet
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, name: str = "") -> Client:
        return cls(await connect(url), name)

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                message = json.loads(raw)
                self.log.append((time.monotonic(), message))
                self.inbox.put_nowait(message)

    @property
    def messages(self) -> list[JSON]:
        return [m for _, m in self.log]

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def until(
        self, kind: str, timeout: float = 10.0, where: Callable[[JSON], bool] = lambda m: True
    ) -> JSON:
        """The next message of ``kind`` that satisfies ``where`` (others are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                if message["type"] == "action_request":
                    self.pending = message
                if message["type"] == kind and where(message):
                    return message

    async def answer(self, payload: str | bytes, timeout: float = 10.0) -> JSON:
        """Send one raw frame and return the reply to it (table messages are skipped)."""
        await self.ws.send(payload)
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                if message["type"] == "action_request":
                    self.pending = message
                elif message["type"] not in UNSOLICITED:
                    return message

    async def hello(self, name: str) -> JSON:
        self.name = name
        await self.send(type="hello", name=name)
        return await self.until("welcome")

    async def sit(self, seat: int, buy_in: int = 10_000, table: str = "demo") -> JSON:
        await self.send(type="sit", table=table, seat=seat, buy_in=buy_in, wait_for_big_blind=False)
        return await self.until("seated")

    async def closed(self, timeout: float = 10.0) -> int | None:
        """Wait for the server to close the connection; its close code."""
        async with asyncio.timeout(timeout):
            await self.reader
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


@contextlib.asynccontextmanager
async def clients(url: str, count: int) -> AsyncIterator[list[Client]]:
    opened = [await Client.open(url) for _ in range(count)]
    try:
        yield opened
    finally:
        for client in opened:
            await client.close()


async def play_calling(client: Client, stop: asyncio.Event, fold: bool = False) -> None:
    """Answer every action request until ``stop`` is set: check when free, call up to two
    big blinds, fold to more (or to anything, with ``fold``)."""
    n = 0
    answered: set[tuple[int, int]] = set()
    with contextlib.suppress(ConnectionClosed):
        while not stop.is_set():
            if client.pending is None:
                try:
                    await client.until("action_request", timeout=0.2)
                except TimeoutError:
                    continue
            request, client.pending = client.pending, None
            assert request is not None
            decision = (request["hand_number"], request["seq"])
            if decision in answered:  # asked again (after a resume): answered already
                continue
            answered.add(decision)
            menu = request["menu"]
            if menu["can_check"]:
                action = "check"
            else:
                action = "fold" if fold or menu["call"] > 200 else "call"
            n += 1
            await client.send(
                type="act", table=request["table"], action_id=f"{client.name}-{n}", action=action
            )


# -- what a viewer may see -------------------------------------------------------------------


@dataclass
class Truth:
    """Every hand's hole cards and when (by seq) each seat's cards were shown."""

    holes: dict[int, dict[int, tuple[str, ...]]] = field(default_factory=dict)
    shown_at: dict[tuple[int, int], int] = field(default_factory=dict)

    @classmethod
    def of(cls, published: Iterable[Published]) -> Truth:
        truth = cls()
        for p in published:
            if isinstance(p.event, HoleCardsDealt):
                assert p.event.cards is not None  # the recorder sees events unredacted
                cards = tuple(str(c) for c in p.event.cards)
                truth.holes.setdefault(p.hand_number, {})[p.event.seat] = cards
            elif isinstance(p.event, CardsShown):
                truth.shown_at[p.hand_number, p.event.seat] = p.seq
        return truth

    def hidden(self, hand: int, seq: float, viewer: int | None) -> set[str]:
        """The hole cards of ``hand`` that ``viewer`` (its seat in that hand) may not see
        at ``seq``: everyone else's, unless shown by then."""
        hidden = set()
        for seat, cards in self.holes.get(hand, {}).items():
            shown = self.shown_at.get((hand, seat))
            if seat != viewer and (shown is None or shown > seq):
                hidden |= set(cards)
        return hidden


def cards_in(value: Any) -> Iterable[str]:
    """Every string in a JSON value that is a card."""
    if isinstance(value, str):
        if len(value) == 2 and value[0] in RANKS and value[1] in SUITS:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def contexts(message: JSON) -> Iterable[tuple[int | None, float, Any]]:
    """The parts of a message, each with the hand and the seq it speaks about."""
    kind = message["type"]
    if kind == "event":
        yield message["hand_number"], message["seq"], message["event"]
    elif kind in ("snapshot", "resumed"):
        yield message["view"]["hand_number"], message["seq"], message["view"]
        yield None, message["seq"], message["summary"]
        for missed in message.get("missed", []):
            yield missed["hand_number"], missed["seq"], missed["event"]
    elif "hand_number" in message:
        yield message["hand_number"], message.get("seq", 0), message
    else:
        yield None, 0, message


def leaks(
    messages: Iterable[JSON], truth: Truth, seat_in: Callable[[int], int | None]
) -> list[str]:
    """Hole cards in ``messages`` their viewer may not see; ``seat_in(hand)`` is the
    viewer's seat in that hand (None for a spectator)."""
    found = []
    for message in messages:
        for hand, seq, part in contexts(message):
            cards = set(cards_in(part))
            if hand is None:
                found += [f"{card} outside any hand in {message['type']}" for card in cards]
                continue
            bad = cards & truth.hidden(hand, seq, seat_in(hand))
            found += [f"{card} of hand {hand} in a {message['type']}" for card in sorted(bad)]
    return found


# -- 1. a thousand hostile messages change nothing -------------------------------------------


@dataclass(frozen=True)
class Probe:
    """One hostile frame, and the replies that would be right: a reply type, or
    ``error:<code>``."""

    category: str
    payload: str | bytes
    expect: tuple[str, ...]


def probe(category: str, message: Any, *expect: str) -> Probe:
    payload = message if isinstance(message, str | bytes) else json.dumps(message)
    return Probe(category, payload, expect)


def errors(*codes: str) -> tuple[str, ...]:
    return tuple(f"error:{code}" for code in codes)


BAD_JSON, BAD_MESSAGE = errors("bad_json"), errors("bad_message")


def malformed_probes(r: int) -> list[Probe]:
    """Round ``r`` of messages that no client may send, whoever it is: not JSON, not an
    object, no or an unknown type, fields missing, unknown, of the wrong type or out of
    range, and odd frames."""
    p: list[Probe] = []
    message: Any
    expect: tuple[str, ...]

    def add(category: str, message: Any, *expect: str) -> None:
        p.append(probe(category, message, *expect))

    for raw in [
        "not json", "", " ", "{", "}", "{'type': 'ping'}", '{"type": "ping",}',
        '{"type": "ping"} x', '{"type": "ping"}{"type": "ping"}', "nul", "\x00", "\ufeff{}",
        '{"type": "ping"', "[[[", "tru", '{"type": "\\x41"}', "'ping'", "/* */ {}",
        '{"type": "ping", "id": "\\ud83"}', '{"type": "ping" "id": "x"}',
    ]:  # fmt: skip
        add("invalid JSON", raw, *BAD_JSON)
    for raw in [
        "[]", "[1, 2]", "1", "-0", "3.14", '"ping"', "null", "true", "false", "1e99999",
        "NaN", "-Infinity", '[{"type": "ping"}]', '"{\\"type\\": \\"ping\\"}"',
        "[" * 100 + "]" * 100,
    ]:  # fmt: skip
        add("JSON that is not an object", raw, *BAD_MESSAGE)
    add("deep nesting", "[" * 5000 + "]" * 5000, *errors("bad_json", "internal"))
    for message in [
        {}, {"tipe": "ping"}, {"TYPE": "ping"}, {"id": f"x{r}"}, {"Type": "hello", "name": "x"},
        {"table": "demo", "action": "fold"},
    ]:  # fmt: skip
        add("no type", message, *BAD_MESSAGE)
    for kind in [
        "teleport", "HELLO", "ping ", "", "admin", "__class__", "sit\u0000", "deal",
        "snapshot", "event", "error", "welcome", "act\n", "Ping", "💀", 5, None, ["ping"],
        {"x": 1}, True, 1.5, {"type": "ping"},
    ]:  # fmt: skip
        add("unknown type", {"type": kind, "id": f"u{r}"}, *errors("unknown_type"))
    for message in [
        {"type": "sit", "table": 5, "buy_in": 10_000},
        {"type": "sit", "table": "demo", "buy_in": "lots"},
        {"type": "sit", "table": "demo", "buy_in": []},
        {"type": "sit", "table": "demo", "seat": "one", "buy_in": 10_000},
        {"type": "sit", "table": "demo", "seat": 0, "buy_in": 10_000, "wait_for_big_blind": "?"},
        {"type": "act", "table": "demo", "action_id": 5, "action": "fold"},
        {"type": "act", "table": "demo", "action_id": "a", "action": 3},
        {"type": "act", "table": "demo", "action_id": "a", "action": "bet", "amount": "ten"},
        {"type": "act", "table": ["demo"], "action_id": "a", "action": "fold"},
        {"type": "act", "table": "demo", "action_id": "a", "action": "all_in"},
        {"type": "act", "table": "demo", "action_id": "", "action": "fold"},
        {"type": "act", "table": "demo", "action_id": "a", "action": "draw", "discard": "Kd"},
        {"type": "act", "table": "demo", "action_id": "a", "action": "draw", "discard": [5]},
        {
            "type": "act",
            "table": "demo",
            "action_id": "a",
            "action": "draw",
            "discard": ["Kd"] * 11,
        },
        {"type": "act", "table": "demo", "action_id": "a", "action": "draw", "discard": ["K" * 5]},
        {"type": "choose_game", "table": "demo", "game": 7},
        {"type": "choose_game", "table": "demo"},
        {"type": "spectate", "table": "demo", "delay_hands": "x"},
        {"type": "hello", "name": 5},
        {"type": "hello", "name": "x", "version": "one"},
        {"type": "sit_in", "table": "demo", "post": "perhaps"},
        {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2, "seats": "six"},
        {"type": "resume", "table": "demo", "last_seq": "zero"},
        {"type": "ping", "id": 5},
        {"type": "ping", "id": {}},
        {"type": "ping", "id": ["a"]},
        {"type": "leave", "table": None},
        {"type": "create_account", "name": True},
    ]:
        add("wrong types", message, *BAD_MESSAGE)
    for message in [
        {"type": "sit", "table": "demo", "seat": 0, "buy_in": -1},
        {"type": "sit", "table": "demo", "seat": -1, "buy_in": 10_000},
        {"type": "sit", "table": "demo", "seat": 0, "buy_in": -(10**15)},
        {"type": "act", "table": "demo", "action_id": "n", "action": "raise", "amount": -100},
        {"type": "resume", "table": "demo", "last_seq": -1},
        {"type": "resume", "table": "demo", "last_seq": -(10**30)},
        {"type": "spectate", "table": "demo", "delay_hands": -1},
        {"type": "spectate", "table": "demo", "delay_seconds": -0.5},
        {"type": "create_table", "name": "x", "small_blind": -1, "big_blind": 100},
        {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2, "ante": -5},
        {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2,
         "decision_seconds": -1},
        {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2,
         "time_bank_seconds": -1},
    ]:  # fmt: skip
        add("negative numbers", message, *BAD_MESSAGE)
    for message in [
        {"type": "act", "table": "demo", "action": "fold"},
        {"type": "act", "table": "demo", "action_id": "m"},
        {"type": "act", "action_id": "m", "action": "fold"},
        {"type": "sit", "table": "demo", "seat": 0},
        {"type": "sit", "buy_in": 10_000},
        {"type": "spectate"},
        {"type": "resume", "table": "demo"},
        {"type": "create_table", "small_blind": 1, "big_blind": 2},
        {"type": "create_account"},
        {"type": "leave"},
        {"type": "sit_out"},
        {"type": "sit_in"},
        {"type": "hello"},
        {"type": "hello", "version": 1},
    ]:
        add("missing fields", message, *BAD_MESSAGE)
    for message in [
        {"type": "ping", "extra": 1},
        {"type": "list_tables", "filter": "all"},
        {"type": "hello", "name": "x", "admin": True},
        {"type": "spectate", "table": "demo", "seat": 0},
        {"type": "resume", "table": "demo", "last_seq": 0, "seat": 2},
        {"type": "ping", "__proto__": {"admin": True}},
        {"type": "sit", "table": "demo", "buy_in": 10_000, "stack": 10**9},
        {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2, "rake": 0.5},
    ]:
        add("extra fields", message, *BAD_MESSAGE)
    for message, expect in [
        ({"type": "ping", "id": "i" * 65}, BAD_MESSAGE),
        ({"type": "ping", "id": None}, ("pong",)),
        ({"type": "ping", "id": ""}, ("pong",)),
        ({"type": "ping", "id": "i" * 64}, ("pong",)),
    ]:
        add("ids", message, *expect)
    for payload, expect in [
        (b'{"type": "ping"}', ("pong",)),
        ('{"type": "ping"}'.encode("utf-16"), ("pong",)),
        (b"\x00\xff\xfe\xfd", BAD_JSON),
        (b"\x89PNG\r\n\x1a\n", BAD_JSON),
        (bytes(range(256)), BAD_JSON),
        (b"", BAD_JSON),
        (b"[]", BAD_MESSAGE),
    ]:
        add("binary frames", payload, *expect)
    add("near the size limit", {"type": "ping", "pad": "x" * 16_000}, *BAD_MESSAGE)
    return p


def hostile_probes(who: str, role: str, r: int, lair: str) -> list[Probe]:
    """Round ``r`` of hostile messages from client ``who``, which is ``anonymous`` (no
    hello), a ``spectator`` (no hello), a ``guest`` (hello, no seat) or ``seated`` at the
    demo table. ``lair`` is a table nobody sits at."""
    hello, seated = role in ("guest", "seated"), role == "seated"
    p = malformed_probes(r)

    def once_hello(*codes: str) -> tuple[str, ...]:  # what a request needing hello gets
        return codes if hello else errors("hello_first")

    # Acting at the demo table: the seated are refused unless it is their turn (and then
    # only an illegal action is); the others have no seat there.
    act_demo = (
        (*errors("not_your_turn", "illegal", "bad_action", "not_seated"), "ack")
        if seated
        else once_hello(*errors("not_seated"))
    )

    # A sit: a second seat is already_seated (before anything else), then the buy-in is
    # checked (bad_buy_in), then the seat (seat_taken, or illegal if the table lacks it).
    def sitting(*codes: str) -> tuple[str, ...]:
        return errors("already_seated") if seated else once_hello(*errors(*codes))

    taken = sitting("seat_taken")
    message: Any
    expect: tuple[str, ...]
    extra: Any

    def add(category: str, message: Any, *expect: str) -> None:
        p.append(probe(category, message, *expect))

    def act(action: str, **extra: Any) -> JSON:
        return {"type": "act", "table": "demo", "action_id": f"{role}-{r}-{len(p)}",
                "action": action, **extra}  # fmt: skip

    for message, expect in [
        ({"type": "sit", "table": "demo", "seat": 0, "buy_in": 10**16}, BAD_MESSAGE),
        ({"type": "sit", "table": "demo", "seat": 10**18, "buy_in": 10_000}, BAD_MESSAGE),
        (act("raise", amount=10**100), BAD_MESSAGE),
        ({"type": "spectate", "table": "demo", "delay_hands": 10**9}, BAD_MESSAGE),
        ({"type": "spectate", "table": "demo", "delay_seconds": 1e308}, BAD_MESSAGE),
        ({"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 10**13},
         BAD_MESSAGE),
        ({"type": "hello", "name": "x", "version": 10**30}, errors("bad_version")),
        ('{"type": "resume", "table": "demo", "last_seq": ' + "9" * 5000 + "}", BAD_JSON),
        (act("raise", amount=10**15), act_demo),
        ({"type": "sit", "table": "demo", "seat": 0, "buy_in": 10**15}, sitting("bad_buy_in")),
        # A seq past what JSON carries exactly: refused (it was taken, up to 2**64).
        ({"type": "resume", "table": "demo", "last_seq": 10**100}, BAD_MESSAGE),
        ({"type": "resume", "table": "demo", "last_seq": 2**53}, BAD_MESSAGE),
        ({"type": "resume", "table": "demo", "last_seq": 2**53 - 1}, once_hello("resumed")),
    ]:  # fmt: skip
        add("huge numbers", message, *expect)
    for message, expect in [
        ({"type": "sit", "table": "demo", "seat": 0, "buy_in": 10_000.5}, BAD_MESSAGE),
        ({"type": "sit", "table": "demo", "seat": 1.5, "buy_in": 10_000}, BAD_MESSAGE),
        (act("raise", amount=250.5), BAD_MESSAGE),
        ({"type": "resume", "table": "demo", "last_seq": 0.5}, BAD_MESSAGE),
        ({"type": "spectate", "table": "demo", "delay_hands": 1.5}, BAD_MESSAGE),
        ('{"type": "spectate", "table": "demo", "delay_seconds": NaN}', BAD_MESSAGE),
        ('{"type": "spectate", "table": "demo", "delay_seconds": Infinity}', BAD_MESSAGE),
        ('{"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2, '
         '"decision_seconds": NaN}', BAD_MESSAGE),
        ('{"type": "act", "table": "demo", "action_id": "f", "action": "bet", '
         '"amount": -Infinity}', BAD_MESSAGE),
        # Validation is strict: a float is no int, even an integral one.
        ({"type": "sit", "table": "demo", "seat": 0, "buy_in": 10_000.0}, BAD_MESSAGE),
        (act("raise", amount=1e3), BAD_MESSAGE),
    ]:  # fmt: skip
        add("floats", message, *expect)
    for message in [  # nor is a string of digits, or a bool
        {"type": "sit", "table": "demo", "seat": "0", "buy_in": 10_000},
        {"type": "sit", "table": "demo", "seat": 0, "buy_in": "10000"},
        act("raise", amount="300"),
        {"type": "resume", "table": "demo", "last_seq": True},
        {"type": "sit_in", "table": "demo", "post": "yes"},
        {"type": "spectate", "table": "demo", "delay_seconds": "5"},
    ]:
        add("numbers as strings", message, *BAD_MESSAGE)
    for message, expect in [
        ({"type": "sit", "table": {"$ne": None}, "buy_in": 1}, BAD_MESSAGE),
        (act("fold") | {"action_id": {"a": [1, {"b": []}]}}, BAD_MESSAGE),
        ({"type": "hello", "name": {"first": "a"}}, BAD_MESSAGE),
        ({"type": "ping", "x": [[[[[[[[[[{}]]]]]]]]]]}, BAD_MESSAGE),
        ({"type": {"type": {"type": "ping"}}}, errors("unknown_type")),
        ({"type": "spectate", "table": "demo", "delay_hands": {"valueOf": 1}}, BAD_MESSAGE),
        ({"type": "create_table", "name": ["x"], "small_blind": 1, "big_blind": 2},
         BAD_MESSAGE),
        ({"type": "resume", "table": "demo", "last_seq": [1]}, BAD_MESSAGE),
        (act("fold") | {"action": ["fold", "call"]}, BAD_MESSAGE),
    ]:  # fmt: skip
        add("nested junk", message, *expect)
    for message, expect in [
        ({"type": "hello", "name": "ñandú"}, BAD_MESSAGE),
        ({"type": "hello", "name": "名前"}, BAD_MESSAGE),
        ({"type": "hello", "name": "a\u200bb"}, BAD_MESSAGE),
        ({"type": "hello", "name": "\u202eevil"}, BAD_MESSAGE),
        ({"type": "hello", "name": "nul\u0000"}, BAD_MESSAGE),
        ({"type": "create_account", "name": "Ωmega"}, BAD_MESSAGE),
        ({"type": "spectate", "table": "démo"}, BAD_MESSAGE),
        ({"type": "spectate", "table": "demo\u0000"}, BAD_MESSAGE),
        ({"type": "sit", "table": "ｄｅｍｏ", "buy_in": 10_000}, BAD_MESSAGE),
        (act("fold") | {"action_id": "🂡" * 10}, act_demo),
        # Any string may be an id, says the schema; pydantic refuses a lone surrogate.
        ({"type": "ping", "id": "\ud800"}, BAD_MESSAGE),
        ({"type": "ping", "id": "☠\u202e\u0000"}, ("pong",)),
        ({"type": "teleport", "id": "🂡"}, errors("unknown_type")),
        (b'{"type": "ping", "id": "\xff\xfe"}', BAD_JSON),
    ]:  # fmt: skip
        add("unicode", message, *expect)
    for seat in range(6):  # the protocol has no way to name another seat
        add("acting for another seat", act("fold") | {"seat": seat}, *BAD_MESSAGE)
    for message in [
        act("call") | {"player": "house-0"},
        {"type": "sit_out", "table": "demo", "seat": 0},
        {"type": "leave", "table": "demo", "seat": 1},
        {"type": "sit_in", "table": "demo", "seat": 2, "post": True},
    ]:
        add("acting for another seat", message, *BAD_MESSAGE)
    # A seated player's call may come on their turn and call an all-in: the probing seat
    # must not bust (a free seat changes every answer). The others get not_seated anyway.
    for action in ("fold", "check", "bet", "raise", *(() if seated else ("call",))):
        extra = {"amount": 300} if action in ("bet", "raise") else {}
        add("acting out of turn or without a seat", act(action, **extra), *act_demo)
    for kind in ("act", "sit_out", "sit_in", "leave", "resume", "spectate", "sit"):
        needs: dict[str, JSON] = {
            "act": {"action_id": "w", "action": "fold"}, "resume": {"last_seq": 0},
            "sit": {"buy_in": 10_000},
        }  # fmt: skip
        message = {"type": kind, "table": "nowhere", **needs.get(kind, {})}
        code = errors("no_table") if kind != "sit" else once_hello(*errors("no_table"))
        add("tables that do not exist", message, *code)
    for message, expect in [
        ({"type": "act", "table": lair, "action_id": f"l{r}", "action": "fold"},
         once_hello(*errors("not_seated"))),
        ({"type": "sit_out", "table": lair}, errors("not_seated")),
        ({"type": "sit_in", "table": lair, "post": True}, errors("not_seated")),
        ({"type": "leave", "table": lair}, ("left",)),
    ]:  # fmt: skip
        add("tables one is not at", message, *expect)
    for buy_in in (0, 1, 3_999, 20_001, 10**15):  # the tables take 4,000 to 20,000
        message = {"type": "sit", "table": lair, "seat": 0, "buy_in": buy_in}
        add("buy-ins out of range", message, *once_hello(*errors("bad_buy_in")))
        message = {"type": "sit", "table": "demo", "buy_in": buy_in}  # the waiting list
        add("buy-ins out of range", message, *sitting("bad_buy_in"))
    for seat in range(4):
        add("taken seats", {"type": "sit", "table": "demo", "seat": seat, "buy_in": 10_000}, *taken)
    for seat in HUMAN_SEATS:  # taken by the seated hostile players (a bad buy-in, in case)
        message = {"type": "sit", "table": "demo", "seat": seat, "buy_in": 1}
        add("taken seats", message, *sitting("bad_buy_in"))
    for seat in range(6, 10):  # seats the six-seat table does not have
        message = {"type": "sit", "table": "demo", "seat": seat, "buy_in": 10_000}
        add("seats that do not exist", message, *sitting("illegal"))
    for extra in [
        {"seats": 0}, {"seats": 1}, {"seats": 11}, {"seats": -1}, {"seats": 10**9},
        {"big_blind": -1}, {"decision_seconds": 0}, {"decision_seconds": 1e9},
        {"time_bank_seconds": 1e9}, {"name": ""}, {"name": "x" * 65}, {"ante_kind": "weird"},
        {"button_rule": "spiral"}, {"small_blind": 1.5}, {"game": 5}, {"game": ""},
        {"game": "x" * 41}, {"mix": "poker"}, {"every": 0}, {"games": ["nlhe"]}, {"cap": 0},
        {"bring_in": -5},
    ]:  # fmt: skip
        message = {"type": "create_table", "name": "x", "small_blind": 1, "big_blind": 2} | extra
        add("absurd tables", message, *BAD_MESSAGE)
    for extra in [
        {"small_blind": 200, "big_blind": 100}, {"ante": 5}, {"ante_kind": "per_player"},
        {"min_buy_in": 500, "max_buy_in": 100}, {"max_buy_in": 50},
        {"small_blind": 10**15, "big_blind": 10**12}, {"big_blind": 0}, {"game": "chess"},
        {"game": {"key": "x", "streets": "many"}}, {"game": "stud"}, {"cap": 3},
        {"mix": "horse"}, {"mix": "choice", "small_bet": 10}, {"bring_in": 10},
    ]:  # fmt: skip
        message = {"type": "create_table", "name": "x", "small_blind": 50, "big_blind": 100}
        add("absurd tables", message | extra, *once_hello(*errors("refused")))
    # Absurd but allowed: a table nobody will enjoy is still a table.
    message = {"type": "create_table", "name": "☠\u202e\u0000 💀", "small_blind": 0,
               "big_blind": 10**12, "seats": 10, "decision_seconds": 1e-9,
               "time_bank_seconds": 0}  # fmt: skip
    add("absurd tables", message, *once_hello("table_created"))
    for message, expect in [
        ({"type": "hello", "version": 2, "name": "x"}, errors("bad_version")),
        ({"type": "hello", "version": 0, "name": "x"}, errors("bad_version")),
        ({"type": "hello", "name": "x", "token": "t" * 20}, BAD_MESSAGE),
        ({"type": "hello", "token": "t" * 15}, BAD_MESSAGE),
        ({"type": "hello", "token": "t" * 129}, BAD_MESSAGE),
        ({"type": "hello", "token": "not-a-token-of-anyone"}, errors("bad_token")),
        ({"type": "hello", "name": "x" * 33}, BAD_MESSAGE),
        ({"type": "hello", "name": "x", "session": "s" * 20}, BAD_MESSAGE),
        ({"type": "hello", "session": "s" * 20}, errors("bad_session")),
        ({"type": "hello", "session": "s" * 15}, BAD_MESSAGE),
        # Nobody may be a house bot, a seated player, or a guest already here, by name.
        ({"type": "hello", "name": "house-0"}, errors("name_taken")),
        ({"type": "hello", "name": "hostile-4"}, errors("name_taken")),
        ({"type": "hello", "name": "hostile-guest"}, errors("name_taken")),
        ({"type": "create_account", "name": "house-0"}, errors("refused")),
        ({"type": "create_account", "name": f"account-{who}-{r}"}, ("account",)),
        ({"type": "create_account", "name": "bad name"}, BAD_MESSAGE),
        ({"type": "create_account", "name": ""}, BAD_MESSAGE),
    ]:  # fmt: skip
        add("hello and accounts", message, *expect)
    for message, expect in [
        ({"type": "spectate", "table": "demo", "delay_hands": 101}, BAD_MESSAGE),
        ({"type": "spectate", "table": "demo", "delay_seconds": 3601}, BAD_MESSAGE),
        ({"type": "spectate", "table": ""}, BAD_MESSAGE),
        ({"type": "spectate", "table": "x" * 41}, BAD_MESSAGE),
        ({"type": "spectate", "table": "../etc/passwd"}, BAD_MESSAGE),
        ({"type": "spectate", "table": "demo' OR '1'='1"}, BAD_MESSAGE),
        ({"type": "resume", "table": "nowhere", "last_seq": 5}, errors("no_table")),
        ({"type": "sit_in", "table": "demo"},
         errors("illegal", "not_seated") if seated else errors("not_seated")),
        ({"type": "sit_in", "table": "demo", "post": True},
         errors("illegal", "not_seated") if seated else errors("not_seated")),
    ]:  # fmt: skip
        add("spectating and seat state", message, *expect)
    if not seated:
        add("spectating and seat state", {"type": "sit_out", "table": "demo"}, "error:not_seated")
    add("legitimate", {"type": "ping", "id": f"c{r}"}, "pong")
    add("legitimate", {"type": "list_tables"}, "tables")
    return p


def turn_probes(name: str, request: JSON, n: int) -> tuple[list[Probe], JSON]:
    """Illegal actions when it is one's turn, then a legal one: check, call a big blind at
    most, else fold. The probing player must not bust: a free seat changes every answer."""
    menu, table = request["menu"], request["table"]
    turn = errors("illegal", "bad_action", "not_your_turn")

    def act(action: str, **extra: Any) -> JSON:
        return {"type": "act", "table": table, "action_id": f"{name}-{n}-{action}-{extra}",
                "action": action, **extra}  # fmt: skip

    p = [
        probe("raise with no amount", act("raise"), *turn),
        probe("bet with no amount", act("bet"), *turn),
        probe("below the minimum", act("bet", amount=max(1, menu["min_raise_to"] - 1)), *turn),
        probe("below the minimum", act("raise", amount=0), *turn),
        probe("above the stack", act("raise", amount=menu["max_raise_to"] + 1), *turn),
        probe("above the stack", act("raise", amount=10**15), *turn),
        probe("an amount where none goes", act("call", amount=100), *turn),
        probe("an amount where none goes", act("fold", amount=0), *turn),
        probe("acting out of turn or without a seat", act("fold") | {"table": "nowhere"},
              *errors("no_table")),
    ]  # fmt: skip
    if menu["can_check"]:
        p.append(probe("calling or folding when checking is free", act("call"), *turn))
        p.append(probe("calling or folding when checking is free", act("fold"), *turn))
        legal = act("check")
    else:
        p.append(probe("checking when facing a bet", act("check"), *turn))
        legal = act("call" if menu["call"] <= 100 else "fold")
    return p, legal


@dataclass
class Tally:
    sent: Counter[str] = field(default_factory=Counter)
    replies: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    acks: dict[str, list[JSON]] = field(default_factory=dict)
    """By client: the actions the table acknowledged (and so applied), in order."""

    async def check(self, client: Client, p: Probe) -> JSON:
        """Send one probe; its reply must be one of those expected, and carry the probe's
        ``id`` as ``re`` exactly when the server could read it."""
        try:
            reply = await client.answer(p.payload)
        except TimeoutError:
            raise AssertionError(f"{client.name}: no reply to {p.payload[:80]!r}") from None
        outcome = f"error:{reply['code']}" if reply["type"] == "error" else reply["type"]
        self.sent[p.category] += 1
        self.replies[outcome] += 1
        if outcome not in p.expect or reply.get("re") != readable_id(p.payload):
            self.wrong.append(f"{client.name} {p.category}: {p.payload[:80]!r} -> {reply}")
        if outcome == "ack" and not reply.get("duplicate"):
            self.acks.setdefault(client.name, []).append(json.loads(p.payload))
            client.pending = None  # whatever request was waiting, this answered it
        return reply


def readable_id(payload: str | bytes) -> str | None:
    """The ``id`` a reply must carry back as ``re`` (docs/protocol.md, Errors): that of a
    JSON object whose ``id`` is a string of at most 64 characters."""
    try:
        message = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    ident = message.get("id") if isinstance(message, dict) else None
    return ident if isinstance(ident, str) and len(ident) <= 64 else None


async def run_probes(client: Client, role: str, rounds: int, lair: str, tally: Tally) -> None:
    """Every hostile message, one at a time, each answered before the next; when the
    client's turn comes, illegal actions, a legal one, and the legal one's id again
    with an all-in raise."""
    turns = 0
    for r in range(rounds):
        for p in hostile_probes(client.name, role, r, lair):
            await tally.check(client, p)
            while client.pending is not None:
                request, client.pending = client.pending, None
                turns += 1
                illegal, legal = turn_probes(client.name, request, turns)
                for q in illegal:
                    await tally.check(client, q)
                reply = await tally.check(
                    client, probe("legitimate", legal, "ack", "error:not_your_turn")
                )
                again = legal | {"action": "raise", "amount": request["menu"]["max_raise_to"]}
                replayed = await tally.check(
                    client, probe("an action id again, another action", again, *turn_again(reply))
                )
                if reply["type"] == "ack":
                    assert (
                        replayed["duplicate"] is True
                        and replayed["action_id"] == reply["action_id"]
                    )


def turn_again(first: JSON) -> tuple[str, ...]:
    """What repeating an action id with another action gets: the first answer again, if
    the first was acted on; otherwise it is a new action."""
    if first["type"] == "ack":
        return ("ack",)
    return errors("not_your_turn", "illegal")


async def replay_stored_hands(store: Store) -> dict[int, list[int]]:
    """Replay every stored hand from its history (its final stacks must match); the hand
    numbers stored for each table. Each hand's nets must add up to nothing."""
    async with store.engine.connect() as conn:
        query = select(Hand.id, Hand.table_id, Hand.hand_number).order_by(Hand.id)
        hands = (await conn.execute(query)).all()
        nets: Counter[int] = Counter()
        for hand_id, net in (await conn.execute(select(HandPlayer.hand_id, HandPlayer.net))).all():
            nets[hand_id] += net
    numbers: dict[int, list[int]] = {}
    for hand_id, table_id, number in hands:
        checked = history.check((await store.hand_info(hand_id)).history)
        assert checked.status == "match", (hand_id, checked.message)
        assert nets[hand_id] == 0, hand_id
        numbers.setdefault(table_id, []).append(number)
    return numbers


async def ledger(store: Store) -> Counter[tuple[int, str]]:
    """The ledger summed by (player id, reason)."""
    sums: Counter[tuple[int, str]] = Counter()
    async with store.engine.connect() as conn:
        query = select(LedgerEntry.player_id, LedgerEntry.reason, LedgerEntry.amount)
        for player_id, reason, amount in (await conn.execute(query)).all():
            sums[player_id, reason] += amount
    return sums


def stood_up(seat: int) -> Callable[[Published], bool]:
    return lambda p: isinstance(p.event, PlayerStood) and p.event.seat == seat


def chips_at(runner: TableRunner) -> int:
    """Every chip at the table: stacks, and what is in the pot of a hand being played."""
    table = runner.core.table
    chips = sum(table.stack(s) for s in table.occupied())
    if table.hand_in_progress and table.hand is not None:
        chips += sum(table.hand.totals)
    return chips


def acted_as_acknowledged(published: list[Published], seat: int, acks: list[JSON]) -> None:
    """The actions ``seat`` took are exactly those the table acknowledged, in order."""
    done = [p.event for p in published if isinstance(p.event, ActionTaken) and p.event.seat == seat]
    assert len(done) == len(acks)
    for event, action in zip(done, acks, strict=True):
        if action["action"] in ("bet", "raise"):
            assert event.kind in ("bet", "raise")
            assert event.street_total == action["amount"]
        else:
            assert event.kind == action["action"]


def chips_add_up(room: Room, money: Counter[tuple[int, str]], ids: dict[int, int]) -> None:
    """Every chip bought in is at the table or was taken away; the ledger agrees."""
    # No chip appeared or vanished at the table...
    sat = sum(p.event.stack for p in room.published if isinstance(p.event, PlayerSat))
    stood = sum(p.event.stack for p in room.published if isinstance(p.event, PlayerStood))
    assert sat - stood == chips_at(room.runner)
    # ...and the ledger agrees (docs/protocol.md, sit): each player's buy-in, what the hands
    # moved and the chips they left with add up to nothing; the hands only moved chips
    # between players; and no hostile sit bought anyone in.
    for seat, player_id in ids.items():
        left_with = sum(
            p.event.stack
            for p in room.published
            if isinstance(p.event, PlayerStood) and p.event.seat == seat
        )
        assert money[player_id, "buy_in"] == 20_000
        assert money[player_id, "cash_out"] == -left_with
        assert money[player_id, "buy_in"] + money[player_id, "hand"] == left_with
    assert sum(amount for (_, reason), amount in money.items() if reason == "hand") == 0
    assert {reason for _, reason in money} <= {"buy_in", "hand", "cash_out"}
    buyers = {player_id for (player_id, reason) in money if reason == "buy_in"}
    house = {player.id for player, _, _ in room.runner.core.house.bots.values()}
    assert buyers == set(ids.values()) | house
    for player_id in house:  # house bots too: bought in (again when bust), cashed out
        assert sum(amount for (p, _), amount in money.items() if p == player_id) == 0


async def test_a_thousand_hostile_messages_leave_the_table_playing_and_every_chip_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Validation is on trial here, not rate limits: those get their own tests.
    limits: dict[str, Any] = {
        "messages_per_second": 1e6, "burst": 10**6, "errors_before_close": 10**9,
        "accounts_per_address": 10**6,
    }  # fmt: skip
    tally = Tally()
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hostile.db'}") as store:
        async with (
            serving(store, monkeypatch, **limits) as room,
            clients(room.url, 5) as (anonymous, spectator, guest, alice, bob),
        ):
            anonymous.name, spectator.name = "anonymous", "spectator"
            await spectator.send(type="spectate", table="demo")
            await spectator.until("snapshot")
            await guest.hello("hostile-guest")
            await guest.send(
                type="create_table", name="Hostile lair", small_blind=50, big_blind=100, seats=2
            )
            lair = (await guest.until("table_created"))["table"]["id"]
            ids = {}
            for client, seat in ((alice, 4), (bob, 5)):
                welcome = await client.hello(f"hostile-{seat}")
                ids[seat] = welcome["player"]["id"]
                await client.sit(seat, buy_in=20_000)
            hands_before = room.hands_ended()
            await asyncio.gather(
                run_probes(anonymous, "anonymous", 2, lair, tally),
                run_probes(spectator, "spectator", 2, lair, tally),
                run_probes(guest, "guest", 2, lair, tally),
                run_probes(alice, "seated", 2, lair, tally),
                run_probes(bob, "seated", 2, lair, tally),
            )
            probed = len(room.published)
            # From here on the seated players just play (a turn unanswered would hold the
            # table up for the whole clock).
            stop = asyncio.Event()
            playing = [asyncio.create_task(play_calling(c, stop)) for c in (alice, bob)]
            async with clients(room.url, 1) as (huge,):  # over max_size: that connection goes
                await huge.ws.send(json.dumps({"type": "ping", "pad": "x" * 17_000}))
                assert await huge.closed() == MESSAGE_TOO_BIG
                tally.sent["oversized (closes the connection)"] += 1
            # Still playing, and the hostile clients are still connected and answered.
            await room.more_hands(3)
            assert room.hands_ended() >= hands_before + 3
            for client in (anonymous, spectator, guest):
                await tally.check(client, probe("legitimate", '{"type": "ping"}', "pong"))
            assert alice.ws.close_code is None and bob.ws.close_code is None
            # Every action of a hostile player's seat is one the table acknowledged.
            for client, seat in ((alice, 4), (bob, 5)):
                acted_as_acknowledged(room.published[:probed], seat, tally.acks[client.name])
            # The seated players leave (at the end of a hand they are in).
            for client in (alice, bob):
                await client.send(type="leave", table="demo")
            for seat in HUMAN_SEATS:
                await room.until_published(stood_up(seat), timeout=20)
            stop.set()
            await asyncio.gather(*playing)
            db_ids = dict(room.server.hosting.db_tables)
        # The server has stopped: every hand that ended is stored, and nothing else.
        runner = room.runner
        stored = await replay_stored_hands(store)
        assert stored[db_ids["demo"]] == list(range(1, runner.core.hands_played + 1))
        assert stored.get(db_ids[lair], []) == []
        money = await ledger(store)
    seat_changes = [
        p for p in room.published
        if isinstance(p.event, PlayerStood | PlayerSatOut) and p.event.seat in HUMAN_SEATS
    ]  # fmt: skip
    assert not tally.wrong, "\n".join([*tally.wrong[:10], *map(repr, seat_changes)])
    assert sum(tally.sent.values()) >= 1_000 and len(tally.sent) >= 25, tally.sent
    chips_add_up(room, money, ids)


# -- 2. abuse closes the abuser's connection and nothing else -----------------------------------


@contextlib.asynccontextmanager
async def bystanders(room: Room, player: Client, watcher: Client, name: str) -> AsyncIterator[None]:
    """A spectator, and ``name`` playing seat 5, beside whatever goes wrong in the block.
    After it: three more hands are played, in which the player still acts, and the
    spectator is still answered."""
    await watcher.send(type="spectate", table="demo")
    await watcher.until("snapshot")
    await player.hello(name)
    await player.sit(5)
    stop = asyncio.Event()
    playing = asyncio.create_task(play_calling(player, stop))
    yield
    since = len(room.published)
    await room.more_hands(3)
    assert (await watcher.answer(json.dumps({"type": "ping"})))["type"] == "pong"
    stop.set()
    await playing
    acted = {p.event.seat for p in room.published[since:] if isinstance(p.event, ActionTaken)}
    assert 5 in acted, "the steady player stopped playing"


async def test_a_flood_closes_only_the_flooding_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        room_at(tmp_path, monkeypatch) as room,
        clients(room.url, 3) as (flooder, player, watcher),
    ):
        async with bystanders(room, player, watcher, "steady"):
            # 2,000 a second: a burst of 60 answered, then 100 refused, and the connection is
            # closed. (Sent all at once, a flood fills the server's receive queue, which nobody
            # reads once the handler has stopped: the closing handshake then waits out
            # websockets' close_timeout of 10 s, and the replies still queued are lost.)
            with contextlib.suppress(ConnectionClosed):
                for i in range(400):
                    await flooder.send(type="ping", id=str(i))
                    if i % 10 == 9:
                        await asyncio.sleep(0.005)
            assert await flooder.closed(timeout=5) == POLICY_VIOLATION
            assert flooder.ws.close_reason == "too many bad messages"
            replies = Counter(m.get("code", m["type"]) for m in flooder.messages)
            assert replies.keys() == {"pong", "rate_limited"}, replies
            assert replies["pong"] >= 60 and replies["rate_limited"] >= 90, replies
            assert all("re" not in m for m in flooder.messages if m["type"] == "error")
        assert (
            room.runner.core.seats.occupants[5].session is not None and player.ws.close_code is None
        )


async def hand_rate(room: Room, seconds: float) -> float:
    """Hands the table ends a second, over ``seconds``."""
    first, started = room.hands_ended(), time.monotonic()
    await asyncio.sleep(seconds)
    return (room.hands_ended() - first) / (time.monotonic() - started)


@pytest.mark.alone  # its two hand rates, before and during the flood, compared
async def test_a_flood_of_acts_counts_against_the_rate_limit_and_the_table_keeps_its_pace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seated player resends an action id they have used, from a second connection of
    theirs in a process of its own, as fast as it goes for three seconds (each would be
    answered as a duplicate, not an error). Every message counts against the limit: the
    flood is refused and closed with 1008, while the player plays on and the table keeps
    at least 90 % of its hand rate (before the limit held for acts: 8.88 -> 0.64 hands/s)."""
    async with (
        room_at(tmp_path, monkeypatch, steady=True, house_think_seconds=0.005) as room,
        clients(room.url, 1) as (player,),
    ):
        welcome = await player.hello("flooder")
        await player.sit(5)
        stop = asyncio.Event()
        playing = asyncio.create_task(play_calling(player, stop))
        await room.until_published(
            lambda p: isinstance(p.event, ActionTaken) and p.event.seat == 5, timeout=20
        )
        before = await hand_rate(room, 3.0)
        act = {"type": "act", "table": "demo", "action_id": "flooder-1", "action": "fold"}
        flood = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.server.flooder", room.url, welcome["session"],
            json.dumps(act), "3", stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
        during = await hand_rate(room, 3.0)
        out, _ = await flood.communicate()
        assert player.ws.close_code is None  # the player's own connection plays on
        stop.set()
        await playing
    result = json.loads(out)
    assert result["close_code"] == POLICY_VIOLATION, result
    replies = result["replies"]
    assert replies.get("rate_limited", 0) >= 90, result
    # The burst (60), what the rate refills meanwhile, and answers to the server's own
    # requests (4 at most): every other act was refused.
    assert replies.get("ack", 0) <= 70, result
    assert during >= 0.9 * before, (before, during, result["sent"])


async def test_too_many_bad_messages_close_only_that_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        room_at(tmp_path, monkeypatch, messages_per_second=10_000.0, burst=10_000) as room,
        clients(room.url, 3) as (bad, also_bad, watcher),
    ):
        await watcher.send(type="spectate", table="demo")
        await watcher.until("snapshot")
        for _ in range(99):
            assert (await bad.answer("{oops"))["code"] == "bad_json"
        for _ in range(50):
            assert (await also_bad.answer("[]"))["code"] == "bad_message"
        # 99 errors in, good messages are still answered (they do not pay errors back).
        assert (await bad.answer(json.dumps({"type": "ping"})))["type"] == "pong"
        await bad.ws.send("{oops")  # the hundredth
        assert await bad.closed() == POLICY_VIOLATION
        assert bad.ws.close_reason == "too many bad messages"
        assert (await also_bad.answer(json.dumps({"type": "ping"})))["type"] == "pong"
        assert (await watcher.answer(json.dumps({"type": "ping"})))["type"] == "pong"
        await room.more_hands(3)


async def test_an_oversized_message_closes_only_that_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = 16 * 1024
    async with (
        room_at(tmp_path, monkeypatch) as room,
        clients(room.url, 3) as (big, big_binary, watcher),
    ):
        await watcher.send(type="spectate", table="demo")
        await watcher.until("snapshot")
        padding = "x" * (limit - len(json.dumps({"type": "ping", "pad": ""})))
        at_limit = json.dumps({"type": "ping", "pad": padding})
        assert len(at_limit) == limit
        assert (await big.answer(at_limit))["code"] == "bad_message"  # read, and refused
        await big.ws.send(at_limit + " ")
        await big_binary.ws.send(at_limit.encode() + b" ")
        # docs/protocol.md, Limits: closed with 1009 (message too big), not 1008.
        assert await big.closed() == MESSAGE_TOO_BIG
        assert await big_binary.closed() == MESSAGE_TOO_BIG
        assert (await watcher.answer(json.dumps({"type": "ping"})))["type"] == "pong"
        await room.more_hands(3)


async def test_a_client_that_does_not_read_is_closed_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        room_at(tmp_path, monkeypatch, outbox_bytes=4096) as room,
        clients(room.url, 2) as (player, watcher),
        bystanders(room, player, watcher, "reader"),
    ):
        # A spectator that never reads, over small socket buffers (so that the server's
        # buffer, not the kernel's, is what fills up).
        before = set(room.server.sessions)
        address = urlsplit(room.url)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.connect((address.hostname, address.port))
        sock.setblocking(False)
        slow = await connect(room.url, sock=sock, max_queue=1)
        (session,) = room.server.sessions - before
        server_socket = session.websocket.transport.get_extra_info("socket")
        server_socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1024)
        await slow.send(json.dumps({"type": "spectate", "table": "demo"}))
        async with asyncio.timeout(10):
            while not session.closing:
                await asyncio.sleep(0.01)
        with contextlib.suppress(ConnectionClosed):
            async for _ in slow:  # now read what got through, then the close
                pass
        assert (slow.close_code, slow.close_reason) == (
            POLICY_VIOLATION,
            "too slow: messages are piling up",
        )


class AllIn:
    """A house bot that goes all in whenever it may, and otherwise checks or calls."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        if menu.can_raise:
            return BetOrRaiseTo(menu.seat, menu.max_raise_to)
        return CallingStation().act(view, menu)


async def test_the_lobby_answers_while_a_table_stores_a_bust(tmp_path: Path) -> None:
    """A regression test: list_tables builds each summary outside the table's task, and
    while a hand in which a player went bust was being stored (the engine had freed the
    seat, the runner not yet) it answered ``refused: seat N is empty``."""
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'lobby.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0, house_think_seconds=0.0))
        async with server.running() as ws_server:
            runner = await server.hosting.create_table(
                "Bust", TableConfig(small_blind=50, big_blind=100, seats=2)
            )
            while runner.store_hand is None:  # the table's task sets it as it starts
                await asyncio.sleep(0)
            store_hand, storing, listed = runner.store_hand, asyncio.Event(), asyncio.Event()

            async def slow_store(*args: Any) -> None:  # the lobby asks while a bust is stored
                if any(
                    seat not in runner.core.table.occupied() for seat in runner.core.seats.occupants
                ):
                    storing.set()
                    await listed.wait()
                await store_hand(*args)

            runner.store_hand = slow_store
            bots = {0: ("shover", AllIn()), 1: ("caller", CallingStation())}
            await server.hosting.add_house_bots(runner, bots, stack=10_000)
            port = next(iter(ws_server.sockets)).getsockname()[1]
            async with clients(f"ws://127.0.0.1:{port}/ws", 1) as (lobby,):
                await asyncio.wait_for(storing.wait(), 10)
                reply = await lobby.answer(json.dumps({"type": "list_tables"}))
                listed.set()
    assert reply["type"] == "tables", reply


# -- 3. nobody sees a hole card they may not see ------------------------------------------------


def seat_from(room: Room, seat: int, nth: int) -> Callable[[int], int | None]:
    """The viewer's seat by hand, for the ``nth`` player (from 0) to take ``seat``: only
    hands dealt after they sat are theirs."""
    sat = [p for p in room.published if isinstance(p.event, PlayerSat) and p.event.seat == seat]
    first_hand = sat[nth].hand_number + 1
    return lambda hand: seat if hand >= first_hand else None


async def test_a_spectator_and_a_player_never_see_a_hole_card_that_was_not_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        room_at(
            tmp_path, monkeypatch, messages_per_second=1000.0, burst=1000, house_think_seconds=0.02
        ) as room,
        clients(room.url, 3) as (spy, player, late),
    ):
        await late.send(type="spectate", table="demo", delay_hands=1)
        await player.hello("spy-player")
        await player.sit(5)
        # The spy cannot be the player, or a house bot, whose cards it would then get.
        for name in ("spy-player", "house-1"):
            hello = json.dumps({"type": "hello", "name": name})
            assert (await spy.answer(hello))["code"] == "name_taken"
        assert (await spy.answer(json.dumps({"type": "resume", "table": "demo", "last_seq": 0})))[
            "code"
        ] == "hello_first"
        await spy.hello("spy-spectator")
        await spy.send(type="spectate", table="demo")
        await spy.until("snapshot")
        stop = asyncio.Event()
        playing = asyncio.create_task(play_calling(player, stop))
        start = room.hands_ended()
        async with asyncio.timeout(45):
            i = 0
            while room.hands_ended() < start + 30:
                # Both keep asking for snapshots and resumptions, mid-hand and between hands.
                i += 1
                await asyncio.sleep(0.02)
                last = max(0, room.runner.core.fanout.seq - 30)
                for client in (spy, player):
                    await client.send(type="spectate", table="demo", id=f"s{i}")
                    await client.send(type="resume", table="demo", last_seq=last, id=f"r{i}")
        stop.set()
        await playing
        async with asyncio.timeout(10):  # what is on its way arrives: the last replies
            while not all(any(m.get("re") == f"r{i}" for m in c.messages) for c in (spy, player)):
                await asyncio.sleep(0.01)
    errors = Counter(m["code"] for m in spy.messages + player.messages if m["type"] == "error")
    assert errors == Counter({"name_taken": 2, "hello_first": 1})
    truth = Truth.of(room.published)
    assert leaks(spy.messages, truth, lambda hand: None) == []
    assert leaks(late.messages, truth, lambda hand: None) == []  # a hand behind, as safe
    assert leaks(player.messages, truth, seat_from(room, 5, 0)) == []
    # The check had something to find: cards hidden to the end, shown cards, own cards.
    kinds = Counter(m["type"] for m in spy.messages + player.messages)
    assert kinds["snapshot"] >= 40 and kinds["resumed"] >= 40 and kinds["event"] >= 1000
    assert sum(len(truth.hidden(hand, math.inf, None)) for hand in truth.holes) >= 40
    events = [m["event"] for m in spy.messages if m["type"] == "event"]
    assert any(e["type"] == "cards_shown" for e in events)
    assert all(e["cards"] is None for e in events if e["type"] == "hole_cards_dealt")
    mine = [
        m["event"]
        for m in player.messages
        if m["type"] == "event" and m["event"]["type"] == "hole_cards_dealt"
    ]
    assert all((e["cards"] is not None) == (e["seat"] == 5) for e in mine)
    assert sum(e["cards"] is not None for e in mine) >= 20
    # The seed shows every card of a hand, mucked ones too: it is never sent to anyone
    # (docs/fairness.md); it stays stored for `pokerroom verify`.
    assert not any(m["type"] == "deck_revealed" for m in spy.messages + player.messages)
    assert sum(m["type"] == "event" for m in late.messages) >= 500


async def test_taking_a_seat_and_resuming_shows_no_hole_card_of_its_last_occupant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (  # slow bots: the folder's hands are still kept when the spy resumes
        room_at(tmp_path, monkeypatch, house_think_seconds=0.05) as room,
        clients(room.url, 2) as (folder, spy),
    ):
        await folder.hello("folder")
        await folder.sit(5)
        stop = asyncio.Event()
        playing = asyncio.create_task(play_calling(folder, stop, fold=True))
        await room.until_published(
            lambda p: (
                isinstance(p.event, ActionTaken) and p.event.seat == 5 and p.event.kind == "fold"
            ),
            timeout=20,
        )  # a hand whose cards the folder never showed
        await folder.send(type="leave", table="demo")  # playing on until the hand ends
        await room.until_published(stood_up(5), timeout=20)
        stop.set()
        await playing
        await spy.hello("next-occupant")
        await spy.sit(5)
        await spy.send(type="resume", table="demo", last_seq=0)
        await spy.until("resumed")
    truth = Truth.of(room.published)
    assert leaks(spy.messages, truth, seat_from(room, 5, 1)) == []


# -- 4. spectators behind by hands or seconds ------------------------------------------------


def hand_of(message: JSON) -> int | None:
    """The hand a table message belongs to, for delays (docs/protocol.md, Delays)."""
    if message["type"] in ("event", "deck_commitment"):
        return int(message["hand_number"])
    if message["type"] == "snapshot":
        return int(message["view"]["hand_number"])
    return None


@pytest.mark.parametrize("k", [1, 2])
async def test_a_spectator_k_hands_behind_sees_each_hand_once_hand_n_plus_k_minus_1_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, k: int
) -> None:
    async with room_at(tmp_path, monkeypatch) as room, clients(room.url, 2) as (late, live):
        await live.send(type="spectate", table="demo")
        await live.until("snapshot")
        await room.more_hands(1)
        await late.send(type="spectate", table="demo", delay_hands=k, id="late")
        await room.more_hands(8)
        last = max(p.hand_number for p in room.published if isinstance(p.event, HandEnded))
        await late.until(  # hand last - k + 1, the latest it may see, all of it
            "event", where=lambda m: m["event"]["type"] == "hand_ended"
            and m["hand_number"] == last - k + 1,
        )  # fmt: skip
    ended_at = {p.hand_number: p.at for p in room.published if isinstance(p.event, HandEnded)}
    held = [(t, m, hand_of(m)) for t, m in late.log if hand_of(m) is not None]
    assert held[0][1]["type"] == "snapshot"  # late, like the rest
    for t, m, hand in held:  # hand n waits for the end of hand n + k - 1...
        assert hand is not None and t >= ended_at.get(hand + k - 1, math.inf), m
    ends = [
        (t, m["hand_number"]) for t, m, _ in held if m.get("event", {}).get("type") == "hand_ended"
    ]
    assert len(ends) >= 5
    for t, hand in ends:  # ...and then comes at once
        assert t - ended_at[hand + k - 1] < 0.5
    # Nothing is lost or reordered on the way: the live spectator's events, later.
    seqs = [m["seq"] for _, m, _ in held if m["type"] == "event"]
    assert seqs == list(range(seqs[0], seqs[-1] + 1))
    live_events = {m["seq"]: m for m in live.messages if m["type"] == "event"}
    assert all(live_events[m["seq"]] == m for _, m, _ in held if m["type"] == "event")


async def test_a_spectator_seconds_behind_gets_each_message_no_sooner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    delay = 0.4
    async with room_at(tmp_path, monkeypatch) as room, clients(room.url, 1) as (late,):
        asked = time.monotonic()
        await late.send(type="spectate", table="demo", delay_seconds=delay)
        await room.more_hands(5)
        last = room.published[-1].seq
        await late.until("event", where=lambda m: m["seq"] >= last)  # delay seconds later
    published_at = {p.seq: p.at for p in room.published}
    snapshot_at = next(t for t, m in late.log if m["type"] == "snapshot")
    assert delay <= snapshot_at - asked < delay + 0.5
    events = [(t, m) for t, m in late.log if m["type"] == "event"]
    assert len(events) >= 50
    for t, m in events:
        assert delay <= t - published_at[m["seq"]] < delay + 0.5, m
    seqs = [m["seq"] for _, m in events]
    assert seqs == list(range(seqs[0], seqs[-1] + 1))


async def test_a_delayed_spectator_costs_a_bounded_number_of_timers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A regression test: once, every delayed event started a chain of 10 ms timers that
    never stopped (50,000 callbacks in half a second after 10 hands, more after the
    spectator had gone)."""
    calls = Counter[str]()
    original = Session._release

    def counting(self: Session, table_id: str, **options: Any) -> None:
        calls["release"] += 1
        original(self, table_id, **options)

    monkeypatch.setattr(Session, "_release", counting)
    async with room_at(tmp_path, monkeypatch) as room:
        async with clients(room.url, 1) as (late,):
            await late.send(type="spectate", table="demo", delay_hands=2, delay_seconds=0.05)
            await room.more_hands(10)
            before, published = calls["release"], len(room.published)
            await asyncio.sleep(0.5)
            watching = calls["release"] - before
            events = len(room.published) - published
        await asyncio.sleep(0.2)
        before = calls["release"]
        await room.more_hands(3)
        gone = calls["release"] - before
    # A release for each message and each end of hand, and a timer for each message
    # held by time, is all it takes.
    assert watching <= 3 * events + 50, (watching, events)
    assert gone == 0


# -- 5. one connection's failure stays with that connection -------------------------------------


async def test_an_exception_answering_one_client_costs_that_client_one_reply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        room_at(tmp_path, monkeypatch) as room,
        clients(room.url, 3) as (victim, player, watcher),
    ):
        store = room.server.store
        guest = store.guest

        async def failing_guest(name: str) -> int:
            if name == "victim":
                raise RuntimeError("a bug that strikes one client")
            return await guest(name)

        monkeypatch.setattr(store, "guest", failing_guest)
        async with bystanders(room, player, watcher, "bystander"):
            hello = json.dumps({"type": "hello", "name": "victim", "id": "h"})
            assert await victim.answer(hello) == {
                "type": "error",
                "code": "internal",
                "message": "the server failed to answer this message",
                "re": "h",
            }
            assert (await victim.answer(json.dumps({"type": "ping"})))["type"] == "pong"
            hello = json.dumps({"type": "hello", "name": "victim-2"})
            assert (await victim.answer(hello))["type"] == "welcome"
    logged = [r.message for r in caplog.records if r.levelname == "ERROR"]
    assert logged == ["error answering a message"]


@pytest.mark.parametrize("where", ["command", "fan-out"])
async def test_an_exception_serving_one_client_never_stops_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    def is_victim(session: Any) -> bool:
        player = getattr(session, "player", None)
        return player is not None and player.name == "victim"

    if where == "command":
        spectate = Views.spectate

        def failing_spectate(self: Views, m: Any, caller: Caller) -> JSON:
            if is_victim(caller.session):
                raise RuntimeError("a bug that strikes one client")
            return spectate(self, m, caller)

        monkeypatch.setattr(Views, "spectate", failing_spectate)
    else:
        send_table = Session.send_table

        def failing_send_table(
            self: Session, table_id: str, hand_number: int, texts: Sequence[str]
        ) -> None:
            if is_victim(self):
                raise RuntimeError("a bug that strikes one client")
            send_table(self, table_id, hand_number, texts)

        monkeypatch.setattr(Session, "send_table", failing_send_table)
    # A request to a table whose task has died would wait for ever (and so would the
    # connection handlers, and the server's shutdown): give up after a while instead.
    submit = TableRunner.submit

    async def impatient(self: TableRunner, message: Any, caller: Caller) -> JSON:
        return await asyncio.wait_for(submit(self, message, caller), 2.0)

    monkeypatch.setattr(TableRunner, "submit", impatient)
    outcome: list[str] = []
    with contextlib.suppress(Exception):  # the server's death shows as what it left undone
        async with (
            asyncio.timeout(10),
            room_at(tmp_path, monkeypatch) as room,
            clients(room.url, 2) as (victim, watcher),
        ):
            await watcher.send(type="spectate", table="demo")
            await watcher.until("snapshot")
            await victim.hello("victim")
            await victim.send(type="spectate", table="demo")
            reply = await victim.until("error" if where == "command" else "snapshot")
            outcome.append(str(reply.get("code", reply["type"])))
            await room.more_hands(3, timeout=3)
            assert (await watcher.answer(json.dumps({"type": "ping"})))["type"] == "pong"
            outcome.append("the table played on")
    assert outcome == ["internal" if where == "command" else "snapshot", "the table played on"]


async def test_deeply_nested_json_is_refused_like_any_bad_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with room_at(tmp_path, monkeypatch) as room, clients(room.url, 1) as (client,):
        reply = await client.answer("[" * 5_000 + "]" * 5_000)
    assert reply["code"] in ("bad_json", "bad_message")
    assert [r for r in caplog.records if r.levelname == "ERROR"] == []
