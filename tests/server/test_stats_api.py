"""The protocol's ``stats``: the figures of server.stats over stored hands, as a spectator
saw them, computed off the event loop, filtered, bounded and refused when asked too often."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from engine import history
from server.stats import facts, facts_of_info, player_stats
from server.stats.service import BUDGET, MAX_HANDS, Limits
from server.store import Store, hand_rows
from tests.server.conftest import Demo, demo_server, play_hands

RANDOM = [f"r{i}" for i in range(6)]


async def store_random_hands(
    store: Store, count: int, *, table: str = "random", seed: int = 5
) -> None:
    """``count`` hands of random play (all-ins included) at ``table``, players r0..r5."""
    ids = await store.ensure_players(RANDOM)
    table_id = await store.ensure_table(table, {})
    now = dt.datetime.now(dt.UTC)
    rows = [
        hand_rows(h, table_id=table_id, player_ids=[ids[RANDOM[s]] for s in h.seats],
                  names=[RANDOM[s] for s in h.seats], started_at=now, ended_at=now)
        for h in play_hands(count, seed=seed)
    ]  # fmt: skip
    await store.write_hands(rows)


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with demo_server(tmp_path / "stats.db", seats=6, bots=4) as demo:
        await store_random_hands(demo.server.store, 40)
        yield demo


async def ask(ws: ClientConnection, **message: Any) -> dict[str, Any]:
    """Send a message with an id and return its reply (other messages skipped)."""
    message.setdefault("id", "q")
    await ws.send(json.dumps(message))
    async with asyncio.timeout(120):
        while True:
            reply: dict[str, Any] = json.loads(await ws.recv())
            if reply.get("re") == message["id"]:
                return reply


async def expected(
    store: Store, players: list[str], *, table: str, last: int, public: bool = True
) -> dict[str, Any]:
    """server.stats over the newest ``last`` hands of ``table`` in which one of
    ``players`` played, from the histories as a spectator saw them (``public``) or with
    every card."""
    summaries = [
        h for h in await store.list_hands(table=table, limit=10_000)
        if any(name in players for name, _ in h.players)
    ][:last]  # fmt: skip
    infos = [await store.hand_info(h.id) for h in reversed(summaries)]
    if public:
        seen = [history.redact(i.history, None) for i in infos]
        hands = [
            facts(i.players, s, history.replay(s), budget=BUDGET)
            for i, s in zip(infos, seen, strict=True)
        ]
    else:
        hands = [facts_of_info(i) for i in infos]
    return {name: s.as_json() for name, s in player_stats(hands).items()}


async def test_the_figures_are_server_stats_over_the_hands_as_a_spectator_saw_them(
    demo: Demo,
) -> None:
    store = demo.server.store
    async with connect(f"ws://{demo.address}/ws") as ws:  # no hello: the figures are public
        reply = await ask(ws, type="stats", players=["r0", "r3"], table="random", last=30)
    assert reply["type"] == "stats"
    assert [reply[k] for k in ("hands", "table", "game", "last")] == [30, "random", None, 30]
    newest = await store.list_hands(table="random", limit=1)
    assert reply["newest"] == newest[0].id
    public = await expected(store, ["r0", "r3"], table="random", last=30)
    assert reply["players"] == [public["r0"], public["r3"]]
    # Every count is the CLI's (all cards known); the all-in adjustment is not, since it
    # must not count the folded players' cards nobody saw as out of the deck.
    full = await expected(store, ["r0", "r3"], table="random", last=30, public=False)
    adjusted = ("adjusted_net", "adjusted_bb_per_100", "adjusted_big_bets_per_100")
    for row in reply["players"]:
        same = {k: v for k, v in full[row["name"]].items() if k not in adjusted}
        assert {k: v for k, v in row.items() if k not in adjusted} == same
    assert any(r["adjusted_net"] != full[r["name"]]["adjusted_net"] for r in reply["players"])
    assert all(r["adjusted_hands"] > 0 for r in reply["players"])


async def test_filters_narrow_the_hands(demo: Demo) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        everyone = await ask(ws, type="stats", table="random")
        assert everyone["hands"] == 40 and everyone["last"] == 1000
        assert sorted(p["name"] for p in everyone["players"]) == RANDOM
        assert everyone["players"] == list((await expected(
            demo.server.store, RANDOM, table="random", last=40)).values())  # fmt: skip
        few = await ask(ws, type="stats", players=["r1"], last=5)  # any table
        assert (few["hands"], few["players"][0]["hands"]) == (5, 5)
        # The game by key or by PHH code; another game has none of these hands.
        holdem = await ask(ws, type="stats", players=["r1"], game="NT", table="random")
        r1 = next(p for p in everyone["players"] if p["name"] == "r1")
        assert (holdem["game"], holdem["hands"], holdem["players"]) == ("nlhe", r1["hands"], [r1])
        omaha = await ask(ws, type="stats", players=["r1"], game="plo")
        assert omaha["hands"] == 0
        assert omaha["players"] == [
            {**omaha["players"][0], "hands": 0, "vpip": None, "bb_per_100": None}
        ]
        nobody = await ask(ws, type="stats", players=["nobody", "r2"], table="random", last=3)
        assert [p["name"] for p in nobody["players"]] == ["nobody", "r2"]
        assert [p["hands"] for p in nobody["players"]] == [0, 3]
        elsewhere = await ask(ws, type="stats", players=["r2"], table="demo")
        assert elsewhere["players"][0]["hands"] == 0


@pytest.mark.parametrize(
    ("message", "code", "text"),
    [
        ({"last": 0}, "bad_message", "stats: last: Input should be greater than or equal to 1"),
        ({"last": 5001}, "bad_message", "stats: last: Input should be less than or equal to 5000"),
        ({"last": "10"}, "bad_message", "stats: last: Input should be a valid integer"),
        ({"players": ["no spaces"]}, "bad_message", "stats: players.0: String should match"),
        ({"players": [f"p{i}" for i in range(11)]}, "bad_message", "stats: players: List should"),
        ({"table": "a/b"}, "bad_message", "stats: table: String should match"),
        ({"colour": "red"}, "bad_message", "stats: colour: Extra inputs are not permitted"),
        ({"game": "chess"}, "refused", "unknown game 'chess'"),
    ],
)
async def test_bad_input_gets_the_protocols_errors(
    demo: Demo, message: dict[str, Any], code: str, text: str
) -> None:
    async with connect(f"ws://{demo.address}/ws") as ws:
        reply = await ask(ws, type="stats", **message)
    assert (reply["type"], reply["code"]) == ("error", code)
    assert reply["message"].startswith(text)


async def test_requests_over_the_limits_are_refused(demo: Demo) -> None:
    demo.server.stats.limits = Limits(per_minute=2)
    async with connect(f"ws://{demo.address}/ws") as ws:
        assert (await ask(ws, type="stats", table="random", last=3))["type"] == "stats"
        again = await ask(ws, type="stats", table="random", last=3)  # answered from the cache
        assert again["hands"] == 3
        refused = await ask(ws, type="stats", table="random", last=3)
    assert refused["code"] == "too_many_stats"
    assert refused["message"] == "at most 2 stats requests a minute"


async def test_a_big_request_does_not_hold_up_another_tables_play(tmp_path: Path) -> None:
    async with demo_server(tmp_path / "busy.db", seats=4, bots=4) as demo:
        # Random play goes all in often: most of these hands enumerate a run-out.
        await store_random_hands(demo.server.store, 80, table="big")
        async with (
            connect(f"ws://{demo.address}/ws") as ws,
            connect(f"ws://{demo.address}/ws") as watcher,
        ):
            await watcher.send(json.dumps({"type": "spectate", "table": "demo"}))
            ended: list[float] = []

            async def watch() -> None:
                while True:
                    m = json.loads(await watcher.recv())
                    if m.get("type") == "event" and m["event"]["type"] == "hand_ended":
                        ended.append(time.monotonic())

            watching = asyncio.create_task(watch())
            started = time.monotonic()
            reply = await ask(ws, type="stats", table="big", last=80)
            took = time.monotonic() - started
            watching.cancel()
    assert reply["hands"] == 80 and reply["players"][0]["adjusted_hands"] > 15
    during = [t for t in ended if started <= t <= started + took]
    assert took > 0.2  # a real computation (a cached answer takes about a millisecond)
    assert len(during) >= 5, (took, len(during))
    gaps = [b - a for a, b in itertools.pairwise(during)]
    assert max(gaps) < 1.0, gaps


def test_the_limits_table_gives_the_services_numbers() -> None:
    limits, doc = Limits(), (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    rows = [
        f"| `stats` requests from one address | {limits.per_minute} a minute, "
        f"{limits.at_once} at once | `too_many_stats` |",
        f"| `stats` requests being computed, in all | {limits.in_all} | `too_many_stats` |",
        f"| hands one `stats` counts | {MAX_HANDS:,} (`last`) | `bad_message` |",
    ]
    assert [row for row in rows if row not in doc] == []


async def test_requests_for_the_same_hands_at_once_replay_each_hand_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two requests for the same hands (another ``since``: not one answer kept for both),
    taking turns chunk by chunk, share the replaying: each hand is replayed once."""
    from server.stats import service

    replayed: list[int] = []

    def counted(players: Any, *args: Any, **kwargs: Any) -> Any:
        replayed.append(1)
        return facts(players, *args, **kwargs)

    monkeypatch.setattr(service, "facts", counted)
    monkeypatch.setattr(service, "CHUNK", 5)
    async with Store.open("sqlite+aiosqlite:///:memory:") as store:
        await store_random_hands(store, 30, table="shared")
        key = "shared-test"
        monday = dt.datetime(2000, 1, 3, tzinfo=dt.UTC)
        steps: list[Any] = [
            await service._prepare(store, key, service.Query(table="shared", since=s), False)
            for s in (None, monday)
        ]
        while any(isinstance(step, str) for step in steps):
            steps = [
                await service._advance(store, key, s) if isinstance(s, str) else s for s in steps
            ]
    first, second = steps
    assert first["hands"] == second["hands"] == 30
    assert first["players"] == second["players"]
    assert len(replayed) == 30  # 55 before: the second replayed all but the first chunk
