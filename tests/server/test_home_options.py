"""Table options over the protocol (docs/home-games.md, docs/rules.md O1-O8): straddles,
bomb pot votes and the host's call, running it twice, showing cards and the rabbit in the
pause after a hand, and that each is in the stored hand. Chat, reactions and the host's
mutes; the ledger with who pays whom; a night's hands exported as each player saw them;
bots marked as bots. A real server on 127.0.0.1, real websockets clients."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import datetime as dt
import io
import json
import re
from typing import Any

import pytest

from engine import history
from server.app import PokerServer
from server.bots import load_bot
from server.bots.client import BotClient
from server.cli import build_parser
from server.cli.bot import _where
from server.cli.common import UsageError
from server.export.phh import SEED_FIELD
from tests.server.test_private_tables import NAMES, Client, client, home_game, join, open_table

Message = dict[str, Any]
FAST = {"show_seconds": 0.6}  # the pause after each hand, short for the tests


def friends(
    address: str, *names: str, **options: Any
) -> contextlib.AbstractAsyncContextManager[tuple[str, str, list[Client]]]:
    """A private table with ``options`` (and a short pause after each hand), hosted by
    ``names[0]`` in seat 0, the others let in by the host in order, before any hand."""
    return home_game(address, *names, paused=True, **{**FAST, **options})


async def act(c: Client, request: Message, action: str, **fields: Any) -> Message:
    return await c.ask(type="act", table=request["table"], action=action,
                       action_id=f"x{request['seq']}", seq=request["seq"], **fields)  # fmt: skip


async def request_for(c: Client, start: int = 0) -> Message:
    return await c.wait(lambda m: m["type"] == "action_request", start)


def events_of(c: Client, kind: str) -> list[Message]:
    return [m["event"] for m in c.messages if m["type"] == "event" and m["event"]["type"] == kind]


async def stored_history(server: PokerServer, table: str) -> history.HandHistory:
    """The newest hand stored at ``table``, once there is one."""
    async with asyncio.timeout(10):
        while not (hands := await server.store.list_hands(table=table, limit=1)):
            await asyncio.sleep(0.05)
    return (await server.store.stored_hand(hands[0].id)).info.history


async def test_a_straddle_is_posted_by_who_opted_in_and_stored(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with friends(address, "hana", "bob", "cat") as (table, _, (hana, bob, cat)):
        for c in (hana, bob, cat):
            done = await c.ask(type="straddle", table=table, on=True)
            assert done == {"type": "straddle_set", "table": table, "on": True, "re": done["re"]}
        notice = await hana.wait(lambda m: m["type"] == "straddle" and m["seat"] == 2)
        assert notice["on"] is True
        for c in (hana, bob, cat):
            await c.autoplay()
        await hana.host("resume")
        posted = await hana.wait(
            lambda m: m["type"] == "event" and m["event"].get("kind") == "straddle"
        )
        assert posted["event"]["increment"] == 4  # twice the big blind of 2
        hh = await stored_history(server, table)
        assert 4 in hh.blinds_or_straddles


async def test_straddles_are_refused_where_the_game_has_none(app: tuple[PokerServer, str]) -> None:
    _server, address = app
    async with friends(address, "hana", "bob", game="flhe") as (table, _, (hana, _bob)):
        refused = await hana.ask(type="straddle", table=table, on=True)
        assert refused["type"] == "error" and refused["code"] == "illegal", refused
        assert "straddle" in refused["message"]


async def test_most_players_voting_deal_a_bomb_pot(app: tuple[PokerServer, str]) -> None:
    _server, address = app
    async with friends(address, "hana", "bob", "cat", bomb_pot=10) as (table, _, clients):
        hana, bob, cat = clients
        first = await bob.ask(type="bomb_pot", table=table, on=True)
        assert first["type"] == "bomb_pot_voted"
        votes = await hana.wait(lambda m: m["type"] == "bomb_pot_votes")
        assert votes["votes"] == ["bob"] and votes["needed"] == 2 and not votes["called"]
        await cat.ask(type="bomb_pot", table=table, on=True)
        called = await hana.wait(lambda m: m["type"] == "bomb_pot_votes" and m["called"])
        assert sorted(called["votes"]) == ["bob", "cat"]
        for c in clients:
            await c.autoplay()
        await hana.host("resume")
        started = await hana.event("bomb_pot_started")
        antes = [e for e in events_of(hana, "forced_bet_posted") if e["kind"] == "ante"]
        assert started["event"]["boards"] == 1 and [e["increment"] for e in antes] == [10] * 3
        assert not [e for e in events_of(hana, "forced_bet_posted") if "blind" in e["kind"]]


async def test_the_host_calls_a_double_board_bomb_pot(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with friends(address, "hana", "bob", bomb_pot=10) as (table, _, clients):
        hana, bob = clients
        refused = await bob.ask(type="host", table=table, action="bomb_pot")
        assert refused["code"] == "not_host"
        done = await hana.host("bomb_pot", boards=2)
        assert done["boards"] == 2
        for c in clients:
            await c.autoplay()
        await hana.host("resume")
        ended = await hana.event("hand_ended_on_boards")
        assert len(ended["event"]["boards"]) == 2
        assert {e["board_index"] for e in events_of(hana, "pot_awarded_on_board")} == {0, 1}
        hh = await stored_history(server, table)
        assert hh.fields["_boards"] == 2 and hh.fields["_bomb_pot"]


async def test_all_in_players_who_agree_run_it_twice(app: tuple[PokerServer, str]) -> None:
    server, address = app
    async with friends(address, "hana", "bob", run_it_twice=True) as (table, _, (hana, bob)):
        await hana.host("resume")
        shoved = False
        for _ in range(2):  # whoever acts first shoves, the other calls
            mover = await _first_to_act(hana, bob)
            request = [m for m in mover.messages if m["type"] == "action_request"][-1]
            if not shoved:
                menu = request["menu"]
                reply = await act(mover, request, "raise", amount=menu["max_raise_to"])
                shoved = True
            else:
                reply = await act(mover, request, "call")
            assert reply["type"] == "ack", reply
        for _ in range(2):  # each is asked in turn
            c = await _first_to_act(hana, bob)
            request = [m for m in c.messages if m["type"] == "action_request"][-1]
            assert request["menu"]["run_it_twice"] and not request["menu"]["can_fold"]
            wrong = await act(c, request, "call")
            assert wrong["code"] == "illegal"
            assert (await act(c, request, "run_it_twice", agree=True))["type"] == "ack"
        ended = await hana.event("hand_ended_on_boards")
        boards = ended["event"]["boards"]
        assert len(boards) == 2 and len(boards[0]) == len(boards[1]) == 5
        awarded = events_of(hana, "pot_awarded_on_board")
        assert sum(a["amount"] for a in awarded) == 400  # both stacks, half on each run
        hh = await stored_history(server, table)
        answers = hh.fields["_run_it_twice"]
        assert len(answers) == 2 and all(a.endswith(" y") for a in answers)


async def _first_to_act(*clients: Client) -> Client:
    """The client with an unanswered action request."""
    async with asyncio.timeout(10):
        while True:
            for c in clients:
                requests = [m for m in c.messages if m["type"] == "action_request"]
                acked = {m.get("action_id") for m in c.messages if m["type"] == "ack"}
                if requests and f"x{requests[-1]['seq']}" not in acked:
                    return c
            await asyncio.sleep(0.01)


async def test_cards_are_shown_and_the_rabbit_hunted_in_the_pause_and_stored(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with friends(address, "hana", "bob", show_seconds=3.0) as (table, invite, clients):
        hana, bob = clients
        async with client(address, "watcher") as watcher:
            await watcher.ask(type="spectate", table=table, invite=invite)
            too_soon = await watcher.ask(type="rabbit", table=table)
            assert too_soon["code"] == "illegal"
            before = await watcher.ask(type="spectate", table=table, invite=invite)
            assert before["show_seconds_left"] is None
            await hana.host("resume")
            folder = await _first_to_act(hana, bob)
            winner = bob if folder is hana else hana
            request = [m for m in folder.messages if m["type"] == "action_request"][-1]
            await act(folder, request, "fold")
            await winner.event("hand_ended")
            dealt = [e for e in events_of(winner, "hole_cards_dealt") if e.get("cards")]
            mine = dealt[-1]["cards"]
            assert (await folder.ask(type="show", table=table, cards=mine))["code"] == "illegal"
            shown = await winner.ask(type="show", table=table, cards=mine[:1])
            assert shown["type"] == "shown", shown
            revealed = await watcher.event("cards_revealed")
            assert revealed["event"]["cards"] == mine[:1]
            bad = await winner.ask(type="show", table=table, cards=["Zz"])
            assert bad["code"] == "bad_cards"
            again = await watcher.ask(type="spectate", table=table, invite=invite)
            assert 0 < again["show_seconds_left"] <= 3.0  # a reloaded page offers it too
            hunted = await watcher.ask(type="rabbit", table=table)
            assert hunted == {"type": "rabbit", "table": table, "dealt": True, "re": hunted["re"]}
            rabbit = await hana.event("rabbit_hunted")
            assert len(rabbit["event"]["board"]) == 5
            seen = [m["event"] for m in watcher.messages if m["type"] == "event"]
            dealt = [e for e in seen if e["type"] == "hole_cards_dealt"]
            assert dealt and all(e["cards"] is None for e in dealt)  # never a hidden card
        hh = await stored_history(server, table)
        after = hh.fields["_after_the_hand"]
        assert after[0].endswith(f"sm {mine[0]}") and after[1].startswith("d rabbit ")


async def test_chat_is_text_rate_limited_muted_by_the_host_and_kept_for_newcomers(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with friends(address, "hana", "bob") as (table, invite, (hana, bob)):
        markup = "<img src=x onerror=alert(1)>\u202e<b>hi</b>\n  there"
        sent = await bob.ask(type="chat", table=table, text=markup)
        assert sent["type"] == "chat_sent"
        line = await hana.wait(lambda m: m["type"] == "chat")
        assert line["name"] == "bob" and line["seat"] == 1
        assert line["text"] == "<img src=x onerror=alert(1)><b>hi</b> there"  # as typed, as text
        assert (await bob.ask(type="chat", table=table, text=" \n "))["code"] == "bad_chat"
        long = await bob.ask(type="chat", table=table, text="x" * 201)
        assert long["code"] == "bad_message"
        for _ in range(4):
            assert (await bob.ask(type="react", table=table, emoji="🔥"))["type"] == "chat_sent"
        fast = await bob.ask(type="chat", table=table, text="one more")
        assert fast["code"] == "too_fast"
        assert (await bob.ask(type="react", table=table, emoji="x"))["code"] == "bad_message"
        reaction = await hana.wait(lambda m: m["type"] == "reaction")
        assert reaction["emoji"] == "🔥" and reaction["name"] == "bob"
        assert (await bob.ask(type="host", table=table, action="mute", player="hana"))[
            "code"
        ] == "not_host"
        await hana.host("mute", player="bob")
        await asyncio.sleep(2.1)  # out of the rate limit's window is not enough for a mute
        assert (await bob.ask(type="chat", table=table, text="hello?"))["code"] == "muted"
        await hana.host("unmute", player="bob")
        async with client(address, "watcher") as watcher:
            snapshot = await watcher.ask(type="spectate", table=table, invite=invite)
            assert [c["text"] for c in snapshot["chat"]] == [line["text"]]
            quiet = await watcher.ask(type="chat", table=table, text="hi all")
            assert quiet["code"] == "no_chat"
            await hana.host("spectator_chat", on=True)
            assert (await watcher.ask(type="chat", table=table, text="hi all"))[
                "type"
            ] == "chat_sent"


CARD = r"[2-9TJQKA][cdhs]"


async def hidden_cards(server: PokerServer, table: str) -> list[set[str]]:
    """Each hand's hole cards at ``table`` that were never shown (the operator's record),
    oldest hand first, as exports list them."""
    hidden = []
    for summary in reversed(await server.store.list_hands(table=table, limit=50)):
        actions = (await server.store.stored_hand(summary.id)).info.history.actions
        dealt = {c for a in actions if a.startswith("d dh ") for c in re.findall(CARD, a[5:])}
        shown = {c for a in actions if " sm " in a for c in re.findall(CARD, a.split(" sm ")[1])}
        hidden.append(dealt - shown)
    return hidden


def cards_in(fmt: str, text: str) -> list[set[str]]:
    """Every card each hand of an export names, in order: PokerStars' in brackets, PHH's
    in its actions, OHH's in its ``cards`` lists."""
    if fmt == "pokerstars":
        hands = text.split("PokerStars Hand #")[1:]
        return [{c for inside in re.findall(r"\[([^\]]*)\]", hand.split("\n", 1)[1])
                 for c in re.findall(CARD, inside)} for hand in hands]  # fmt: skip
    if fmt == "phh":
        return [
            {c for a in hh.actions for c in re.findall(CARD, a.split(" ", 2)[-1])}
            for hh in history.load_all(text)
        ]

    def walk(node: object, found: set[str]) -> set[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "cards" and isinstance(value, list):
                    found.update(v for v in value if isinstance(v, str))
                walk(value, found)
        elif isinstance(node, list):
            for value in node:
                walk(value, found)
        return found

    return [walk(json.loads(d), set()) for d in text.split("\n\n") if d.strip()]


async def test_the_ledger_settles_up_and_the_night_exports_as_each_saw_it(
    app: tuple[PokerServer, str],
) -> None:
    server, address = app
    async with friends(address, "hana", "bob", "cat") as (table, invite, clients):
        hana, bob, cat = clients
        await hana.host("chips", player="cat", amount=100)
        for c in (hana, bob):
            await c.autoplay()
        folding = asyncio.create_task(fold_always(cat))  # cat's cards are never shown
        await hana.host("resume")
        async with asyncio.timeout(30):
            while len(await server.store.list_hands(table=table, limit=3)) < 3:
                await asyncio.sleep(0.05)
        await hana.host("pause")
        folding.cancel()
        async with client(address, "stranger") as stranger:
            refused = await stranger.ask(type="ledger", table=table)
            assert refused["code"] == "bad_invite"
            refused = await stranger.ask(type="export", table=table, format="phh")
            assert refused["code"] == "bad_invite"
        check_ledger(await bob.ask(type="ledger", table=table))
        await check_exports(bob, table)
        async with client(address, "zed") as zed:  # watching: nobody's cards but shown ones
            await zed.ask(type="spectate", table=table, invite=invite)
            hidden = await hidden_cards(server, table)
            assert any(hidden)  # cat's, at least
            for fmt in ("pokerstars", "phh", "ohh"):
                seen = await zed.ask(type="export", table=table, format=fmt)
                named = cards_in(fmt, seen["text"])
                assert len(named) == len(hidden) >= 3, (fmt, seen["hands"])
                for hand_hidden, hand_named in zip(hidden, named, strict=True):
                    assert hand_named and not hand_hidden & hand_named, fmt  # board, shown


async def fold_always(c: Client) -> None:
    """Fold every request (check when folding is not allowed)."""
    answered: set[int] = set()
    while True:
        for m in [m for m in c.messages if m["type"] == "action_request"]:
            if m["seq"] not in answered:
                answered.add(m["seq"])
                await act(c, m, "fold" if not m["menu"]["can_check"] else "check")
        await asyncio.sleep(0.02)


def check_ledger(ledger: Message) -> None:
    """The ledger's nets sum to zero, its CSV is its sessions, the host's chips are a
    buy-in, and its transfers are at most n - 1 and settle every net."""
    assert ledger["type"] == "ledger" and "error" not in ledger
    nets = ledger["nets"]
    assert set(nets) == {"hana", "bob", "cat"} and sum(nets.values()) == 0
    rows = list(csv.DictReader(io.StringIO(ledger["csv"])))
    sessions = ledger["sessions"]
    assert [r["player_nickname"] for r in rows] == [s["player_nickname"] for s in sessions]
    by_name = {r["player_nickname"]: r for r in rows}
    assert int(by_name["cat"]["buy_in"]) == 300  # 200, and the host's 100
    transfers = ledger["transfers"]
    assert len(transfers) <= max(0, sum(1 for n in nets.values() if n) - 1)
    left = dict(nets)  # each transfer settles the payer's debt and the payee's win
    for t in transfers:
        assert t["amount"] > 0
        left[t["from"]] += t["amount"]
        left[t["to"]] -= t["amount"]
    assert set(left.values()) == {0}


async def check_exports(bob: Client, table: str) -> None:
    """Bob's night in each format: his cards, nobody else's hidden ones, no seed."""
    for fmt in ("phh", "pokerstars", "ohh"):
        out = await bob.ask(type="export", table=table, format=fmt)
        assert out["type"] == "export" and out["hands"] >= 3, out
    phh = (await bob.ask(type="export", table=table, format="phh"))["text"]
    hands = list(history.load_all(phh))
    assert len(hands) >= 3
    for hh in hands:
        assert SEED_FIELD not in hh.fields
        bobs = hh.fields["players"].index("bob") + 1
        for line in (a for a in hh.actions if a.startswith("d dh ")):  # bob's cards alone
            assert ("????" in line) != line.startswith(f"d dh p{bobs} "), line
    stars = (await bob.ask(type="export", table=table, format="pokerstars"))["text"]
    assert stars.count("PokerStars Hand #") >= 3 and "Dealt to bob [" in stars
    ohh = (await bob.ask(type="export", table=table, format="ohh"))["text"]
    assert len([json.loads(d) for d in ohh.split("\n\n") if d.strip()]) >= 3
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    none = await bob.ask(type="export", table=table, format="phh", since=later.isoformat())
    assert none["hands"] == 0 and none["text"] == ""


async def test_a_program_says_it_is_a_bot_and_everyone_sees_it(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with client(address, "hana") as hana, client(address) as robo:
        hello = await robo.ask(type="hello", name="robo", bot=True)
        assert hello["type"] == "welcome"
        NAMES[hana], NAMES[robo] = "hana", "robo"
        table, invite = await open_table(hana, **FAST)
        await hana.ask(type="sit", table=table, seat=0, buy_in=200)
        await join(hana, robo, table, invite)
        await hana.host("house_bot", seat=2, strategy="calling-station")
        snapshot = await hana.ask(type="spectate", table=table)
        bots = {s["name"]: s["bot"] for s in snapshot["view"]["seats"]}
        assert bots == {"hana": False, "robo": True, "bot3-calling-station": True}


async def test_a_seat_request_outlives_a_reload(app: tuple[PokerServer, str]) -> None:
    _server, address = app
    async with client(address, "hana") as hana:
        NAMES[hana] = "hana"
        table, invite = await open_table(hana, **FAST)
        await hana.ask(type="spectate", table=table)
        async with client(address, "bob") as bob:
            asked = await bob.ask(type="request_seat", table=table, invite=invite, buy_in=150)
            assert asked["type"] == "seat_requested"
            session = next(m for m in bob.messages if m["type"] == "welcome")["session"]
        await hana.wait(lambda m: m["type"] == "seat_request")
        gone = await hana.host("approve", player="bob")
        assert gone["code"] == "not_here"
        async with client(address, None, session=session) as back:
            await back.ask(type="spectate", table=table, invite=invite)
            done = await hana.host("approve", player="bob")
            assert done["type"] == "host_done" and done["buy_in"] == 150
            seated = await back.wait(lambda m: m["type"] == "seated")
            assert seated["stack"] == 150


async def test_everyone_learns_who_sits_down_and_the_host_state_keeps_the_mutes(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with friends(address, "hana", "bob") as (table, _, (hana, bob)):
        await hana.host("house_bot", seat=4, strategy="random")
        joined = await bob.wait(lambda m: m["type"] == "player_joined" and m["seat"] == 4)
        assert joined["name"] == "bot5-random" and joined["bot"] is True
        first = next(m for m in hana.messages if m["type"] == "player_joined" and m["seat"] == 1)
        assert first["name"] == "bob" and first["bot"] is False
        await hana.host("mute", player="bob")
        await hana.host("spectator_chat", on=True)
        start = len(hana.messages)
        await hana.ask(type="spectate", table=table)  # the host's page again
        state = await hana.wait(lambda m: m["type"] == "host_state", start)
        assert state["muted"] == ["bob"] and state["spectator_chat"] is True
        refused = await hana.ask(type="host", table=table, action="bomb_pot")
        assert refused["code"] == "illegal"  # this table has no bomb pots


async def test_a_page_resumes_a_private_table_with_its_invite(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with client(address, "hana") as hana, client(address, "olly") as olly:
        NAMES[hana] = "hana"
        table, invite = await open_table(hana, **FAST)
        refused = await olly.ask(type="resume", table=table, last_seq=0)
        assert refused["code"] == "bad_invite"
        resumed = await olly.ask(type="resume", table=table, last_seq=0, invite=invite)
        assert resumed["type"] == "resumed" and resumed["view"]["viewer"] is None


async def test_a_friends_bot_joins_through_the_link_and_plays_marked_as_a_bot(
    app: tuple[PokerServer, str],
) -> None:
    _server, address = app
    async with client(address, "hana") as hana:
        NAMES[hana] = "hana"
        table, invite = await open_table(hana, **FAST)
        await hana.ask(type="sit", table=table, seat=0, buy_in=200)
        await hana.autoplay()
        link = f"http://{address}/#/join/{table}/{invite}"
        args = build_parser().parse_args(
            ["bot", "run", "calling-station", "--link", link, "--name", "robo"]
        )
        url, where, key = _where(args)
        assert (url, where, key) == (f"ws://{address}/ws", table, invite)
        station = load_bot("calling-station")
        robo = BotClient(station, url, name="robo", table=where, invite=key, hands=2,
                         think_in_thread=False, backoff=(0.05, 0.2))  # fmt: skip
        playing = asyncio.create_task(robo.run())
        request = await hana.wait(lambda m: m["type"] == "seat_request")
        assert request["player"] == "robo"
        await hana.host("approve", player="robo")
        joined = await hana.wait(lambda m: m["type"] == "player_joined" and m["name"] == "robo")
        assert joined["bot"] is True
        async with asyncio.timeout(30):
            summary = await playing
        assert summary.hands_played >= 2 and not [
            e for e in summary.errors if e.get("code") not in ("not_your_turn", "stale")
        ]
    bad = build_parser().parse_args(["bot", "run", "random", "--link", "http://x/#/lobby"])
    with pytest.raises(UsageError, match="not an invite link"):
        _where(bad)


async def test_exports_tell_only_what_the_asker_saw_and_count_what_they_hold(
    app: tuple[PokerServer, str],
) -> None:
    """A guest name used again later is another person: the earlier one's hands are told
    to them as a spectator saw them. A format without words for a game leaves its hands
    out, and the count says so. A mixed game refuses table options it would not play."""
    server, address = app
    async with client(address, "hana") as hana, client(address, "bob") as bob:
        NAMES[hana], NAMES[bob] = "hana", "bob"
        created = await hana.ask(type="create_table", name="kuhn", game="kuhn", private=True,
                                 seats=2, ante=1, ante_kind="per_player", small_bet=1,
                                 **FAST)  # fmt: skip
        assert created["type"] == "table_created", created
        table, invite = created["table"]["id"], created["invite"]
        hana.table = table
        buy_in = int(created["table"]["max_buy_in"])
        await hana.ask(type="sit", table=table, seat=0, buy_in=buy_in)
        await join(hana, bob, table, invite, buy_in=buy_in)
        for c in (hana, bob):
            await c.autoplay()
        async with asyncio.timeout(20):
            while len(await server.store.list_hands(table=table, limit=2)) < 2:
                await asyncio.sleep(0.05)
        stars = await bob.ask(type="export", table=table, format="pokerstars")
        assert stars["hands"] == 0 and stars["text"] == ""  # PokerStars deals no Kuhn
        ohh = await bob.ask(type="export", table=table, format="ohh")
        assert ohh["hands"] == 0 and ohh["text"] == ""
        mine = (await bob.ask(type="export", table=table, format="phh"))["text"]
        assert any("????" not in a for h in history.load_all(mine) for a in h.actions
                   if a.startswith("d dh p"))  # fmt: skip
        await hana.host("pause")
        async with asyncio.timeout(20):  # bob stands up once no hand is being played
            while (await bob.ask(type="leave", table=table))["type"] != "left":
                await asyncio.sleep(0.2)
    async with client(address, "bob") as later:  # the name is free again: another bob
        await later.ask(type="spectate", table=table, invite=invite)
        theirs = (await later.ask(type="export", table=table, format="phh"))["text"]
        dealt = [a for h in history.load_all(theirs) for a in h.actions if a.startswith("d dh")]
        assert dealt and all(a.endswith("??") for a in dealt)
        mixed = await later.ask(type="create_table", name="horse", mix="horse", small_bet=2,
                                seven_deuce=5)  # fmt: skip
        assert mixed["code"] == "refused" and "seven_deuce" in mixed["message"]


async def test_a_public_tables_chat_goes_on_the_bus_and_a_private_ones_never(
    app: tuple[PokerServer, str],
) -> None:
    """Spectators in other processes follow a public table through the bus: its chat goes
    there with its events. A private table's never does."""
    server, address = app
    topics = server.bus.topics
    async with (
        server.bus.subscribe(topics.table_events("+")) as queue,
        client(address, "hana") as hana,
    ):
        await hana.ask(type="spectate", table="demo")
        assert (await hana.ask(type="chat", table="demo", text="hi all"))["type"] == "chat_sent"
        table, _ = await open_table(hana, **FAST)
        await hana.ask(type="spectate", table=table)
        assert (await hana.ask(type="chat", table=table, text="secret"))["type"] == "chat_sent"
        await hana.wait(lambda m: m["type"] == "chat" and m["text"] == "secret")
        said = []
        while not queue.empty():
            topic, payload = queue.get_nowait()
            message = json.loads(payload)
            if message["type"] == "chat":
                said.append((topic, message["text"]))
    assert said == [(topics.table_events("demo"), "hi all")]
