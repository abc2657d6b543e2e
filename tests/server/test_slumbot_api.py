"""The Slumbot-style HTTP API, played by a client written from its description
(tests/server/slumbot_client.py) against a server started here."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import func, select

from engine import BetOrRaiseTo, Fold, history
from server.app import PokerServer, ServerSettings
from server.bots import STRATEGIES, TightAggressive
from server.bus import LocalBus
from server.export import phh
from server.fairness import verify_stored
from server.store import Store
from server.store.models import Player as PlayerRow
from server.tournaments.director import make_bot
from tests.helpers import serve_api
from tests.server.mqtt import MOSQUITTO, hands_published, listening, test_bus
from tests.server.slumbot_client import (
    STACK_SIZE,
    SlumbotClient,
    check_response,
    parse_action,
    random_incr,
)


@dataclass
class Api:
    server: PokerServer
    store: Store
    client: SlumbotClient


@contextlib.asynccontextmanager
async def api_server(db: Path, *, mqtt: bool = False, **settings: Any) -> AsyncIterator[Api]:
    """A server with the API (``mqtt``: publishing to the shared Mosquitto, under a topic
    root of its own)."""
    async with Store.open(f"sqlite+aiosqlite:///{db}") as store, contextlib.AsyncExitStack() as on:
        bus = await on.enter_async_context(test_bus(await store.deployment())) if mqtt else None
        server = PokerServer(store, ServerSettings(port=0, **settings), bus=bus or LocalBus())
        async with server.running(), aiohttp.ClientSession() as http:
            assert server.api_address is not None
            yield Api(server, store, SlumbotClient(http, server.api_address))


UNPACED: dict[str, Any] = {
    "api_requests_per_second": 1e4, "api_burst": 10_000,
    "api_requests_per_second_in_all": 1e4,
    "api_session_requests_per_second": 1e4, "api_session_burst": 10_000,
}  # fmt: skip
"""The API's request rates out of the way: these tests play hundreds of hands for their
results, not for the pacing (tests/server/test_slumbot_hostile.py holds it to that)."""


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with api_server(tmp_path / "api.db", **UNPACED) as found:
        yield found


async def play_hand(
    client: SlumbotClient, token: str | None, rng: random.Random, **extra: Any
) -> dict[str, Any]:
    """One hand of random legal actions; every response checked. The last response."""
    r = await client.new_hand(token, **extra)
    state = check_response(r)
    while "winnings" not in r:
        incr = random_incr(state, rng)
        before = r["action"]
        r = await client.act(r["token"], incr)
        state = check_response(r)
        assert r["old_action"] == before
        assert r["action"].startswith(before + incr.rstrip("/")), (before, incr, r)
    check_result(r)
    return r


def check_result(r: dict[str, Any]) -> None:
    """The winnings follow from the action string where they can without the cards: a
    fold; otherwise the pot's half either way, or nothing (a split)."""
    state = parse_action(r["action"])
    me, bot = r["client_pos"], 1 - r["client_pos"]
    if state.folded is not None:
        loss = state.contributed[state.folded]
        assert r["winnings"] == (-loss if state.folded == me else loss)
        assert "bot_hole_cards" not in r
    else:
        assert state.contributed[me] == state.contributed[bot]
        assert r["winnings"] in (state.contributed[me], -state.contributed[me], 0)
        assert len(r["board"]) == 5 and len(r["bot_hole_cards"]) == 2


async def test_a_random_client_plays_hundreds_of_hands_each_stored_chip_exact(api: Api) -> None:
    rng = random.Random(21)
    token: str | None = None
    results: list[dict[str, Any]] = []
    for number in range(1, 301):
        opponent = "random" if number % 3 else "tight-aggressive"
        r = await play_hand(api.client, token, rng, opponent=opponent)
        token = r["token"]
        assert r["session_num_hands"] == number
        assert r["client_pos"] == (1 if number % 2 else 0)  # the button first, then in turn
        results.append(r)
    assert results[-1]["session_total"] == sum(r["winnings"] for r in results)
    assert results[-1]["session_baseline_total"] == sum(r["baseline_winnings"] for r in results)
    assert {len(r["action"].split("/")) for r in results} == {1, 2, 3, 4}
    assert any(r["action"].endswith("///") for r in results)  # all in preflop, called
    for r in results:  # chip-exact with the store
        info = await api.store.hand_info(r["hand_id"])
        replay = info.replay()
        me = r["client_pos"]
        hand = replay.hand
        assert hand.stacks[me] - hand.setup.stacks[me] == r["winnings"]
        assert info.players[me].startswith("api-guest-")
        assert info.players[1 - me] == f"house-{r['opponent']}"
        assert info.table_name.startswith("api-")
    diffs = [r["winnings"] - r["baseline_winnings"] for r in results]
    raw = statistics.pstdev(r["winnings"] for r in results)
    adjusted = statistics.pstdev(r["adjusted_winnings"] for r in results)
    print(
        f"\nrandom client, 300 hands: sd of winnings {raw:.0f}, of winnings - baseline "
        f"{statistics.pstdev(diffs):.0f}, of adjusted winnings {adjusted:.0f} chips"
    )


async def test_stored_hands_verify_and_export_as_phh(api: Api) -> None:
    rng = random.Random(5)
    token = None
    for _ in range(12):
        r = await play_hand(api.client, token, rng)
        token = r["token"]
        result = await verify_stored(api.store, r["hand_id"])
        assert result.ok, result.message
        info = await api.store.hand_info(r["hand_id"])
        text = phh.render(info)
        again = history.load(text)
        replay = history.replay(again)
        assert list(replay.hand.stacks) == list(info.replay().hand.stacks)
        assert again.fields["_deck_commitment"] == r["deck_commitment"]


async def test_every_stored_api_hand_is_published_on_the_bus(tmp_path: Path) -> None:
    """As a cash table's hands are: ``hands/{id}`` on the real Mosquitto, once stored."""
    rng = random.Random(8)
    async with api_server(tmp_path / "bus.db", mqtt=True, **UNPACED) as api:
        prefix = api.server.bus.topics.prefix
        async with listening(MOSQUITTO, f"{prefix}/hands/+") as heard:
            token, ids = None, set()
            for _ in range(5):
                r = await play_hand(api.client, token, rng)
                token = r["token"]
                ids.add(r["hand_id"])
            await hands_published(heard, prefix, ids)
        (summary,) = heard.json(api.server.bus.topics.hand(r["hand_id"]))
        assert summary["table"].startswith("api-")
        assert summary["deck_commitment"] == r["deck_commitment"]
        assert any(p["name"].startswith("house-") for p in summary["players"]), summary


async def test_illegal_incr_is_refused_and_the_hand_goes_on(api: Api) -> None:
    c = api.client
    r = await c.new_hand()
    while "winnings" in r or r["client_pos"] != 1:  # the small blind, facing the big blind
        r = await c.new_hand(r["token"])
    token, action = r["token"], r["action"]
    cases = {
        "k": "Illegal check", "b150": "Bet too small: the minimum is b200",
        "b20001": "Bet too big: the maximum is b20000", "x": "Unexpected incr",
        "b": "Missing bet size", "cc": "Unexpected incr", "": "Missing incr",
    }  # fmt: skip
    for incr, message in cases.items():
        status, answer = await c.post("/api/act", {"token": token, "incr": incr})
        assert status == 400 and answer["error_msg"].startswith(message), (incr, answer)
    r = await c.act(token, "c/")  # a trailing slash is allowed
    assert r["old_action"] == action and r["action"].startswith("c")
    if "winnings" not in r:
        state = check_response(r)
        if state.last_bet_size == 0:
            status, answer = await c.post("/api/act", {"token": token, "incr": "f"})
            assert status == 400 and answer["error_msg"].startswith("Illegal fold")
            status, answer = await c.post("/api/act", {"token": token, "incr": "c"})
            assert status == 400 and answer["error_msg"].startswith("Illegal call")
        r = await c.act(token, "f" if state.last_bet_size else "k")
    while "winnings" not in r:
        r = await c.act(token, "f" if parse_action(r["action"]).last_bet_size else "k")
    status, answer = await c.post("/api/act", {"token": token, "incr": "k"})
    assert (status, answer["error_msg"]) == (400, "no hand in progress: call new_hand")


async def test_malformed_requests_get_clear_errors(api: Api) -> None:
    c = api.client
    expected = [
        ("/api/act", b"{not json", 400, "body is not JSON"),
        ("/api/act", b"[1, 2]", 400, "body must be a JSON object"),
        ("/api/act", b"[" * 4000, 400, "body is not JSON"),
        ("/api/act", b"\xff\xfe{}", 400, "body is not JSON"),
        ("/api/act", {"token": ["x"], "incr": "c"}, 400, "token must be a string"),
        ("/api/new_hand", {"opponent": ["x"]}, 400, "unknown opponent ['x']"),
        ("/api/act", {"token": "nope", "incr": "c"}, 400, "unknown token"),
        ("/api/new_hand", {"token": "nope"}, 400, "unknown token"),
        ("/api/new_hand", {"opponent": "slumbot"}, 400, "unknown opponent 'slumbot': give one"),
        ("/api/act", {"incr": "c"}, 400, "token must be a string"),
        ("/api/login", {"username": "x", "password": "y"}, 400, "login: wrong username"),
        ("/api/nothing", {}, 404, "no endpoint '/api/nothing'"),
        ("/api/act", b"x" * 5000, 413, "body too large: at most 4096 bytes"),
    ]
    for path, body, status, message in expected:
        got, answer = await c.post(path, body)
        assert got == status and answer["error_msg"].startswith(message), (path, answer)
    async with c.http.get(c.base + "/api/new_hand") as response:
        assert response.status == 405
        assert (await response.json())["error_msg"] == "method GET not allowed: use POST"
    r = await c.new_hand()  # nothing above disturbed the API
    check_response(r)


async def test_two_sessions_play_at_once_and_one_token_is_served_in_turn(api: Api) -> None:
    async def session(seed: int) -> list[dict[str, Any]]:
        rng, token, played = random.Random(seed), None, []
        for _ in range(15):
            r = await play_hand(api.client, token, rng, opponent="random")
            token = r["token"]
            played.append(r)
        return played

    a, b = await asyncio.gather(session(1), session(2))
    assert a[0]["token"] != b[0]["token"]
    assert a[-1]["session_num_hands"] == b[-1]["session_num_hands"] == 15
    # Two requests with one token at once: one is served, the other refused, not queued.
    r = await api.client.new_hand(opponent="calling-station")  # on the button: to act
    first, second = await asyncio.gather(
        api.client.post("/api/act", {"token": r["token"], "incr": "b20000"}),
        api.client.post("/api/act", {"token": r["token"], "incr": "b20000"}),
    )  # the all-in is called: the first is settled in the worker while the second comes
    statuses = sorted([first[0], second[0]])
    assert statuses == [200, 409], (first, second)
    busy = first[1] if first[0] == 409 else second[1]
    assert busy["error_msg"].startswith("a request for this session is in progress")


async def test_login_with_an_account_stores_its_hands_under_its_name(api: Api) -> None:
    _, secret = await api.store.create_account("ada")
    status, answer = await api.client.login("ada", "wrong")
    assert status == 400 and "wrong username or password" in answer["error_msg"]
    status, answer = await api.client.login("bob", secret)
    assert status == 400
    status, answer = await api.client.login("ada", secret)
    assert status == 200 and answer["token"] != secret
    r = await play_hand(api.client, answer["token"], random.Random(3))
    info = await api.store.hand_info(r["hand_id"])
    assert info.players[r["client_pos"]] == "ada"
    listed = await api.store.list_hands(player="ada")
    assert [h.id for h in listed] == [r["hand_id"]]


async def test_the_opponent_is_any_house_bot_until_another_is_named(api: Api) -> None:
    r = await play_hand(api.client, None, random.Random(7))
    token = r["token"]
    assert r["opponent"] == "tight-aggressive"  # the server's --api-bot
    for name in STRATEGIES:
        r = await play_hand(api.client, token, random.Random(7), opponent=name)
        assert r["opponent"] == name
        info = await api.store.hand_info(r["hand_id"])
        assert info.players[1 - r["client_pos"]] == f"house-{name}"
        r = await play_hand(api.client, token, random.Random(8))
        assert r["opponent"] == name


async def test_new_hand_plays_out_an_unfinished_hand_and_stores_it(api: Api) -> None:
    r = await api.client.new_hand(opponent="calling-station")
    while "winnings" in r:
        r = await api.client.new_hand(r["token"])
    stored = await api.store.count_hands()
    after = await api.client.new_hand(r["token"])
    assert await api.store.count_hands() == stored + 1 + ("winnings" in after)
    summary = (await api.store.list_hands(limit=2))[-1 if "winnings" in after else 0]
    info = await api.store.hand_info(summary.id)
    hand, me = info.replay().hand, r["client_pos"]
    net = hand.stacks[me] - hand.setup.stacks[me]
    # Checking, else folding: the small blind folds to the big blind; the big blind checks
    # a calling station's limp down to the showdown.
    assert net == -50 if me == 1 else net in (-100, 0, 100)


async def play_as_house_bot(
    api: Api, opponent: str, role: str, hands: int, samples: int | None = None
) -> list[dict[str, Any]]:
    """Hands played by house bot ``opponent``'s strategy in the client's seat, seeded from
    each hand's seed for ``role``: it reads the seed and the table from the server, as no
    real client can. ``samples``: tight-aggressive's Monte Carlo deals, if not its own."""
    sessions = api.server.api.sessions
    assert sessions is not None
    token: str | None = None
    played = []
    for _ in range(hands):
        r = await api.client.new_hand(token, opponent=opponent)
        token = r["token"]
        deal = sessions.by_token[token].deal
        me = make_bot(STRATEGIES[opponent], deal.shuffle.seed.hex(), role) if deal else None
        if samples is not None and deal is not None:
            me = TightAggressive(seed=random.Random(deal.shuffle.seed).getrandbits(64),
                                 samples=samples)  # fmt: skip
        while "winnings" not in r:
            assert deal is not None and me is not None
            seat = deal.client_seat
            menu = deal.table.legal_actions(seat)
            assert menu is not None
            action = me.act(deal.table.view(seat), menu)
            if isinstance(action, Fold):
                incr = "f" if menu.call else "k"
            elif isinstance(action, BetOrRaiseTo):
                incr = f"b{action.amount}"
            else:
                incr = "c" if menu.call else "k"
            r = await api.client.act(token, incr)
        played.append(r)
    return played


@pytest.mark.parametrize("opponent", ["random", "tight-aggressive"])
async def test_a_client_playing_the_house_bot_with_its_seeds_wins_the_baseline(
    api: Api, opponent: str
) -> None:
    """The baseline replays the deal with the house bot in the client's seat, seeded from
    the hand's seed for the role "baseline": a client that plays just that wins exactly
    the baseline, hand by hand."""
    for r in await play_as_house_bot(api, opponent, "baseline", 40):
        assert r["winnings"] == r["baseline_winnings"], r


@pytest.mark.parametrize("samples", [None, 20])
async def test_the_baseline_of_a_client_like_the_house_bot_cuts_its_variance(
    api: Api, samples: int | None
) -> None:
    """Reported, not asserted: against tight-aggressive, 300 hands, its own strategy with
    other seeds (its Monte Carlo draws differ), and with 20 Monte Carlo deals a decision
    instead of 400 (a noisier player, often deciding otherwise)."""
    played = await play_as_house_bot(api, "tight-aggressive", "another client", 300, samples)
    raw = statistics.pstdev(r["winnings"] for r in played)
    reduced = statistics.pstdev(r["winnings"] - r["baseline_winnings"] for r in played)
    adjusted = statistics.pstdev(r["adjusted_winnings"] for r in played)
    who = "its own seeds" if samples is None else f"{samples} samples"
    print(
        f"\ntight-aggressive with {who}, 300 hands: sd of winnings {raw:.0f} chips, "
        f"of winnings - baseline {reduced:.0f}, of adjusted winnings {adjusted:.0f}"
    )
    assert all(r["session_num_hands"] for r in played)


async def test_the_api_can_be_turned_off_and_given_a_port(tmp_path: Path) -> None:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0, api=False))
        async with server.running():
            assert server.api_address is None
    assert ServerSettings(port=9000).api_listen_port == 9001
    assert ServerSettings(port=0).api_listen_port == 0
    assert ServerSettings(port=9000, api_port=0).api_listen_port == 0
    with pytest.raises(ValueError, match="api-bot 'nobody'"):
        ServerSettings(api_bot="nobody")
    assert STACK_SIZE == 20_000


async def test_the_example_bot_plays_against_the_api_and_reports_the_baseline(api: Api) -> None:
    """examples/slumbot_bot.py, standard library only, as a researcher runs it."""
    root = Path(__file__).resolve().parents[2]
    assert api.server.api_address is not None
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(root / "examples" / "slumbot_bot.py"), "--base",
        api.server.api_address, "--hands", "300", "--opponent", "tight-aggressive",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    text = out.decode()
    print("\n" + text)
    assert text.startswith("hands: 300\nwinnings: ")
    assert "winnings - baseline: " in text
    listed = await api.store.list_hands(limit=1_000)
    assert len(listed) == 300


async def players_stored(store: Store) -> int:
    async with store.engine.connect() as conn:
        return await conn.scalar(select(func.count()).select_from(PlayerRow)) or 0


async def test_sessions_are_capped_per_address_the_unused_replaced_first(tmp_path: Path) -> None:
    async with api_server(tmp_path / "caps.db", api_sessions_per_address=2) as a:
        c = a.client
        first = await c.new_hand()
        first = await c.act(first["token"], "f")  # its token used
        unused = await c.new_hand()
        players = await players_stored(a.store)  # the first's guest, the house bot
        third = await c.new_hand()  # at the cap: it takes the unused session's place
        status, answer = await c.post("/api/act", {"token": unused["token"], "incr": "c"})
        assert status == 400 and answer["error_msg"].startswith("unknown token")
        await c.act(third["token"], "f")
        status, answer = await c.post("/api/new_hand", {})  # two sessions in use: refused
        assert status == 429 and answer["error_msg"].startswith("too many sessions from your")
        assert answer["error_msg"].endswith("(a session plays any number of hands)")
        check_response(await c.new_hand(first["token"]))  # a session goes on
        assert await players_stored(a.store) == players + 1  # the third's guest


async def test_an_idle_session_ends_its_hand_stored_and_its_token_unknown(api: Api) -> None:
    sessions = api.server.api.sessions
    assert sessions is not None
    r = await api.client.new_hand(opponent="calling-station")
    r = await api.client.new_hand(r["token"])  # its token used: its hands are stored
    while "winnings" in r:
        r = await api.client.new_hand(r["token"])
    stored = await api.store.count_hands()
    assert await sessions.expire(now=1e12) == 1
    await sessions.settled()
    assert await api.store.count_hands() == stored + 1
    status, answer = await api.client.post("/api/act", {"token": r["token"], "incr": "c"})
    assert status == 400 and answer["error_msg"].startswith("unknown token")
    assert sessions.from_address == {}


async def test_a_house_bot_name_is_no_guest_s(api: Api) -> None:
    from websockets.asyncio.client import connect

    async with connect(api.server.hosting.address) as ws:
        await ws.send('{"type": "hello", "name": "house-random", "id": "1"}')
        answer = json.loads(await ws.recv())
    assert answer["code"] == "name_taken", answer


def test_serve_prints_the_api_address_and_serves_it(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    args = ["--port", "0", "--db", db, "--api-bot", "calling-station"]
    with serve_api(args) as served:
        assert "house bot calling-station" in served.lines[-1]
        request = urllib.request.Request(served.base + "/api/new_hand", data=b"{}", method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        assert answer["opponent"] == "calling-station"
    assert served.process.returncode == 0


def pokerkit_stacks(text: str) -> list[int]:
    """The final stacks pokerkit replays a PHH hand to."""
    import pokerkit as pk

    states = list(pk.HandHistory.loads(text))
    return [int(s) for s in states[-1].stacks]


async def test_the_hand_commands_list_export_and_verify_the_api_s_hands(
    api: Api, tmp_path: Path
) -> None:
    rng, token, played = random.Random(11), None, []
    for _ in range(30):
        r = await play_hand(api.client, token, rng, opponent="random")
        token = r["token"]
        played.append(r)
    table = (await api.store.hand_info(played[0]["hand_id"])).table_name
    db = ["--db", f"sqlite:///{tmp_path / 'api.db'}"]

    def pokerroom(*argv: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", *argv, *db], capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    listed = json.loads(await asyncio.to_thread(pokerroom, "hands", "list", "--json",
                                                "--table", table, "--limit", "100"))  # fmt: skip
    rows = listed if isinstance(listed, list) else listed["hands"]
    assert sorted(h["id"] for h in rows) == [r["hand_id"] for r in played]
    out = tmp_path / "api.phhs"
    ids = [str(r["hand_id"]) for r in played]
    await asyncio.to_thread(pokerroom, "hands", "export", "--format", "phh", "-o", str(out), *ids)
    hands = history.load_all(out.read_text())
    for r, hh in zip(played, hands, strict=True):
        me = r["client_pos"]
        text = history.dump(hh)
        stacks = pokerkit_stacks(text)  # PHH order is positions: p1 the big blind
        assert stacks[me] - hh.starting_stacks[me] == r["winnings"], text
    checked = await asyncio.to_thread(pokerroom, "verify", ids[0])
    assert checked.startswith(f"hand {ids[0]}: verified: the seed matches commitment")


async def test_action_strings_are_written_as_slumbot_writes_them(api: Api) -> None:
    """Against the calling station, whose answers are known: a limp checked, a bet
    called on each street with a slash as each closes; an all-in called preflop with a
    slash for each street left."""
    c = api.client
    r = await c.new_hand(opponent="calling-station")  # the first hand: the small blind
    assert (r["client_pos"], r["action"]) == (1, "")
    token = r["token"]
    r = await c.act(token, "b20000")
    assert (r["old_action"], r["action"], len(r["board"])) == ("", "b20000c///", 5)
    assert r["winnings"] in (-20_000, 0, 20_000) and len(r["bot_hole_cards"]) == 2
    r = await c.new_hand(token)  # the big blind: the calling station limps
    assert (r["client_pos"], r["old_action"], r["action"], r["board"]) == (0, "", "c", [])
    steps = [("k", "ck/", 3), ("b100", "ck/b100c/", 4), ("b300", "ck/b100c/b300c/", 5)]
    for incr, action, board in steps:
        r = await c.act(token, incr)
        assert (r["action"], len(r["board"])) == (action, board)
        assert "winnings" not in r
    r = await c.act(token, "k")
    assert r["action"] == "ck/b100c/b300c/kk"
    assert len(r["bot_hole_cards"]) == 2 and abs(r["winnings"]) in (0, 500)
    assert r["session_num_hands"] == 2


async def test_the_stored_seed_replays_the_baseline(api: Api) -> None:
    """docs/bots.md: a stored hand's seed gives its deck, its bots' seeds and so its
    baseline, recomputed here from the store alone."""
    from server.fairness import HandIdentity, Shuffle
    from server.slumbot.play import baseline_winnings

    rng, token = random.Random(4), None
    for _ in range(10):
        r = await play_hand(api.client, token, rng, opponent="tight-aggressive")
        token = r["token"]
        info = await api.store.hand_info(r["hand_id"])
        fields = info.history.fields
        shuffle = Shuffle(HandIdentity(fields["table"], fields["hand"]),
                          bytes.fromhex(fields["_seed"]))  # fmt: skip
        assert shuffle.commitment == r["deck_commitment"]
        strategy = info.players[1 - r["client_pos"]].removeprefix("house-")
        again = baseline_winnings(shuffle, r["client_pos"], strategy)
        assert again == r["baseline_winnings"]
