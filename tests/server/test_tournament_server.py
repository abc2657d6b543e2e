"""Tournaments scheduled on a running server, played by bots over websockets: the same
hands and results as in-process bots with the same seed, standings to the players and on
MQTT, every hand on MQTT too (the real Mosquitto at 127.0.0.1:1883, under a topic root of
the test's own, with another deployment's finished tournaments retained on the default
topics), and bad requests refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.app import PokerServer, ServerSettings
from server.bots import CallingStation, RandomBot, TightAggressive
from server.bots.tournament_client import TournamentClient
from server.cli import main
from server.store import Store
from server.tournaments.director import (
    BotAgent,
    Entrant,
    Format,
    TournamentConfig,
    TournamentDirector,
    make_bot,
)
from tests.helpers import ask
from tests.server.mqtt import MOSQUITTO, hands_published, listening, test_bus

pytestmark = pytest.mark.usefixtures("foreign_deployment")

FIELD = {
    "tag": TightAggressive,
    "station": CallingStation,
    "rnd": RandomBot,
    "tag2": TightAggressive,
}


async def test_bots_over_websockets_play_the_tournament_in_process_bots_play(
    tmp_path: Path,
) -> None:
    seed = "same-everywhere"
    config = TournamentConfig(Format.SNG, seed=seed, seats=6)
    local = [Entrant(n, BotAgent(make_bot(k, seed, n))) for n, k in FIELD.items()]
    expected = (await TournamentDirector(config, local).run()).to_json()

    async with (
        Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store,
        test_bus(await store.deployment()) as bus,
    ):
        server = PokerServer(store, ServerSettings(port=0), bus=bus)
        async with server.running(), connect(server.hosting.address) as admin:
            await ask(admin, {"type": "hello", "name": "organizer"})
            created = await ask(admin, {
                "type": "create_tournament", "name": "Same", "format": "sng", "field": 4,
                "seed": seed, "seats": 6, "decision_seconds": 5,
            })  # fmt: skip
            assert created["type"] == "tournament_created", created
            tid = created["tournament"]["id"]
            listed = (await ask(admin, {"type": "list_tournaments"}))["tournaments"]
            assert [(t["id"], t["state"], t["field"]) for t in listed] == [(tid, "registering", 4)]
            topic = bus.topics.tournament(tid)
            hands = f"{bus.topics.prefix}/hands/+"
            async with listening(MOSQUITTO, topic) as heard, listening(MOSQUITTO, hands) as told:
                clients = [
                    TournamentClient(make_bot(k, seed, n), server.hosting.address, tid, name=n)
                    for n, k in FIELD.items()
                ]
                async with asyncio.timeout(120):
                    outcomes = await asyncio.gather(*(c.run() for c in clients))
                    # The last message: standings marked finished come just before it.
                    while not any(json.loads(p)["type"] == "tournament_finished"
                                  for _, p, _ in heard.messages if p):  # fmt: skip
                        await asyncio.sleep(0.05)
                # Every hand it stored went on hands/{id}, as a cash table's do.
                played = [h for h in await store.list_hands(limit=100_000)
                          if h.table.startswith(f"tournament-{tid}-")]  # fmt: skip
                assert played
                await hands_published(told, bus.topics.prefix, {h.id for h in played})
            stored = await store.tournament(tid)
    final = [
        {k: s[k] for k in ("place", "name", "prize", "chips", "hands")}
        for s in expected["standings"]
    ]
    assert all(o.state == "finished" and o.standings == final for o in outcomes)
    assert all(not o.errors and o.decisions > 0 for o in outcomes)
    assert stored["results"] == json.loads(json.dumps(expected))  # hand for hand: winnings
    published = [json.loads(p) for _, p, _ in heard.messages if p]
    (finished,) = [m for m in published if m["type"] == "tournament_finished"]
    assert finished["standings"] == final and finished["state"] == "finished"
    assert len(published) > 1  # standings after the hands, not only at the end


async def test_bad_tournament_requests_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running(), connect(server.hosting.address) as ws:
            assert (await ask(ws, {"type": "register", "tournament": 1}))["code"] == "hello_first"
            await ask(ws, {"type": "hello", "name": "eve"})
            cases: list[tuple[dict[str, Any], str]] = [
                ({"type": "register", "tournament": 99}, "no_tournament"),
                ({"type": "create_tournament", "name": "x", "field": 12, "seats": 9}, "refused"),
                # Refused as the director would refuse it at the start: one table of 9.
                ({"type": "create_tournament", "name": "x", "format": "ring", "field": 10},
                 "refused"),
                ({"type": "create_tournament", "name": "x", "field": 4, "duplicate": True},
                 "refused"),
                ({"type": "create_tournament", "name": "x", "field": 1}, "bad_message"),
                ({"type": "act", "table": "t1-table-1", "action_id": "a", "action": "fold"},
                 "no_tournament"),
            ]  # fmt: skip
            for message, code in cases:
                assert (await ask(ws, message))["code"] == code, message
            created = await ask(ws, {"type": "create_tournament", "name": "x", "field": 2})
            tid = created["tournament"]["id"]
            # The seed decides every deck: nobody sees it before the tournament is over.
            assert "seed" not in created["tournament"]["settings"]
            assert server.tournaments.get(tid).config.seed not in json.dumps(created)
            assert (await ask(ws, {"type": "unregister", "tournament": tid}))["code"] == (
                "not_registered"
            )
            registered = await ask(ws, {"type": "register", "tournament": tid})
            assert registered["registered"] == ["eve"]
            act = {"type": "act", "table": f"t{tid}-table-1", "action_id": "a", "action": "fold"}
            assert (await ask(ws, act))["code"] == "not_your_turn"
            left = await ask(ws, {"type": "unregister", "tournament": tid})
            assert left["registered"] == []
            assert server.tournaments.get(tid).state == "registering"


async def test_pokerroom_bot_run_plays_a_tournament_to_the_end(tmp_path: Path, capsys: Any) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running(), connect(server.hosting.address) as ws:
            await ask(ws, {"type": "hello", "name": "organizer"})
            created = await ask(ws, {"type": "create_tournament", "name": "cli", "field": 2,
                                     "format": "ring", "hands": 20})  # fmt: skip
            tid = str(created["tournament"]["id"])

            def play(spec: str, name: str) -> int:
                argv = ["bot", "run", spec, "--url", server.hosting.address, "--tournament", tid,
                        "--name", name, "--json", "-q"]  # fmt: skip
                return main(argv)

            async with asyncio.timeout(60):
                codes = await asyncio.gather(
                    asyncio.to_thread(play, "tight-aggressive", "cli-tag"),
                    asyncio.to_thread(play, "calling-station", "cli-station"),
                )
    assert codes == [0, 0]
    outputs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["state"] for o in outputs] == ["finished", "finished"]
    standings = outputs[0]["standings"]
    assert {s["name"] for s in standings} == {"cli-tag", "cli-station"}
    assert all(s["hands"] == 20 for s in standings)
    assert sum(s["chips"] for s in standings) == 0  # a ring match moves chips only


async def test_a_horse_tournament_over_websockets_plays_as_in_process(tmp_path: Path) -> None:
    from tests.server.test_tournaments import AnyGame  # a player of every game's menus

    seed = "horse-everywhere"
    names = ["a", "b", "c"]
    config = TournamentConfig(Format.SNG, seed=seed, mix="horse", seats=6, starting_stack=2000)
    local = [Entrant(n, BotAgent(AnyGame(i))) for i, n in enumerate(names)]
    expected = (await TournamentDirector(config, local).run()).to_json()
    assert expected["hands"] > 40  # every game of HORSE, and round again

    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running(), connect(server.hosting.address) as admin:
            await ask(admin, {"type": "hello", "name": "organizer"})
            created = await ask(admin, {
                "type": "create_tournament", "name": "HORSE", "format": "sng", "field": 3,
                "seed": seed, "seats": 6, "mix": "horse", "stack": 2000, "decision_seconds": 5,
            })  # fmt: skip
            assert created["type"] == "tournament_created", created
            tid = created["tournament"]["id"]
            assert created["tournament"]["settings"]["mix"] == "horse"
            clients = [
                TournamentClient(AnyGame(i), server.hosting.address, tid, name=n)
                for i, n in enumerate(names)
            ]
            async with asyncio.timeout(120):
                outcomes = await asyncio.gather(*(c.run() for c in clients))
            stored = await store.tournament(tid)
    assert all(o.state == "finished" and not o.errors for o in outcomes)
    assert stored["results"] == json.loads(json.dumps(expected))  # hand for hand
    assert stored["results"]["unit"] == "big bets"


async def test_a_game_or_mix_a_tournament_cannot_play_is_refused(tmp_path: Path) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0))
        async with server.running(), connect(server.hosting.address) as ws:
            await ask(ws, {"type": "hello", "name": "eve"})
            base = {"type": "create_tournament", "name": "x", "field": 4}
            cases: list[tuple[dict[str, Any], str]] = [
                ({"game": "holdem"}, "refused"),
                ({"game": "stud", "mix": "horse"}, "refused"),
                ({"mix": "hors"}, "bad_message"),
                ({"game": "27td", "field": 7, "seats": 9}, "refused"),  # 2-7 seats six
                ({"mix": "8game", "field": 7, "seats": 9}, "refused"),
            ]
            for extra, code in cases:
                reply = await ask(ws, {**base, **extra})
                assert reply["code"] == code, (extra, reply)
            assert server.tournaments.hosts == {}
