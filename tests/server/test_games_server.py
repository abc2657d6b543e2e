"""Every game at a server table, over the protocol: ``create_table`` takes a game and its
stakes, the lobby shows them, the menu offers bring-ins, completions and draws, ``act``
plays them, hidden cards stay hidden, and the stored hands say their game."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection

import engine
from engine import GAMES
from server.app import PokerServer, ServerSettings
from server.store import Store
from tests.server.clients import connect, send, until
from tests.server.conftest import demo_server

STUD = {"game": "stud", "ante": 5, "ante_kind": "per_player", "bring_in": 10,
        "small_bet": 40, "big_bet": 80}  # fmt: skip


async def hello(address: str, name: str) -> ClientConnection:
    ws = await connect(f"ws://{address}/ws")
    await send(ws, type="hello", name=name)
    await until(ws, "welcome")
    return ws


async def create(ws: ClientConnection, **fields: Any) -> dict[str, Any]:
    await send(ws, type="create_table", id="c", **{"name": "Home", "seats": 2, **fields})
    return await until_reply(ws, "c")


async def until_reply(ws: ClientConnection, re_: str) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            message = json.loads(await ws.recv())
            if message.get("re") == re_:
                return message  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"game": "omaha-ish", "big_blind": 2}, "unknown game 'omaha-ish'; the games are nlhe"),
        ({**STUD, "big_blind": 100, "small_blind": 50}, "Seven-card stud has no blinds"),
        ({"game": "plo"}, "blinds must satisfy"),
        ({"game": "nlhe", "big_blind": 2, "cap": 4}, "only fixed-limit games cap raises"),
        ({"game": {"key": "x"}, "big_blind": 2}, "game definition: missing 'streets'"),
    ],
)
async def test_a_table_that_does_not_fit_its_game_is_refused_by_name(
    tmp_path: Path, fields: dict[str, Any], problem: str
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        ws = await hello(demo.address, "host")
        reply = await create(ws, **fields)
        assert reply["type"] == "error" and reply["code"] == "refused"
        assert problem in reply["message"]
        await ws.close()


async def test_the_lobby_shows_each_tables_game_and_stakes(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        ws = await hello(demo.address, "host")
        stud = (await create(ws, **STUD))["table"]
        assert stud["game"] == GAMES["stud"].to_dict()
        assert (stud["betting"], stud["bring_in"], stud["small_bet"], stud["big_bet"]) == (
            "fixed-limit", 10, 40, 80,
        )  # fmt: skip
        assert (stud["small_blind"], stud["big_blind"], stud["unit"]) == (0, 0, 40)
        capped = (await create(ws, game="flhe", small_blind=1, big_blind=2, cap=5))["table"]
        assert capped["game"]["key"] == "flhe-cap5"
        assert {s["max_raises"] for s in capped["game"]["streets"]} == {5}
        mine = {**GAMES["5cd"].to_dict(), "key": "mine", "name": "My draw", "code": "MD"}
        own = (await create(ws, game=mine, small_blind=1, big_blind=2))["table"]
        assert own["game"]["name"] == "My draw"
        await send(ws, type="list_tables", id="l")
        lines = {t["id"]: t for t in (await until_reply(ws, "l"))["tables"]}
        assert lines["demo"]["game"]["key"] == "nlhe"
        assert lines[stud["id"]]["game"]["key"] == "stud"
        await ws.close()


async def play(ws: ClientConnection, table: str, choose: Any, hands: int) -> list[dict[str, Any]]:
    """Answer every action request with ``choose(menu, view_cards)`` until ``hands``
    hands have ended; every message received."""
    seen: list[dict[str, Any]] = []
    mine: list[str] = []
    ended = 0
    async with asyncio.timeout(60):
        while ended < hands:
            message = json.loads(await ws.recv())
            seen.append(message)
            if message["type"] == "event":
                event = message["event"]
                if event["type"] == "hand_started":
                    mine = []
                elif event["type"] in ("hole_cards_dealt", "up_cards_dealt") and event["cards"]:
                    mine += event["cards"] if event.get("seat") == seat_of(seen) else []
                elif event["type"] == "cards_drawn" and event["seat"] == seat_of(seen):
                    mine = [c for c in mine if c not in event["discarded"]] + event["drawn"]
                elif event["type"] == "hand_ended":
                    ended += 1
            elif message["type"] == "error":
                raise AssertionError(f"{message} (holding {mine})")
            elif message["type"] == "action_request":
                action = choose(message["menu"], mine)
                await send(ws, type="act", table=table, action_id=f"a{message['seq']}",
                           seq=message["seq"], **action)  # fmt: skip
    return seen


def seat_of(seen: list[dict[str, Any]]) -> int | None:
    return next((m["seat"] for m in seen if m["type"] == "seated"), None)


def events(seen: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m["event"] for m in seen if m["type"] == "event" and m["event"]["type"] == kind]


async def sit_two(address: str, table: str, buy_in: int) -> tuple[ClientConnection, ...]:
    players = []
    for n, name in enumerate(("ann", "bob")):
        ws = await hello(address, name)
        await send(ws, type="sit", table=table, seat=n, buy_in=buy_in, wait_for_big_blind=False)
        players.append(ws)
    return tuple(players)


def passive(menu: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """Bring in when due, draw the first card, else check or call."""
    if menu["can_draw"]:
        return {"action": "draw", "discard": cards[:1]}
    if menu["can_bring_in"]:
        return {"action": "bring_in"}
    return {"action": "check" if menu["can_check"] else "call"}


@pytest.mark.parametrize(
    ("fields", "buy_in"),
    [
        (STUD, 2_000),
        ({"game": "27td", "small_blind": 5, "big_blind": 10}, 400),
        ({"game": "dice", "small_blind": 5, "big_blind": 10}, 400),
        (
            {"game": "razz", "ante": 5, "ante_kind": "per_player", "bring_in": 10, "small_bet": 40},
            2_000,
        ),
        ({"game": "shortdeck", "small_blind": 5, "big_blind": 10}, 400),
        ({"game": "leduc", "ante": 1, "ante_kind": "per_player", "small_bet": 2}, 100),
        ({"game": "5cd-bug", "small_blind": 5, "big_blind": 10}, 400),
    ],
    ids=["stud", "27td", "dice", "razz", "shortdeck", "leduc", "5cd-bug"],
)
async def test_two_players_play_a_game_over_the_protocol(
    tmp_path: Path, fields: dict[str, Any], buy_in: int
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        table = (await create(host, **fields))["table"]["id"]
        ann, bob = await sit_two(demo.address, table, buy_in)
        seen_ann, seen_bob = await asyncio.gather(
            play(ann, table, passive, 2), play(bob, table, passive, 2)
        )
        game = engine.game(fields["game"])
        for seen, me in ((seen_ann, 0), (seen_bob, 1)):
            for dealt in events(seen, "hole_cards_dealt"):
                assert (dealt["cards"] is not None) == (dealt["seat"] == me)
            for drawn in events(seen, "cards_drawn"):
                hidden = drawn["seat"] != me and not drawn["face_up"]
                assert drawn["count"] == 1
                assert (drawn["drawn"] is None) == hidden
            if game.up_cards and not game.deck.dice:
                ups = events(seen, "up_cards_dealt")
                assert {u["seat"] for u in ups} == {0, 1} and all(u["cards"] for u in ups)
            if game.bring_in:
                kinds = [a["kind"] for a in events(seen, "action_taken")]
                assert "bring_in" in kinds
            if game.draws:
                assert events(seen, "cards_drawn")
            ended = events(seen, "hand_ended")
            assert len(ended) == 2 and sum(s for _, s in ended[-1]["stacks"]) == 2 * buy_in
        async with asyncio.timeout(10):
            while len(await demo.server.store.list_hands(game=game.key)) < 2:
                await asyncio.sleep(0.05)
        for ws in (host, ann, bob):
            await ws.close()


async def test_a_draw_names_cards_the_player_holds_and_a_bad_one_is_refused(
    tmp_path: Path,
) -> None:
    async with demo_server(tmp_path / "s.db", bots=0) as demo:
        host = await hello(demo.address, "host")
        table = (await create(host, game="5cd", small_blind=5, big_blind=10))["table"]["id"]
        ann, bob = await sit_two(demo.address, table, 400)
        errors: list[str] = []

        async def player(ws: ClientConnection) -> None:
            mine: list[str] = []
            async with asyncio.timeout(30):
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "event":
                        event = message["event"]
                        if event["type"] == "hole_cards_dealt" and event["cards"]:
                            mine = event["cards"]
                        if event["type"] == "hand_ended":
                            return
                    if message["type"] == "error":
                        errors.append(f"{message['code']}: {message['message']}")
                    if message["type"] != "action_request":
                        continue
                    menu, seq = message["menu"], message["seq"]
                    act = {"type": "act", "table": table, "seq": seq}
                    if menu["can_draw"]:
                        held = set(mine)
                        other = next(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"
                                     if f"{r}{s}" not in held)  # fmt: skip
                        await send(ws, **act, action_id=f"x{seq}", action="draw", discard=[other])
                        await send(ws, **act, action_id=f"y{seq}", action="call")
                        await send(ws, **act, action_id=f"z{seq}", action="draw", discard=["Zz"])
                        await send(ws, **act, action_id=f"d{seq}", action="draw", discard=[])
                    else:
                        action = "check" if menu["can_check"] else "call"
                        await send(ws, **act, action_id=f"a{seq}", action=action)

        await asyncio.gather(player(ann), player(bob))
        assert any(e.startswith("illegal: ") and "not in the hand" in e for e in errors), errors
        assert any(e.startswith("illegal: ") and "must draw" in e for e in errors), errors
        assert any(e.startswith("bad_action: draw: ") and "'Zz'" in e for e in errors), errors
        for ws in (host, ann, bob):
            await ws.close()


async def test_a_player_who_does_not_answer_a_draw_stands_pat(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "s.db", bots=0, decision_seconds=0.3,
                           time_bank_seconds=0.0) as demo:  # fmt: skip
        host = await hello(demo.address, "host")
        table = (
            await create(host, game="27td", small_blind=5, big_blind=10, decision_seconds=0.3,
                         time_bank_seconds=0)
        )["table"]["id"]  # fmt: skip
        ann, bob = await sit_two(demo.address, table, 400)

        def calls(menu: dict[str, Any], cards: list[str]) -> dict[str, Any]:
            return (
                {"action": "draw", "discard": []}
                if menu["can_draw"]
                else ({"action": "check" if menu["can_check"] else "call"})
            )

        async def silent(ws: ClientConnection) -> list[dict[str, Any]]:
            seen: list[dict[str, Any]] = []
            async with asyncio.timeout(30):
                while not any(e["type"] == "cards_drawn" for e in events(seen, "cards_drawn")):
                    seen.append(json.loads(await ws.recv()))
            return seen

        playing = asyncio.create_task(play(ann, table, calls, 1))
        seen = await silent(bob)
        drawn = events(seen, "cards_drawn")
        assert drawn and all(d["count"] == 0 for d in drawn)
        playing.cancel()
        for ws in (host, ann, bob):
            await ws.close()


async def test_demo_tables_of_several_games_play_with_house_bots(tmp_path: Path) -> None:
    settings = ServerSettings(port=0, demo=True, demo_games="nlhe,stud,27td,dice",
                              house_think_seconds=0.0)  # fmt: skip
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'demo.db'}") as store:
        app = PokerServer(store, settings)
        async with app.running():
            assert sorted(app.hosting.tables) == ["demo", "demo-27td", "demo-dice", "demo-stud"]
            for table_id, key in (("demo-stud", "stud"), ("demo-27td", "27td")):
                runner = app.hosting.tables[table_id]
                assert runner.core.table.config.game.key == key
                assert (
                    len(runner.core.house.bots) == 5 and 5 not in runner.core.seats.occupants
                )  # a seat for you
            async with asyncio.timeout(30):
                while {h.game for h in await store.list_hands(limit=200)} != {
                    "nlhe", "stud", "27td", "dice",
                }:  # fmt: skip
                    await asyncio.sleep(0.05)


def test_demo_games_must_be_games() -> None:
    with pytest.raises(ValueError, match="demo-games: unknown game 'chess'"):
        ServerSettings(demo_games="nlhe,chess")
    with pytest.raises(ValueError, match="give game keys, comma-separated"):
        ServerSettings(demo_games="nlhe,nlhe")
