"""Mixed games at cash tables: HORSE and 8-game rotate their games between hands, each at
its convention's stakes from one level; dealer's choice asks the next dealer to pick, and
goes on with the game as it was if nobody picks in time. Every change reaches the table's
subscribers (``game_changed``) and each stored hand says its game."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

import engine
from server.bots import load_bot as engine_bot
from server.bots.client import BotClient
from server.hosting import table_config, table_json, table_mix, table_settings
from server.settings import ServerSettings
from server.store import Lease
from server.tables import TableSettings
from tests.server.clients import send
from tests.server.conftest import demo_server
from tests.server.test_games_server import create, hello, until_reply


async def messages(ws: ClientConnection, until: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
    """Messages received until ``until(message)`` is true (that one included)."""
    seen: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            seen.append(json.loads(await ws.recv()))
            if until(seen[-1]):
                return seen


def ended(message: dict[str, Any]) -> bool:
    return message["type"] == "event" and message["event"]["type"] == "hand_ended"


async def test_horse_plays_each_game_in_turn_at_its_stakes(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        made = await create(host, mix="horse", every=2, small_bet=20, big_bet=40, seats=4)
        summary = made["table"]
        table = summary["id"]
        assert summary["mix"]["games"] == ["flhe", "flo8", "razz", "stud", "stud8"]
        assert (summary["game"]["key"], summary["small_blind"], summary["big_blind"]) == (
            "flhe", 10, 20,
        )  # fmt: skip
        runner = demo.server.hosting.tables[table]
        await send(host, type="spectate", table=table, id="w")
        await until_reply(host, "w")
        house = {s: (f"bot-{s}", "calling-station") for s in range(3)}
        await demo.server.hosting.add_house_bots(runner, house, stack=4_000)
        seen = await messages(host, lambda m: m["type"] == "game_changed"
                              and m["summary"]["game"]["key"] == "stud")  # fmt: skip
        changes = [m["summary"] for m in seen if m["type"] == "game_changed"]
        assert [c["game"]["key"] for c in changes] == ["flo8", "razz", "stud"]
        razz = changes[1]
        stakes = engine.stakes_for("razz", (20, 40))
        assert {k: razz[k] for k in ("ante", "bring_in", "small_bet", "big_bet")} == {
            k: stakes[k] for k in ("ante", "bring_in", "small_bet", "big_bet")
        }
        # Two hands of each game, in order, between the changes.
        started = [m for m in seen if m["type"] in ("game_changed",) or ended(m)]
        kinds = ["change" if m["type"] == "game_changed" else "hand" for m in started]
        assert kinds == ["hand", "hand", "change"] * 3
        async with asyncio.timeout(10):
            while len(await demo.server.store.hand_ids()) < 6:
                await asyncio.sleep(0.05)
        first = (await demo.server.store.hand_ids())[:6]
        games = [(await demo.server.store.hand_info(i)).history.game.key for i in first]
        assert games == ["flhe", "flhe", "flo8", "flo8", "razz", "razz"]
        await host.close()


async def test_dealers_choice_asks_the_next_dealer_and_plays_the_pick(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        games = ["nlhe", "27td", "stud"]
        made = await create(host, mix="choice", games=games, small_bet=20, seats=3)
        table = made["table"]["id"]
        assert made["table"]["mix"]["dealers_choice"] is True
        runner = demo.server.hosting.tables[table]
        await send(host, type="sit", table=table, seat=0, buy_in=2_000, wait_for_big_blind=False)
        house = {s: (f"bot-{s}", "calling-station") for s in (1, 2)}
        await demo.server.hosting.add_house_bots(runner, house, stack=2_000)
        picks = 0
        async with asyncio.timeout(60):
            while picks < 2:
                message = json.loads(await host.recv())
                if message["type"] == "game_choice":
                    assert message["seat"] == 0 and message["games"] == games
                    await send(host, type="choose_game", table=table, game="omaha", id="bad")
                    error = await until_reply(host, "bad")
                    assert (
                        error["code"] == "illegal"
                        and "not on this table's list" in error["message"]
                    )
                    await send(host, type="choose_game", table=table, game="27td", id="pick")
                    assert (await until_reply(host, "pick"))["game"] == "27td"
                    picks += 1
                    changed = await messages(host, lambda m: m["type"] == "game_changed"
                                             or (m["type"] == "event"
                                             and m["event"]["type"] == "hand_started"))  # fmt: skip
                    if changed[-1]["type"] == "game_changed":
                        assert changed[-1]["summary"]["game"]["key"] == "27td"
                    assert runner.table.config.game.key == "27td"
                elif message["type"] == "action_request":
                    menu = message["menu"]
                    act = ({"action": "draw", "discard": []} if menu["can_draw"] else
                           {"action": "bring_in"} if menu["can_bring_in"] else
                           {"action": "check" if menu["can_check"] else "call"})  # fmt: skip
                    await send(host, type="act", table=table, action_id=f"a{message['seq']}",
                               seq=message["seq"], **act)  # fmt: skip
        await send(host, type="choose_game", table=table, game="stud", id="late")
        assert (await until_reply(host, "late"))["code"] == "illegal"
        await host.close()


async def test_a_pick_nobody_makes_in_time_keeps_the_game(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        made = await create(host, mix="choice", games=["razz", "5cd"], small_bet=20, seats=2,
                            decision_seconds=0.3, time_bank_seconds=0)  # fmt: skip
        table = made["table"]["id"]
        runner = demo.server.hosting.tables[table]
        await send(host, type="sit", table=table, seat=0, buy_in=2_000, wait_for_big_blind=False)
        await demo.server.hosting.add_house_bots(runner, {1: ("bot", "calling-station")}, 2_000)
        seen = await messages(host, lambda m: m["type"] == "event"
                              and m["event"]["type"] == "hand_started")  # fmt: skip
        assert any(m["type"] == "game_choice" for m in seen)
        assert runner.table.config.game.key == "razz"  # the list's first, as it was
        await host.close()


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
        truth = self.runner.table.view(menu.seat)
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


async def test_everyone_hears_who_chooses_and_a_chooser_back_is_asked_again(
    tmp_path: Path,
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        chooser = await connect(f"ws://{demo.address}/ws")
        await send(chooser, type="hello", name="dealer")
        session = (await until_reply_type(chooser, "welcome"))["session"]
        made = await create(chooser, mix="choice", games=["razz", "5cd"], small_bet=20, seats=2,
                            decision_seconds=5)  # fmt: skip
        table = made["table"]["id"]
        watcher = await hello(demo.address, "watcher")
        await send(watcher, type="spectate", table=table, id="w")
        await until_reply(watcher, "w")
        await send(chooser, type="sit", table=table, seat=0, buy_in=2_000,
                   wait_for_big_blind=False)  # fmt: skip
        runner = demo.server.hosting.tables[table]
        await demo.server.hosting.add_house_bots(runner, {1: ("bot", "calling-station")}, 2_000)
        asked = await until_reply_type(chooser, "game_choice")
        told = await until_reply_type(watcher, "game_choosing")
        assert (told["seat"], told["seconds"]) == (asked["seat"], 5)
        last_seq = runner.seq
        await chooser.close()
        again = await connect(f"ws://{demo.address}/ws")
        await send(again, type="hello", session=session)
        await until_reply_type(again, "welcome")
        await send(again, type="resume", table=table, last_seq=last_seq)
        await until_reply_type(again, "resumed")
        reasked = await until_reply_type(again, "game_choice")
        assert reasked["games"] == ["razz", "5cd"] and 0 < reasked["seconds"] < 5
        await send(again, type="choose_game", table=table, game="5cd", id="p")
        assert (await until_reply(again, "p"))["type"] == "game_chosen"
        await again.close()
        await watcher.close()


async def until_reply_type(ws: ClientConnection, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message  # type: ignore[no-any-return]


async def test_game_changes_come_in_their_place_for_a_delayed_spectator_and_on_the_bus(
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
                 if m["type"] in ("game_changed", "deck_commitment")
                 or (m["type"] == "event" and m["event"]["type"] == "hand_ended")]  # fmt: skip
        assert order[:5] == [("deck_commitment", 1), ("event", 1), ("game_changed", 2),
                             ("deck_commitment", 2), ("event", 2)]  # fmt: skip
        changes = [json.loads(p) for p in published if b'"type":"game_changed"' in p]
        assert [c["summary"]["game"]["key"] for c in changes][:2] == ["flo8", "razz"]
        await host.close()
