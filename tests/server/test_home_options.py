"""Table options (docs/home-games.md, docs/rules.md O1-O8): straddles, bomb pot votes and
the host's call, running it twice, showing cards and the rabbit in the pause after a
hand, and that each is in the hand handed over for storing; chat, reactions and the
host's mutes; seat requests, who sits down, the host's state; bots marked as bots.

The table's rules are tested on its core (:class:`server.tables.TableCore`), driven by
:class:`tests.server.core_room.Room` with a fake clock: no event loop, no server. A few
tests at the end go through a real server on 127.0.0.1 with real websockets clients, for
what only the server does: the ledger and the exports from the database, the bus, the
bot SDK, and what the hello and the host's ``house_bot`` make of a player."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import datetime as dt
import io
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine import TableConfig, game, history
from server import protocol
from server.app import PokerServer
from server.bots import load_bot
from server.bots.client import BotClient
from server.cli import build_parser
from server.cli.bot import _where
from server.cli.common import UsageError
from server.export.phh import SEED_FIELD
from server.tables import Caller, Player
from server.tables.messages import AddHouseBot, Disconnect
from tests.server.clients import Inbox
from tests.server.core_room import TABLE, Room
from tests.server.test_private_tables import Client, client

Message = dict[str, Any]
INVITE = "x" * 24
PAUSE = 0.6  # the pause after each hand, short as the end-to-end tests have it


# -- a private table's core ----------------------------------------------------------------


def friends(*names: str, config: TableConfig | None = None, **settings: Any) -> Room:
    """A private table (blinds 1/2, buy-ins 80..400, a short pause after each hand),
    hosted by ``names[0]``, who pauses it and sits in seat 0; the others ask for a seat
    with the invite and the host lets them in, in order, before any hand: 200 chips each."""
    room = Room(config, **{"show_seconds": PAUSE, "decision_seconds": 60.0, **settings})
    host, *guests = names
    room.core.host.make_private(room.player(host).id, INVITE)
    room.send(host, type="host", action="pause")
    assert room.sit(host, 0, buy_in=200)["type"] == "seated"
    for guest in guests:
        asked = room.send(guest, type="request_seat", invite=INVITE, buy_in=200)
        assert asked["type"] == "seat_requested"
        assert room.send(host, type="host", action="approve", player=guest)["type"] == "host_done"
    return room


def send_from(room: Room, inbox: Inbox, name: str, **message: Any) -> Message:
    """``name``'s message from another connection of theirs (``inbox``): a reloaded page."""
    m = protocol.parse(json.dumps({"table": TABLE, **message}))
    return room.submit(m, Caller(inbox, room.player(name), "10.0.0.99"))


def house_bot(room: Room, host: str, seat: int, strategy: str) -> Message:
    """The host's ``house_bot`` control, with the player the server makes for the bot
    (server/hosting.py: named after its seat and strategy, marked as a bot)."""
    control = protocol.parse(json.dumps(
        {"type": "host", "table": TABLE, "action": "house_bot", "seat": seat, "strategy": strategy}
    ))  # fmt: skip
    bot = Player(100 + seat, f"bot{seat + 1}-{strategy}", bot=True)
    return room.submit(AddHouseBot(control, bot, load_bot(strategy)), room.caller(host))


def messages(room: Room, name: str, kind: str) -> list[Message]:
    """The messages of type ``kind`` ``name`` has been sent."""
    return [m for m in room.person(name).messages if m["type"] == kind]


def handed_over(room: Room) -> history.HandHistory:
    """The hand the table hands over for storing, as the store writes it (PHH, through
    :func:`engine.history.from_hand`, server/recording.py), once it is handed over: the
    room must hold finished hands (``store_later``). The hand is then stored."""
    over = room.core.storing
    hand = room.core.table.hand
    assert room.held is not None and over is not None and hand is not None
    written = history.from_hand(hand, players=[over.players[s].name for s in hand.seats])
    room.store()
    return history.load(history.dump(written))


def play_to_storing(room: Room) -> history.HandHistory:
    """Everyone checks or calls the hand being played; the pause after it passes; the
    hand handed over for storing."""
    room.store_later = True
    room.play_hand()
    room.wait(room.core.settings.show_seconds)
    return handed_over(room)


def act_refused(room: Room, name: str, action: str, **fields: Any) -> str:
    """The code of the refusal of ``name``'s answer to their last action request."""
    request = room.request(name)
    return room.refused(name, type="act", action_id=f"{name}-refused", action=action,
                        seq=request["seq"], **fields).code  # fmt: skip


# -- straddles -------------------------------------------------------------------------------


def test_a_straddle_is_posted_by_who_opted_in_and_stored() -> None:
    room = friends("hana", "bob", "cat")
    for name in ("hana", "bob", "cat"):
        done = room.send(name, type="straddle", on=True)
        assert done == {"type": "straddle_set", "table": TABLE, "on": True}
    notices = messages(room, "hana", "straddle")
    assert [(n["seat"], n["on"]) for n in notices] == [(0, True), (1, True), (2, True)]
    room.send("hana", type="host", action="resume")
    posted = [e for e in room.person("hana").events("forced_bet_posted")
              if e["kind"] == "straddle"]  # fmt: skip
    assert [e["increment"] for e in posted] == [4]  # twice the big blind of 2
    hh = play_to_storing(room)
    assert 4 in hh.blinds_or_straddles


def test_straddles_are_refused_where_the_game_has_none() -> None:
    room = friends("hana", "bob", config=TableConfig(game=game("flhe"), small_blind=1,
                                                     big_blind=2))  # fmt: skip
    refused = room.refused("hana", type="straddle", on=True)
    assert refused.code == "illegal" and "straddle" in str(refused)
    assert messages(room, "bob", "straddle") == []  # nobody is told of a straddle refused


# -- bomb pots ----------------------------------------------------------------------------


BOMB_POTS = TableConfig(small_blind=1, big_blind=2, bomb_pot=10)


def test_most_players_voting_deal_a_bomb_pot() -> None:
    room = friends("hana", "bob", "cat", config=BOMB_POTS)
    assert room.send("bob", type="bomb_pot", on=True)["type"] == "bomb_pot_voted"
    (votes,) = messages(room, "hana", "bomb_pot_votes")
    assert votes["votes"] == ["bob"] and votes["needed"] == 2 and not votes["called"]
    room.send("cat", type="bomb_pot", on=True)
    called = messages(room, "hana", "bomb_pot_votes")[-1]
    assert called["called"] and sorted(called["votes"]) == ["bob", "cat"]
    room.send("hana", type="host", action="resume")
    (started,) = room.person("hana").events("bomb_pot_started")
    forced = room.person("hana").events("forced_bet_posted")
    antes = [e for e in forced if e["kind"] == "ante"]
    assert started["boards"] == 1 and [e["increment"] for e in antes] == [10] * 3
    assert not [e for e in forced if "blind" in e["kind"]]


def test_the_host_calls_a_double_board_bomb_pot() -> None:
    room = friends("hana", "bob", config=BOMB_POTS)
    assert room.refused("bob", type="host", action="bomb_pot").code == "not_host"
    done = room.send("hana", type="host", action="bomb_pot", boards=2)
    assert done["boards"] == 2
    room.send("hana", type="host", action="resume")
    hh = play_to_storing(room)
    (ended,) = room.person("hana").events("hand_ended_on_boards")
    assert len(ended["boards"]) == 2
    awarded = room.person("hana").events("pot_awarded_on_board")
    assert {e["board_index"] for e in awarded} == {0, 1}
    assert hh.fields["_boards"] == 2 and hh.fields["_bomb_pot"]


# -- run it twice --------------------------------------------------------------------------


def test_all_in_players_who_agree_run_it_twice() -> None:
    room = friends("hana", "bob", config=TableConfig(small_blind=1, big_blind=2,
                                                     run_it_twice=True))  # fmt: skip
    room.store_later = True
    room.send("hana", type="host", action="resume")
    shover = room.to_act()
    assert shover is not None
    shove = room.request(shover)["menu"]["max_raise_to"]
    assert room.act(shover, "raise", amount=shove)["type"] == "ack"
    caller = room.to_act()
    assert caller is not None and caller != shover
    assert room.act(caller, "call")["type"] == "ack"
    asked = []
    for _ in range(2):  # each is asked in turn
        name = room.to_act()
        assert name is not None and name not in asked
        asked.append(name)
        menu = room.request(name)["menu"]
        assert menu["run_it_twice"] and not menu["can_fold"]
        assert act_refused(room, name, "call") == "illegal"
        assert room.act(name, "run_it_twice", agree=True)["type"] == "ack"
    (ended,) = room.person("hana").events("hand_ended_on_boards")
    boards = ended["boards"]
    assert len(boards) == 2 and len(boards[0]) == len(boards[1]) == 5
    awarded = room.person("hana").events("pot_awarded_on_board")
    assert sum(a["amount"] for a in awarded) == 400  # both stacks, half on each run
    room.wait(PAUSE)
    answers = handed_over(room).fields["_run_it_twice"]
    assert len(answers) == 2 and all(a.endswith(" y") for a in answers)


# -- the pause after a hand: shows and the rabbit ---------------------------------------------


def test_cards_are_shown_and_the_rabbit_hunted_in_the_pause_and_stored() -> None:
    room = friends("hana", "bob", show_seconds=3.0)
    room.store_later = True
    room.send("watcher", type="spectate", invite=INVITE)
    assert room.refused("watcher", type="rabbit").code == "illegal"  # no hand yet
    before = room.send("watcher", type="spectate", invite=INVITE)
    assert before["show_seconds_left"] is None
    room.send("hana", type="host", action="resume")
    folder = room.to_act()
    assert folder is not None
    winner = "bob" if folder == "hana" else "hana"
    room.act(folder, "fold")
    assert room.person(winner).events("hand_ended")
    dealt = [e for e in room.person(winner).events("hole_cards_dealt") if e.get("cards")]
    mine = dealt[-1]["cards"]
    assert room.refused(folder, type="show", cards=mine).code == "illegal"  # not theirs
    assert room.send(winner, type="show", cards=mine[:1]) == {"type": "shown", "table": TABLE}
    (revealed,) = room.person("watcher").events("cards_revealed")
    assert revealed["cards"] == mine[:1]
    assert room.refused(winner, type="show", cards=["Zz"]).code == "bad_cards"
    room.wait(1.0)
    again = room.send("watcher", type="spectate", invite=INVITE)
    assert again["show_seconds_left"] == 2.0  # a reloaded page offers it too, for what is left
    hunted = room.send("watcher", type="rabbit")
    assert hunted == {"type": "rabbit", "table": TABLE, "dealt": True}
    (rabbit,) = room.person("hana").events("rabbit_hunted")
    assert len(rabbit["board"]) == 5
    seen = room.person("watcher").events("hole_cards_dealt")
    assert seen and all(e["cards"] is None for e in seen)  # never a hidden card
    assert room.held is None  # the pause is not over: the hand is not handed over yet
    room.wait(2.0)
    assert room.refused(winner, type="show", cards=mine[1:]).code == "illegal"  # too late
    after = handed_over(room).fields["_after_the_hand"]
    assert after[0].endswith(f"sm {mine[0]}") and after[1].startswith("d rabbit ")


# -- chat -------------------------------------------------------------------------------------


def test_chat_is_text_rate_limited_muted_by_the_host_and_kept_for_newcomers() -> None:
    room = friends("hana", "bob")
    markup = "<img src=x onerror=alert(1)>\u202e<b>hi</b>\n  there"
    assert room.send("bob", type="chat", text=markup) == {"type": "chat_sent", "table": TABLE}
    (line,) = messages(room, "hana", "chat")
    assert line["name"] == "bob" and line["seat"] == 1
    assert line["text"] == "<img src=x onerror=alert(1)><b>hi</b> there"  # as typed, as text
    assert room.refused("bob", type="chat", text=" \n ").code == "bad_chat"
    assert room.refused("bob", type="chat", text="x" * 201).code == "bad_message"
    for _ in range(4):
        assert room.send("bob", type="react", emoji="🔥")["type"] == "chat_sent"
    assert room.refused("bob", type="chat", text="one more").code == "too_fast"
    assert room.refused("bob", type="react", emoji="x").code == "bad_message"
    reactions = messages(room, "hana", "reaction")
    assert len(reactions) == 4
    assert reactions[0]["emoji"] == "🔥" and reactions[0]["name"] == "bob"
    assert room.refused("bob", type="host", action="mute", player="hana").code == "not_host"
    room.send("hana", type="host", action="mute", player="bob")
    room.wait(10.0)  # out of the rate limit's window is not enough for a mute
    assert room.refused("bob", type="chat", text="hello?").code == "muted"
    room.send("hana", type="host", action="unmute", player="bob")
    snapshot = room.send("watcher", type="spectate", invite=INVITE)
    assert [c["text"] for c in snapshot["chat"]] == [line["text"]]
    assert room.refused("watcher", type="chat", text="hi all").code == "no_chat"
    room.send("hana", type="host", action="spectator_chat", on=True)
    assert room.send("watcher", type="chat", text="hi all")["type"] == "chat_sent"
    assert room.send("bob", type="chat", text="back")["type"] == "chat_sent"  # unmuted
    assert [m["text"] for m in messages(room, "hana", "chat")] == [line["text"], "hi all", "back"]


# -- seat requests, who sits down, the host's page --------------------------------------------


def test_a_seat_request_outlives_a_reload() -> None:
    room = Room(show_seconds=PAUSE, decision_seconds=60.0)
    room.core.host.make_private(room.player("hana").id, INVITE)
    room.send("hana", type="spectate")
    asked = room.send("bob", type="request_seat", invite=INVITE, buy_in=150)
    assert asked["type"] == "seat_requested"
    room.submit(Disconnect(), room.caller("bob"))  # the page is closed
    (request,) = messages(room, "hana", "seat_request")
    assert request["player"] == "bob" and request["buy_in"] == 150
    assert room.refused("hana", type="host", action="approve", player="bob").code == "not_here"
    back = Inbox()  # the page again: bob watches, on a new connection
    send_from(room, back, "bob", type="spectate", invite=INVITE)
    done = room.send("hana", type="host", action="approve", player="bob")
    assert done["type"] == "host_done" and done["buy_in"] == 150
    (seated,) = [m for m in back.messages if m["type"] == "seated"]
    assert seated["stack"] == 150
    assert not messages(room, "bob", "seated")  # not on the connection that is gone


def test_everyone_learns_who_sits_down_and_the_host_state_keeps_the_mutes() -> None:
    room = friends("hana", "bob")
    house_bot(room, "hana", 4, "random")
    (joined,) = [m for m in messages(room, "bob", "player_joined") if m["seat"] == 4]
    assert joined["name"] == "bot5-random" and joined["bot"] is True
    first = next(m for m in messages(room, "hana", "player_joined") if m["seat"] == 1)
    assert first["name"] == "bob" and first["bot"] is False
    room.send("hana", type="host", action="mute", player="bob")
    room.send("hana", type="host", action="spectator_chat", on=True)
    start = len(room.person("hana").messages)
    room.send("hana", type="spectate")  # the host's page again
    (state,) = [m for m in room.person("hana").messages[start:] if m["type"] == "host_state"]
    assert state["muted"] == ["bob"] and state["spectator_chat"] is True
    refused = room.refused("hana", type="host", action="bomb_pot")
    assert refused.code == "illegal"  # this table has no bomb pots


def test_a_page_resumes_a_private_table_with_its_invite() -> None:
    room = Room(show_seconds=PAUSE, decision_seconds=60.0)
    room.core.host.make_private(room.player("hana").id, INVITE)
    assert room.refused("olly", type="resume", last_seq=0).code == "bad_invite"
    resumed = room.send("olly", type="resume", last_seq=0, invite=INVITE)
    assert resumed["type"] == "resumed" and resumed["view"]["viewer"] is None


def test_bots_are_marked_as_bots_for_everyone() -> None:
    room = Room(show_seconds=PAUSE, decision_seconds=60.0)
    room.core.host.make_private(room.player("hana").id, INVITE)
    room.person("robo", bot=True)  # a program that said so in its hello
    room.send("hana", type="host", action="pause")
    room.sit("hana", 0, buy_in=200)
    room.send("robo", type="request_seat", invite=INVITE, buy_in=200)
    room.send("hana", type="host", action="approve", player="robo")
    house_bot(room, "hana", 2, "calling-station")
    snapshot = room.send("hana", type="spectate")
    bots = {s["name"]: s["bot"] for s in snapshot["view"]["seats"]}
    assert bots == {"hana": False, "robo": True, "bot3-calling-station": True}
    joined = {m["name"]: m["bot"] for m in messages(room, "hana", "player_joined")}
    assert joined == {"hana": False, "robo": True, "bot3-calling-station": True}


# -- end to end: the database, the bus, the bot SDK, the hello -----------------------------


FAST = {"show_seconds": PAUSE}


async def open_table(host: Client, **options: Any) -> tuple[str, str]:
    """A private table of host's (blinds 1/2, buy-ins 80..400, a short pause after each
    hand): its id and invite."""
    reply = await host.ask(type="create_table", name="Friday", small_blind=1, big_blind=2,
                           private=True, decision_seconds=60.0, **{**FAST, **options})  # fmt: skip
    assert reply["type"] == "table_created", reply
    host.table = reply["table"]["id"]
    return host.table, reply["invite"]


async def join(
    host: Client, guest: Client, name: str, table: str, invite: str, *, buy_in: int = 200
) -> int:
    """``guest`` (called ``name``) asks for a seat and the host approves it: the seat."""
    guest.table = table
    asked = await guest.ask(type="request_seat", table=table, invite=invite, buy_in=buy_in)
    assert asked["type"] == "seat_requested", asked
    await host.wait(lambda m: m["type"] == "seat_request" and m["player"] == name)
    start = len(guest.messages)
    done = await host.host("approve", player=name)
    assert done["type"] == "host_done", done
    seated = await guest.wait(lambda m: m["type"] == "seated", start)
    return int(seated["seat"])


@contextlib.asynccontextmanager
async def online_friends(
    address: str, *names: str, **options: Any
) -> AsyncIterator[tuple[str, str, list[Client]]]:
    """A private table on the server with ``options`` (and a short pause after each hand),
    hosted by ``names[0]``, who pauses it and sits in seat 0, the others let in by the
    host in order, before any hand: the table, its invite and the clients."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(client(address, name)) for name in names]
        host = clients[0]
        table, invite = await open_table(host, **options)
        await host.host("pause")
        sat = await host.ask(type="sit", table=table, seat=0, buy_in=200)
        assert sat["type"] == "seated", sat
        for name, guest in zip(names[1:], clients[1:], strict=True):
            await join(host, guest, name, table, invite)
        yield table, invite, clients


async def act(c: Client, request: Message, action: str, **fields: Any) -> Message:
    return await c.ask(type="act", table=request["table"], action=action,
                       action_id=f"x{request['seq']}", seq=request["seq"], **fields)  # fmt: skip


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
    """End to end: the ledger and the exports are read from the database, of hands the
    server stored."""
    server, address = app
    async with online_friends(address, "hana", "bob", "cat") as (table, invite, clients):
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
    """End to end: a player is a bot by its hello, and a house bot by the player the
    server makes for the host's ``house_bot`` (server/hosting.py); the core's part is
    :func:`test_bots_are_marked_as_bots_for_everyone`."""
    _server, address = app
    async with client(address, "hana") as hana, client(address) as robo:
        hello = await robo.ask(type="hello", name="robo", bot=True)
        assert hello["type"] == "welcome"
        table, invite = await open_table(hana)
        await hana.ask(type="sit", table=table, seat=0, buy_in=200)
        await join(hana, robo, "robo", table, invite)
        await hana.host("house_bot", seat=2, strategy="calling-station")
        snapshot = await hana.ask(type="spectate", table=table)
        bots = {s["name"]: s["bot"] for s in snapshot["view"]["seats"]}
        assert bots == {"hana": False, "robo": True, "bot3-calling-station": True}


async def test_a_friends_bot_joins_through_the_link_and_plays_marked_as_a_bot(
    app: tuple[PokerServer, str],
) -> None:
    """End to end: the bot SDK and ``pokerroom bot run --link``, over the wire."""
    _server, address = app
    async with client(address, "hana") as hana:
        table, invite = await open_table(hana)
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
        created = await hana.ask(type="create_table", name="kuhn", game="kuhn", private=True,
                                 seats=2, ante=1, ante_kind="per_player", small_bet=1,
                                 **FAST)  # fmt: skip
        assert created["type"] == "table_created", created
        table, invite = created["table"]["id"], created["invite"]
        hana.table = table
        buy_in = int(created["table"]["max_buy_in"])
        await hana.ask(type="sit", table=table, seat=0, buy_in=buy_in)
        await join(hana, bob, "bob", table, invite, buy_in=buy_in)
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
        table, _ = await open_table(hana)
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
