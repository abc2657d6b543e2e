"""The ``hands`` and ``hand`` messages end to end: a real server on 127.0.0.1, real
websockets clients playing against house bots, then listing and replaying their hands."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect

from engine import HandStarted, TableConfig, history
from engine import game as engine_game
from server.app import PokerServer, ServerSettings
from server.bots import CallingStation, RandomBot, TightAggressive
from server.export.seat import seen_from
from server.store import Store, hand_rows
from server.store.models import Hand as HandRecord
from server.store.models import HandPlayer
from tests.server.conftest import Demo, demo_server, play_hands
from tests.server.test_export_pokerstars import NAMES, dead_button_hand
from tests.server.test_protocol_doc import check_server_message, example_server

SEAT = 5  # the demo table's house bots hold seats 0 to 3
HAND_EVENTS = frozenset(
    {"hand_started", "forced_bet_posted", "hole_cards_dealt", "action_taken", "board_dealt",
     "uncalled_bet_returned", "cards_shown", "cards_mucked", "pot_awarded", "hand_ended"}
)  # fmt: skip
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with demo_server(tmp_path / "server.db", decision_seconds=5.0) as demo:
        yield demo


async def send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message))


async def until(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (the table's messages in between are skipped)."""
    async with asyncio.timeout(10):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] in kinds:
                return message  # type: ignore[no-any-return]


async def ask(ws: ClientConnection, **message: Any) -> dict[str, Any]:
    """Send a message with an id; the reply (an error, maybe): the message with that id
    as its ``re`` (the table's own messages in between are skipped). It must fit the
    protocol's schema (docs/protocol.schema.json)."""
    await send(ws, id="q", **message)
    async with asyncio.timeout(10):
        while True:
            reply = json.loads(await ws.recv())
            if reply.get("re") == "q":
                check_server_message(reply, f"the reply to {message['type']}")
                return reply  # type: ignore[no-any-return]


@dataclass
class Live:
    """What a player received at the table, hand by hand."""

    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    states: dict[int, list[dict[str, Any] | None]] = field(default_factory=dict)
    """By hand, each event's ``state`` (None: not the last of its batch)."""
    played: list[int] = field(default_factory=list)
    """Numbers of the hands the player was dealt into, in order."""

    def hand(self, number: int) -> list[dict[str, Any]]:
        """The hand's events as they came (seating events left out)."""
        return [e for e in self.events[number] if e["type"] in HAND_EVENTS]

    def hand_states(self, number: int) -> list[dict[str, Any] | None]:
        """The states that came with :meth:`hand`'s events."""
        pairs = zip(self.events[number], self.states[number], strict=True)
        return [state for e, state in pairs if e["type"] in HAND_EVENTS]

    def net(self, number: int, seat: int = SEAT) -> int:
        started, *_, ended = self.hand(number)
        before = started["stacks"][started["seats"].index(seat)]
        return int(dict(ended["stacks"])[seat]) - int(before)


async def sit(ws: ClientConnection, hello: dict[str, Any]) -> dict[str, Any]:
    """Say hello and take seat SEAT, posting at once; the welcome."""
    await send(ws, type="hello", **hello)
    welcome = await until(ws, "welcome")
    await send(ws, type="sit", table="demo", seat=SEAT, buy_in=10_000, wait_for_big_blind=False)
    await until(ws, "seated")
    return welcome


async def play(ws: ClientConnection, count: int, *, fold_in: Collection[int] = ()) -> Live:
    """Check or call until ``count`` hands of the player's are over and stored (the next
    hand has started: a table stores each hand before it deals the next). In the played
    hands whose index is in ``fold_in``, fold whenever folding is allowed."""
    live = Live()
    async with asyncio.timeout(60):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "event":
                event = message["event"]
                if event["type"] == "hand_started":
                    if len(live.played) == count:
                        return live
                    if SEAT in event["seats"]:
                        live.played.append(event["hand_number"])
                live.events.setdefault(message["hand_number"], []).append(event)
                live.states.setdefault(message["hand_number"], []).append(message.get("state"))
            elif message["type"] == "action_request":
                await answer(ws, message, fold=len(live.played) - 1 in fold_in)


async def answer(ws: ClientConnection, request: dict[str, Any], *, fold: bool = False) -> None:
    """Check or call the request; with ``fold``, fold if the menu allows it."""
    menu = request["menu"]
    action = "fold" if fold and menu["can_fold"] else "check" if menu["can_check"] else "call"
    await send(
        ws, type="act", table="demo", action_id=f"a{request['seq']}", action=action,
        seq=request["seq"],
    )  # fmt: skip


def folded(live: Live) -> list[int]:
    """The hands in which the player folded."""
    return [
        n
        for n in live.played
        if any(e["type"] == "action_taken" and e["seat"] == SEAT and e["kind"] == "fold"
               for e in live.hand(n))
    ]  # fmt: skip


def phh_cards(text: str) -> dict[str, set[str]]:
    """By PHH player (``p1``...): the hole cards a PHH text deals or shows them (none
    for ``????``)."""
    cards: dict[str, set[str]] = {}
    for action in history.load(text).actions:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            player = words[2]
        elif len(words) == 3 and words[1] == "sm":
            player = words[0]
        else:
            continue
        pairs = {words[-1][i : i + 2] for i in range(0, len(words[-1]), 2)}
        cards.setdefault(player, set()).update(pairs - {"??"})
    return cards


def stars_cards(text: str) -> set[str]:
    """Every card a PokerStars text names (cards are always in brackets there)."""
    return {c for group in re.findall(r"\[([^\]]*)\]", text) for c in CARD.findall(group)}


def event_cards(events: list[dict[str, Any]]) -> set[str]:
    return {c for e in events for key in ("cards", "board") for c in e.get(key) or ()}


async def stored_holes(demo: Demo, hand_id: int) -> tuple[dict[int, set[str]], str]:
    """By seat, the hole cards the database holds for a hand; and its seed."""
    async with demo.server.store.engine.connect() as conn:
        seats = await conn.execute(
            select(HandPlayer.seat, HandPlayer.hole_cards).where(HandPlayer.hand_id == hand_id)
        )
        holes = {seat: {cards[:2], cards[2:]} for seat, cards in seats if cards is not None}
        seed = (
            await conn.execute(select(HandRecord.seed).where(HandRecord.id == hand_id))
        ).scalar_one()
    assert seed is not None and len(holes) >= 2  # a hand this server dealt: all of it known
    return holes, seed


async def test_hands_lists_the_hands_you_played_newest_first_with_your_seat_and_result(
    demo: Demo,
) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        await sit(ws, {"name": "alice"})
        live = await play(ws, 3, fold_in={1, 2})  # one of them, at least, not as big blind
        reply = await ask(ws, type="hands")
    listed = reply["hands"]
    assert [h["hand_number"] for h in listed] == live.played[::-1]
    assert [h["id"] for h in listed] == sorted((h["id"] for h in listed), reverse=True)
    for item in listed:
        number = item["hand_number"]
        started, *_, ended = live.hand(number)
        assert item["table"] == "demo"
        assert (item["seat"], item["net"]) == (SEAT, live.net(number))
        assert item["board"] == ended["board"]
        awarded = [e["amount"] for e in live.hand(number) if e["type"] == "pot_awarded"]
        assert item["pot"] == sum(awarded)
        names = {s: f"house-{s}" for s in range(4)} | {SEAT: "alice"}
        assert item["players"] == [{"seat": s, "name": names[s]} for s in started["seats"]]
        when = dt.datetime.fromisoformat(item["started_at"])
        assert when.utcoffset() == dt.timedelta(0)
        assert abs(dt.datetime.now(dt.UTC) - when) < dt.timedelta(minutes=1)
    assert folded(live)  # a hand she folded is hers too
    assert sorted(item.keys()) == sorted(
        ["id", "table", "hand_number", "game", "started_at", "pot", "board", "seat", "net",
         "players"]
    )  # fmt: skip
    assert {item["game"] for item in listed} == {"nlhe"}


async def test_hands_pages_back_with_before_and_limit(demo: Demo) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        await sit(ws, {"name": "alice"})
        live = await play(ws, 3)
        first = (await ask(ws, type="hands", limit=2))["hands"]
        rest = (await ask(ws, type="hands", limit=2, before=first[-1]["id"]))["hands"]
        nothing = (await ask(ws, type="hands", before=rest[-1]["id"]))["hands"]
    assert [h["hand_number"] for h in first + rest] == live.played[::-1]
    assert (len(first), len(rest), nothing) == (2, 1, [])


async def test_hand_replays_the_events_you_received_live_and_hides_what_you_did_not_see(
    demo: Demo,
) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        await sit(ws, {"name": "alice"})
        live = await play(ws, 3)
        listed = (await ask(ws, type="hands"))["hands"]
        replies = [await ask(ws, type="hand", hand_id=h["id"]) for h in listed]
    mucked = unseen = 0
    for item, reply in zip(listed, replies, strict=True):
        number = item["hand_number"]
        events = live.hand(number)
        assert reply["events"] == events  # the same JSON, in the same order
        assert reply["states"] == live.hand_states(number)  # whose turn, the pots: as live
        texts = ("events", "states", "phh", "pokerstars")
        assert {k: v for k, v in reply.items() if k not in texts} == {
            "type": "hand", "hand_id": item["id"], "table": "demo", "hand_number": number,
            "started_at": item["started_at"], "seat": SEAT, "players": item["players"],
            "game": engine_game("nlhe").to_dict(), "bring_in": 0, "small_bet": 0, "big_bet": 0,
            "small_blind": 50, "big_blind": 100, "ante": 0, "re": "q",
        }  # fmt: skip

        # The database knows every card; the reply only what her seat saw.
        holes, seed = await stored_holes(demo, item["id"])
        shown = {e["seat"] for e in events if e["type"] == "cards_shown"}
        hidden = {s for s in holes if s != SEAT and s not in shown}
        mucked += sum(e["type"] == "cards_mucked" and e["seat"] != SEAT for e in events)
        unseen += len(hidden)
        for event in events:
            if event["type"] == "hole_cards_dealt":
                assert (event["cards"] is None) == (event["seat"] != SEAT)
        seats = [p["seat"] for p in item["players"]]  # PHH order: p1 is the first listed
        phh = phh_cards(reply["phh"])
        for s in seats:
            assert phh[f"p{seats.index(s) + 1}"] == (set() if s in hidden else holes[s])
        secret = set().union(*(holes[s] for s in hidden))
        seen = event_cards(events) | set().union(*phh.values()) | stars_cards(reply["pokerstars"])
        assert seen & secret == set() and holes[SEAT] <= seen
        dealt = [line for line in reply["pokerstars"].splitlines() if line.startswith("Dealt")]
        assert len(dealt) == 1 and dealt[0].startswith("Dealt to alice [")
        assert set(CARD.findall(dealt[0])) == holes[SEAT]
        assert seed and seed not in json.dumps(reply) and "_seed" not in reply["phh"]
        assert "_deck_commitment" in reply["phh"]  # public: sent before the deal
    # Calling stations reach showdowns, where hands that cannot win are mucked unseen:
    # the only cards she does not see (nobody folds).
    assert mucked and unseen == mucked


@pytest.mark.parametrize("bob", [{"name": "bob"}, {"account": "bob"}], ids=["guest", "account"])
async def test_another_player_gets_no_hand_as_for_a_hand_that_does_not_exist(
    demo: Demo, bob: dict[str, str]
) -> None:
    """Bob says hello before Alice's hand is played (and an account sees hands from any
    time), so only whose hand it is keeps it from him."""
    async with (
        connect(f"ws://{demo.address}/ws") as alice,
        connect(f"ws://{demo.address}/ws") as other,
    ):
        if "account" in bob:
            bob = {"token": (await ask(other, type="create_account", name="bob"))["token"]}
        await send(other, type="hello", **bob)
        await until(other, "welcome")
        await sit(alice, {"name": "alice"})
        await play(alice, 1)
        (hand,) = (await ask(alice, type="hands"))["hands"]
        hers = await ask(alice, type="hand", hand_id=hand["id"])
        theirs = await ask(other, type="hand", hand_id=hand["id"])
        unknown = await ask(other, type="hand", hand_id=hand["id"] + 1_000)
        assert (await ask(other, type="hands"))["hands"] == []
    assert (hers["type"], hers["hand_id"]) == ("hand", hand["id"])
    assert theirs == {
        "type": "error", "code": "no_hand", "re": "q",
        "message": f"no hand {hand['id']} that you played",
    }  # fmt: skip
    assert unknown["code"] == "no_hand"
    assert unknown["message"] == theirs["message"].replace(str(hand["id"]), str(hand["id"] + 1_000))


async def test_a_guest_name_taken_again_shows_none_of_the_earlier_guests_hands(
    demo: Demo,
) -> None:
    """A guest is a name, free again once its guest is gone: the next guest of that name
    is the same player in the records, but sees only hands from their own hello on."""
    async with connect(f"ws://{demo.address}/ws") as first:
        await sit(first, {"name": "alice"})
        await play(first, 1)
        await send(first, type="leave", table="demo")
        async with asyncio.timeout(30):
            while True:  # she plays the hand she is in, then stands up
                message = json.loads(await first.recv())
                if message["type"] == "action_request":
                    await answer(first, message)
                if message["type"] == "event" and message["event"]["type"] == "player_stood":
                    break
        hands = (await ask(first, type="hands"))["hands"]
        assert len(hands) == 2
    async with connect(f"ws://{demo.address}/ws") as second:
        async with asyncio.timeout(10):
            while (await ask(second, type="hello", name="alice"))["type"] != "welcome":
                await asyncio.sleep(0.05)  # until the server has seen the first one go
        assert (await ask(second, type="hands"))["hands"] == []
        for hand in hands:
            assert (await ask(second, type="hand", hand_id=hand["id"]))["code"] == "no_hand"


async def test_an_account_sees_its_hands_from_any_connection(demo: Demo) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        token = (await ask(ws, type="create_account", name="carol"))["token"]
        await sit(ws, {"token": token})
        live = await play(ws, 1)
    async with connect(f"ws://{demo.address}/ws") as again:
        await send(again, type="hello", token=token)
        await until(again, "welcome")
        (hand,) = (await ask(again, type="hands"))["hands"]
        reply = await ask(again, type="hand", hand_id=hand["id"])
    assert hand["hand_number"] == live.played[0]
    assert reply["events"] == live.hand(live.played[0])


async def test_a_hands_text_has_the_button_and_small_blind_its_events_have(
    tmp_path: Path,
) -> None:
    """A dead button and a small blind nobody posted, which PHH does not record: the
    PokerStars text says what the events (the table's) say. The reply is built as
    ``hand`` builds it, from the stored hand."""
    hand = dead_button_hand()
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}") as store:
        names = [NAMES[s] for s in hand.seats]
        ids = await store.ensure_players(names)
        table_id = await store.ensure_table("dead", {"small_blind": 5, "big_blind": 10})
        now = dt.datetime.now(dt.UTC)
        hand_id = await store.write_hand(
            hand_rows(hand, table_id=table_id, player_ids=[ids[n] for n in names], names=names,
                      started_at=now, ended_at=now)
        )  # fmt: skip
        stored = await store.stored_hand(hand_id)
    for position in range(len(names)):
        seen = seen_from(stored.info, position)
        started = seen.events[0]
        assert isinstance(started, HandStarted)
        assert (started.button, started.small_blind, started.big_blind) == (1, 5, 10)
        assert seen.pokerstars is not None  # PokerStars deals hold'em
        lines = seen.pokerstars.splitlines()
        assert "Hold'em No Limit (5/10) - " in lines[0]
        assert lines[1] == "Table 'dead' 6-max Seat #2 is the button"


@pytest.mark.parametrize("kind", ["hands", "hand"])
async def test_hands_and_hand_need_hello_first(demo: Demo, kind: str) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        reply = await ask(ws, type=kind, **({"hand_id": 1} if kind == "hand" else {}))
    assert reply["code"] == "hello_first"


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"type": "hands", "limit": 0}, "hands: limit: Input should be greater than or equal"),
        ({"type": "hands", "limit": 101}, "hands: limit: Input should be less than or equal"),
        ({"type": "hands", "limit": "5"}, "hands: limit: Input should be a valid integer"),
        ({"type": "hands", "limit": 2.5}, "hands: limit: Input should be a valid integer"),
        ({"type": "hands", "limit": True}, "hands: limit: Input should be a valid integer"),
        ({"type": "hands", "before": 0}, "hands: before: Input should be greater than or equal"),
        ({"type": "hand"}, "hand: hand_id: Field required"),
        ({"type": "hand", "hand_id": "7"}, "hand: hand_id: Input should be a valid integer"),
        ({"type": "hand", "hand_id": 2**63}, "hand: hand_id: Input should be less than or equal"),
        ({"type": "hand", "id_": 1, "hand_id": 1}, "hand: id_: Extra inputs are not permitted"),
    ],
)
async def test_bad_hands_and_hand_messages_are_bad_message_naming_the_field(
    demo: Demo, message: dict[str, Any], problem: str
) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        await send(ws, type="hello", name="alice")
        await until(ws, "welcome")
        await ws.send(json.dumps({**message, "id": "b"}))
        reply = await until(ws, "error")
    assert (reply["code"], reply["re"]) == ("bad_message", "b")
    assert reply["message"].startswith(problem)


async def test_a_hands_reply_may_be_larger_than_a_client_message_may(demo: Demo) -> None:
    """16 KiB is the limit on what clients send; a page of 100 hands is more than that."""
    store = demo.server.store
    async with connect(f"ws://{demo.address}/ws") as ws:
        token = (await ask(ws, type="create_account", name="carol"))["token"]
        names = ["carol", *(f"other{i}" for i in range(1, 6))]
        ids = await store.ensure_players(names)
        table = await store.ensure_table("archive", {"seats": 6})
        now = dt.datetime.now(dt.UTC)
        await store.write_hands(
            [
                hand_rows(hand, table_id=table, player_ids=[ids[names[s]] for s in hand.seats],
                          names=[names[s] for s in hand.seats], started_at=now, ended_at=now)
                for hand in play_hands(120, seed=9)
            ]
        )  # fmt: skip
        await send(ws, type="hello", token=token)
        await until(ws, "welcome")
        await send(ws, type="hands", limit=100)
        async with asyncio.timeout(10):
            while '"type":"hands"' not in (raw := str(await ws.recv())):
                pass
    assert len(raw.encode()) > 16 * 1024
    check_server_message(json.loads(raw), "the reply to hands")
    assert len(json.loads(raw)["hands"]) == 100


SESSION_HANDS = 300


async def test_every_players_view_of_every_hand_of_a_long_bot_session_replays(
    tmp_path: Path,
) -> None:
    """The ``phh`` of a ``hand`` reply is the history as that player saw it: the cards of
    hands mucked unseen are unknown (``????``), and a replay must not let their stand-ins
    win the pot. Bots of every built-in kind play hundreds of hands on a real server, which
    stores them; every player's view of every stored hand replays to the stored stacks."""
    bots = [
        RandomBot(seed=1), CallingStation(), TightAggressive(seed=2, samples=40),
        RandomBot(seed=3), CallingStation(), TightAggressive(seed=4, samples=40),
    ]  # fmt: skip
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0, house_think_seconds=0.0))
        async with server.running():
            config = TableConfig(small_blind=50, big_blind=100, seats=len(bots))
            runner = await server.hosting.create_table("Bots", config)
            house = {s: (f"bot-{s}", bot) for s, bot in enumerate(bots)}
            await server.hosting.add_house_bots(runner, house, stack=10_000)
            async with asyncio.timeout(120):
                while runner.finished_through < SESSION_HANDS:
                    await asyncio.sleep(0.05)
        infos = [await store.hand_info(i) for i in await store.hand_ids()]
    assert len(infos) >= SESSION_HANDS
    views, mucked_unseen, noted, wrong = 0, 0, 0, []
    for info in infos:
        # A bare "pN sm" is a hand mucked unseen: in everyone else's view its cards are "????".
        mucked_unseen += any(a.split()[1:] == ["sm"] for a in info.history.actions)
        for position in range(len(info.players)):
            result = history.check(history.load(seen_from(info, position).phh))
            views += 1
            noted += "hole cards are unknown: mucked at showdown" in result.message
            if result.status != "match":
                wrong.append((info.hand_id, f"p{position + 1}", result.status, result.message))
    assert wrong == [], f"{len(wrong)} of {views} views do not replay"
    assert mucked_unseen > 0 and noted > 0 and views > 2 * SESSION_HANDS


async def play_one_hand(ws: ClientConnection, table: str) -> None:
    """Bring in, stand pat, check or call until the player's second hand starts (the first
    is stored by then)."""
    async with asyncio.timeout(30):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "event" and message["hand_number"] == 2:
                return
            if message["type"] == "action_request":
                menu = message["menu"]
                act: dict[str, Any] = (
                    {"action": "draw", "discard": []} if menu["can_draw"]
                    else {"action": "bring_in"} if menu["can_bring_in"]
                    else {"action": "check" if menu["can_check"] else "call"}
                )  # fmt: skip
                await send(ws, type="act", table=table, action_id=f"a{message['seq']}", **act)


@pytest.mark.parametrize(
    ("game", "stakes", "dealt_by_pokerstars"),
    [
        ("stud", {"ante": 10, "ante_kind": "per_player", "bring_in": 25, "small_bet": 100}, True),
        ("5cd", {"small_blind": 50, "big_blind": 100}, True),
        ("dice", {"small_blind": 50, "big_blind": 100}, False),
    ],
)
async def test_a_hand_of_any_game_comes_back_with_its_game_and_fits_the_schema(
    tmp_path: Path, game: str, stakes: dict[str, int], dealt_by_pokerstars: bool
) -> None:
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await send(alice, type="hello", name="alice")
        created = await ask(alice, type="create_table", name="Game", game=game, seats=2, **stakes)
        table = created["table"]["id"]
        assert created["table"]["game"] == engine_game(game).to_dict()
        buy_in = created["table"]["min_buy_in"]
        for n, ws in enumerate((alice, bob)):
            if n:
                await send(ws, type="hello", name="bob")
            await send(ws, type="sit", table=table, seat=n, buy_in=buy_in)
        await asyncio.gather(play_one_hand(alice, table), play_one_hand(bob, table))
        (listed,) = (await ask(alice, type="hands"))["hands"]
        reply = await ask(alice, type="hand", hand_id=listed["id"])
    assert listed["game"] == game
    assert reply["game"] == engine_game(game).to_dict()
    assert (reply["pokerstars"] is not None) == dealt_by_pokerstars
    # What Bob held stays hidden: his down cards, and what he drew.
    for event in reply["events"]:
        if event["type"] == "hole_cards_dealt" and event["seat"] == 1:
            assert event["cards"] is None
        if event["type"] == "cards_drawn" and event["seat"] == 1 and not event["face_up"]:
            assert event["discarded"] is None and event["drawn"] is None


async def play_checked(ws: ClientConnection, table: str, hands: int) -> list[dict[str, Any]]:
    """Bring in, check or call until hand ``hands + 1`` starts: every message received,
    each checked against the protocol's schema."""
    seen: list[dict[str, Any]] = []
    async with asyncio.timeout(30):
        while True:
            message = json.loads(await ws.recv())
            check_server_message(message, f"message {len(seen)}")
            seen.append(message)
            if message["type"] == "event" and message["hand_number"] == hands + 1:
                return seen
            if message["type"] == "action_request":
                menu = message["menu"]
                act: dict[str, Any] = (
                    {"action": "bring_in"} if menu["can_bring_in"]
                    else {"action": "check" if menu["can_check"] else "call"}
                )  # fmt: skip
                await send(ws, type="act", table=table, action_id=f"a{message['seq']}", **act)


async def test_the_hands_of_a_mixed_table_come_back_each_with_the_game_it_dealt(
    tmp_path: Path,
) -> None:
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await send(alice, type="hello", name="alice")
        created = await ask(alice, type="create_table", name="Horse", mix="horse", every=1,
                            small_bet=100, big_bet=200, seats=2)  # fmt: skip
        table = created["table"]["id"]
        assert created["table"]["mix"]["games"] == ["flhe", "flo8", "razz", "stud", "stud8"]
        for n, ws in enumerate((alice, bob)):
            if n:
                await send(ws, type="hello", name="bob")
            await send(ws, type="sit", table=table, seat=n, buy_in=4_000)
        seen: list[dict[str, Any]]
        seen, _ = await asyncio.gather(play_checked(alice, table, 2), play_checked(bob, table, 2))
        (listed_flo8, listed_flhe) = (await ask(alice, type="hands"))["hands"]
        replies = [
            await ask(alice, type="hand", hand_id=h["id"]) for h in (listed_flhe, listed_flo8)
        ]
    # One hand of each game, each game announced before its first hand.
    changes = [m["summary"] for m in seen if m["type"] == "game_changed"]
    assert [(c["game"]["key"], c["mix"]["game"], c["mix"]["hands_left"]) for c in changes] == [
        ("flo8", "flo8", 1), ("razz", "razz", 1),
    ]  # fmt: skip
    assert changes[1]["ante"] == 20 and changes[1]["bring_in"] == 50  # razz at limits 100/200
    assert (listed_flhe["game"], listed_flo8["game"]) == ("flhe", "flo8")
    assert [r["game"] for r in replies] == [
        engine_game("flhe").to_dict(),
        engine_game("flo8").to_dict(),
    ]
    assert [(r["small_blind"], r["big_blind"], r["small_bet"]) for r in replies] == [
        (50, 100, 100), (50, 100, 100),
    ]  # fmt: skip
