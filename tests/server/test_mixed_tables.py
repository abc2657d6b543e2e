"""Mixed games at cash tables: HORSE and 8-game rotate their games between hands, each at
its convention's stakes from one level; dealer's choice asks the next dealer to pick, and
goes on with the game as it was if nobody picks in time. Every change reaches the table's
subscribers (``game_changed``) and each stored hand says its game.

The table's rules are tested on its core (:class:`tests.server.core_room.Room`, a fake
clock, no event loop). Through a real server: a mixed table refused by name on the wire,
an SDK bot picking, and game changes reaching a delayed spectator, the bus and the store."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection

import engine
from engine import history
from server import protocol
from server.bots import load_bot as engine_bot
from server.bots.client import BotClient
from server.hosting import check_mix_fields, table_config, table_json, table_mix, table_settings
from server.settings import ServerSettings
from server.store import Lease
from server.tables import Caller, Player, TableSettings
from server.tables.messages import Disconnect, HouseSit
from tests.server.clients import Inbox, send
from tests.server.conftest import demo_server
from tests.server.core_room import TABLE, Room
from tests.server.test_games_server import create, hello, until_reply

# -- a mixed table's core ---------------------------------------------------------------------


class MixedRoom(Room):
    """A :class:`Room` that also keeps the game of each hand it stores, as its history
    says it (written and read back as PHH, as the store does)."""

    def __init__(self, config: engine.TableConfig, **settings: Any) -> None:
        super().__init__(config, **settings)
        self.stored_games: list[str] = []

    def store(self) -> None:
        hand = self.core.table.hand
        assert hand is not None
        self.stored_games.append(history.load(history.dump(history.from_hand(hand))).game.key)
        super().store()


def mixed_room(**fields: Any) -> MixedRoom:
    """The table a ``create_table`` with ``fields`` makes, as the server makes it
    (:meth:`server.hosting.Hosting.create_for`)."""
    m = protocol.parse(json.dumps({"type": "create_table", "name": "Mixed", **fields}))
    assert isinstance(m, protocol.CreateTable)
    check_mix_fields(m)
    mixed = table_mix(m.model_dump())
    assert mixed is not None
    return MixedRoom(
        table_config(m.model_dump(), mixed), mix=mixed[0], level=mixed[1],
        decision_seconds=m.decision_seconds, time_bank_seconds=m.time_bank_seconds,
    )  # fmt: skip


def seat_house_bots(room: Room, seats: list[int], stack: int) -> None:
    """Calling stations in ``seats``, as the server seats house bots (one message)."""
    bots = {s: (Player(100 + s, f"bot-{s}", bot=True), engine_bot("calling-station"))
            for s in seats}  # fmt: skip
    room.submit(HouseSit(bots, stack), Caller(None))


def bots_think(room: Room) -> None:
    """House bots take the server's moment to act, so that a table of bots only waits
    for the clock (with none, it would play hand after hand within one call)."""
    room.core.house_think_seconds = 0.2


def wait_until(room: Room, done: Callable[[], bool], limit: float = 3600.0) -> None:
    """Move the clock on, a second at a time, until ``done()``."""
    end = room.now + limit
    while not done():
        assert room.now < end, "the table never got there"
        room.wait(1.0)


def ended(message: dict[str, Any]) -> bool:
    return message["type"] == "event" and message["event"]["type"] == "hand_ended"


def started(message: dict[str, Any]) -> bool:
    return message["type"] == "event" and message["event"]["type"] == "hand_started"


def of_type(inbox: Inbox, kind: str) -> list[dict[str, Any]]:
    return [m for m in inbox.messages if m["type"] == kind]


def game_changed_to(inbox: Inbox, key: str) -> int | None:
    """The index in ``inbox`` of its first ``game_changed`` to ``key``, if any."""
    return next((i for i, m in enumerate(inbox.messages) if m["type"] == "game_changed"
                 and m["summary"]["game"]["key"] == key), None)  # fmt: skip


# -- the table's rules ----------------------------------------------------------------------


def test_horse_plays_each_game_in_turn_at_its_stakes() -> None:
    room = mixed_room(mix="horse", every=2, small_bet=20, big_bet=40, seats=4)
    summary = room.send("host", type="spectate")["summary"]
    assert summary["mix"]["games"] == ["flhe", "flo8", "razz", "stud", "stud8"]
    assert (summary["game"]["key"], summary["small_blind"], summary["big_blind"]) == (
        "flhe", 10, 20,
    )  # fmt: skip
    bots_think(room)
    seat_house_bots(room, [0, 1, 2], 4_000)
    host = room.person("host")
    wait_until(room, lambda: game_changed_to(host, "stud") is not None)
    stud = game_changed_to(host, "stud")
    assert stud is not None
    seen = host.messages[: stud + 1]
    changes = [m for m in seen if m["type"] == "game_changed"]
    assert [c["summary"]["game"]["key"] for c in changes] == ["flo8", "razz", "stud"]
    # Each change is numbered with the hand it is for: two hands of each game.
    assert [c["hand_number"] for c in changes] == [3, 5, 7]
    razz = changes[1]["summary"]
    stakes = engine.stakes_for("razz", (20, 40))
    assert {k: razz[k] for k in ("ante", "bring_in", "small_bet", "big_bet")} == {
        k: stakes[k] for k in ("ante", "bring_in", "small_bet", "big_bet")
    }
    # Two hands of each game, in order, between the changes.
    kinds = ["change" if m["type"] == "game_changed" else "hand" for m in seen
             if m["type"] == "game_changed" or ended(m)]  # fmt: skip
    assert kinds == ["hand", "hand", "change"] * 3
    # Each hand handed over for storing says its game.
    assert room.stored[:6] == [1, 2, 3, 4, 5, 6]
    assert room.stored_games[:6] == ["flhe", "flhe", "flo8", "flo8", "razz", "razz"]


def test_dealers_choice_asks_the_next_dealer_and_plays_the_pick() -> None:
    games = ["nlhe", "27td", "stud"]
    room = mixed_room(mix="choice", games=games, small_bet=20, seats=3)
    assert room.core.views.summary()["mix"]["dealers_choice"] is True
    room.sit("host", 0, buy_in=2_000)
    seat_house_bots(room, [1, 2], 2_000)
    host = room.person("host")
    picks = asked = 0
    before: list[tuple[int | None, str]] = []  # (the button, the game) when asked
    for _ in range(1_000):
        if picks == 2:
            break
        choices = of_type(host, "game_choice")
        if len(choices) > asked:  # asked to pick
            asked += 1
            assert len(choices) == asked
            message = choices[-1]
            assert message["seat"] == 0 and message["games"] == games
            assert not room.core.table.hand_in_progress
            before.append((room.core.table.button, room.core.table.config.game.key))
            error = room.refused("host", type="choose_game", game="omaha")
            assert error.code == "illegal" and "not on this table's list" in str(error)
            mark = len(host.messages)
            assert room.send("host", type="choose_game", game="27td")["game"] == "27td"
            picks += 1
            after = host.messages[mark:]
            first = next(i for i, m in enumerate(after) if started(m))
            changed = [m for m in after[:first] if m["type"] == "game_changed"]
            assert [m["summary"]["game"]["key"] for m in changed] == ["27td"]
            assert room.core.table.config.game.key == "27td"
            assert room.core.table.button == 0  # the chooser deals the game picked
        elif room.to_act() == "host":
            menu = room.request("host")["menu"]
            if menu["can_draw"]:
                room.act("host", "draw", discard=[])
            elif menu["can_bring_in"]:
                room.act("host", "bring_in")
            else:
                room.act("host", "check" if menu["can_check"] else "call")
        else:  # a house bot's action is due
            assert room.core.deadline() == room.now
            room.wait(0)
    assert picks == 2
    # The next dealer picks: the first seat before any button, then the seat the button
    # moves to (from seat 2). In between the house bots picked, each the game after the
    # current one on the list (27td, stud, then nlhe): each pick changed the game.
    assert before == [(None, "nlhe"), (2, "nlhe")]
    error = room.refused("host", type="choose_game", game="stud")
    assert error.code == "illegal"


def test_a_pick_nobody_makes_in_time_keeps_the_game() -> None:
    room = mixed_room(mix="choice", games=["razz", "5cd"], small_bet=20, seats=2,
                      decision_seconds=0.3, time_bank_seconds=0)  # fmt: skip
    room.sit("host", 0, buy_in=2_000)
    seat_house_bots(room, [1], 2_000)
    host = room.person("host")
    assert [m["seconds"] for m in of_type(host, "game_choice")] == [0.3]
    room.wait(0.2)
    assert room.core.table.hand_number == 0  # still waiting for the pick
    room.wait(0.2)
    assert room.core.table.hand_number == 1 and host.events("hand_started")
    assert room.core.table.config.game.key == "razz"  # the list's first, as it was
    assert of_type(host, "game_changed") == []
    assert len(of_type(host, "game_choice")) == 1


def test_everyone_hears_who_chooses_and_a_chooser_back_is_asked_again() -> None:
    room = mixed_room(mix="choice", games=["razz", "5cd"], small_bet=20, seats=2,
                      decision_seconds=5)  # fmt: skip
    room.send("watcher", type="spectate")
    room.sit("dealer", 0, buy_in=2_000)
    seat_house_bots(room, [1], 2_000)
    dealer, watcher = room.person("dealer"), room.person("watcher")
    [asked] = of_type(dealer, "game_choice")
    [told] = of_type(watcher, "game_choosing")
    assert (told["seat"], told["seconds"]) == (asked["seat"], 5)
    assert asked["seconds"] == 5
    assert of_type(dealer, "game_choosing") == []  # the chooser is asked, not told
    last_seq = room.core.fanout.seq
    room.submit(Disconnect(), room.caller("dealer"))
    room.wait(1.5)
    again = Inbox()
    back = Caller(again, room.player("dealer"), "10.0.0.9")
    resume = protocol.parse(json.dumps({"type": "resume", "table": TABLE, "last_seq": last_seq}))
    assert room.submit(resume, back)["type"] == "resumed"  # type: ignore[arg-type]
    [reasked] = of_type(again, "game_choice")
    assert reasked["games"] == ["razz", "5cd"] and reasked["seconds"] == 3.5
    pick = protocol.parse(json.dumps({"type": "choose_game", "table": TABLE, "game": "5cd"}))
    assert room.submit(pick, back)["type"] == "game_chosen"  # type: ignore[arg-type]
    assert room.core.table.config.game.key == "5cd"
    assert game_changed_to(watcher, "5cd") is not None


def test_game_changes_come_in_their_place() -> None:
    room = mixed_room(mix="horse", every=1, small_bet=20, seats=3)
    room.send("host", type="spectate")
    bots_think(room)
    seat_house_bots(room, [0, 1, 2], 4_000)
    host = room.person("host")
    wait_until(room, lambda: game_changed_to(host, "razz") is not None)
    # Hand n's change comes after hand n - 1 has ended, before hand n's commitment.
    order = [(m["type"], m["hand_number"]) for m in host.messages
             if m["type"] in ("game_changed", "deck_commitment") or ended(m)]  # fmt: skip
    assert order[:7] == [("deck_commitment", 1), ("event", 1), ("game_changed", 2),
                         ("deck_commitment", 2), ("event", 2), ("game_changed", 3),
                         ("deck_commitment", 3)]  # fmt: skip
    changes = of_type(host, "game_changed")
    assert [c["summary"]["game"]["key"] for c in changes][:2] == ["flo8", "razz"]


# -- stored and taken over ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"mix": "8game", "every": "orbit", "small_bet": 100, "big_bet": 200},
        {"mix": "choice", "games": ["plo", "badugi"], "every": 3, "small_bet": 10},
    ],
)
def test_a_mixed_table_is_stored_and_taken_over_as_it_was(fields: dict[str, Any]) -> None:
    base = {"name": "m", "seats": 6, "ante": 0, "ante_kind": "none", "min_buy_in": 0,
            "max_buy_in": 0, "button_rule": "moving", "decision_seconds": 30.0,
            "time_bank_seconds": 60.0}  # fmt: skip
    mixed = table_mix({**base, **fields})
    assert mixed is not None
    settings = TableSettings("m", "m", table_config({**base, **fields}, mixed), mix=mixed[0],
                             level=mixed[1])  # fmt: skip
    lease = Lease(1, "m", table_json(settings), last_hand_number=0, voided=None, refunds={})
    again = table_settings(lease, ServerSettings())
    assert (again.mix, again.level, again.config) == (settings.mix, settings.level, settings.config)


# -- end to end: the wire, the SDK, a delayed spectator, the bus and the store ---------------


async def messages(ws: ClientConnection, until: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
    """Messages received until ``until(message)`` is true (that one included)."""
    seen: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            seen.append(json.loads(await ws.recv()))
            if until(seen[-1]):
                return seen


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"mix": "horse"}, "HORSE needs its level: a small bet above 0"),
        ({"mix": "choice", "small_bet": 10}, "dealer's choice needs its games"),
        ({"mix": "horse", "games": ["nlhe", "plo"], "small_bet": 10}, "horse has its own games"),
        ({"mix": "horse", "game": "plo", "small_bet": 10}, "takes no game or cap of its own"),
        ({"mix": "8game", "small_bet": 10, "seats": 8}, "a table of 8-Game has 2 to 6 seats"),
        ({"mix": "choice", "games": ["nlhe", "chess"], "small_bet": 10}, "unknown game 'chess'"),
        ({"mix": "horse", "small_bet": 10, "big_blind": 20}, "big_blind is not one of its fields"),
        ({"mix": "horse", "small_bet": 10, "ante_kind": "per_player"}, "ante_kind is not one"),
        ({"game": "plo", "big_blind": 2, "every": 3}, "every is for a mixed game (mix) only"),
        ({"big_blind": 2, "games": ["nlhe", "plo"]}, "games is for a mixed game (mix) only"),
    ],
)
async def test_a_mixed_table_that_does_not_fit_is_refused_by_name(
    tmp_path: Path, fields: dict[str, Any], problem: str
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        ws = await hello(demo.address, "host")
        await send(ws, type="create_table", id="c", name="Mixed", **fields)
        reply = await until_reply(ws, "c")
        assert reply["type"] == "error" and problem in reply["message"], reply
        await ws.close()


class Picker:
    """A calling station that picks 2-7 triple draw whenever it deals, and checks that
    its view is the table's own at every decision (the mirror followed each change)."""

    def __init__(self, runner: Any) -> None:
        self.inner, self.runner = engine_bot("calling-station"), runner
        self.picks: list[tuple[list[str], str]] = []
        self.games: set[str] = set()
        self.mismatches = 0

    def choose_game(self, games: list[str], current: str) -> str:
        self.picks.append((games, current))
        return "27td"

    def act(self, view: engine.TableView, menu: engine.ActionMenu) -> engine.Action:
        self.games.add(view.config.game.key)
        truth = self.runner.core.table.view(menu.seat)
        if (view.config.game, view.street, view.board) != (truth.config.game, truth.street,
                                                           truth.board):  # fmt: skip
            self.mismatches += 1
        return self.inner.act(view, menu)


async def test_an_sdk_bot_picks_at_dealers_choice_and_follows_each_game(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        made = await create(host, mix="choice", games=["razz", "27td", "plo"], small_bet=20,
                            seats=3)  # fmt: skip
        table = made["table"]["id"]
        runner = demo.server.hosting.tables[table]
        house = {s: (f"bot-{s}", "calling-station") for s in (1, 2)}
        await demo.server.hosting.add_house_bots(runner, house, stack=2_000)
        picker = Picker(runner)
        client = BotClient(picker, f"ws://{demo.address}/ws", name="picker", table=table,
                           hands=12, buy_in=2_000, think_in_thread=False)  # fmt: skip
        async with asyncio.timeout(60):
            summary = await client.run()
        assert summary.reason == "hands" and summary.errors == ()
        assert picker.picks and all(games == ["razz", "27td", "plo"] for games, _ in picker.picks)
        assert "27td" in picker.games and len(picker.games) >= 2  # the house picks the others
        assert picker.mismatches == 0
        await host.close()


async def test_game_changes_come_in_their_place_for_a_delayed_spectator_on_the_bus_and_stored(
    tmp_path: Path,
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        made = await create(host, mix="horse", every=1, small_bet=20, seats=3)
        table = made["table"]["id"]
        runner = demo.server.hosting.tables[table]
        bus = runner.bus
        topic = bus.topics.table_events(table)
        await send(host, type="spectate", table=table, delay_hands=1, id="w")
        async with bus.subscribe(topic) as queue:
            house = {s: (f"bot-{s}", "calling-station") for s in range(3)}
            await demo.server.hosting.add_house_bots(runner, house, stack=4_000)
            seen = await messages(host, lambda m: m["type"] == "game_changed"
                                  and m["summary"]["game"]["key"] == "razz")  # fmt: skip
            published = [queue.get_nowait()[1] for _ in range(queue.qsize())]
        # Hand n's change comes after hand n - 1 has ended, before hand n starts.
        order = [(m["type"], m["hand_number"]) for m in seen
                 if m["type"] in ("game_changed", "deck_commitment") or ended(m)]  # fmt: skip
        assert order[:5] == [("deck_commitment", 1), ("event", 1), ("game_changed", 2),
                             ("deck_commitment", 2), ("event", 2)]  # fmt: skip
        changes = [json.loads(p) for p in published if b'"type":"game_changed"' in p]
        assert [c["summary"]["game"]["key"] for c in changes][:2] == ["flo8", "razz"]
        # Each stored hand says its game.
        store = demo.server.store
        async with asyncio.timeout(10):
            while len(await store.hand_ids()) < 2:
                await asyncio.sleep(0.05)
        first = (await store.hand_ids())[:2]
        assert [(await store.hand_info(i)).history.game.key for i in first] == ["flhe", "flo8"]
        await host.close()
