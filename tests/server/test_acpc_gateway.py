"""The ACPC gateway (server/acpc/gateway.py): ACPC bots at our ordinary tables and in our
tournaments, over loopback. Our own ACPC player (server/acpc/client.py) and a raw socket
play through it against house bots; every line the bot is sent must be well formed and
agree with the hand the server stored."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from engine import (
    GAMES,
    ActionMenu,
    BetOrRaiseTo,
    Card,
    CheckOrCall,
    TableConfig,
    stakes_for_blinds,
)
from engine.acpc import GameDef, parse
from server.acpc.client import VERSION_LINE, AcpcPlayer, parse_match_state
from server.acpc.dealing import card_text
from server.acpc.gamedefs import acpc_card, gamedef_text, table_gamedef
from server.acpc.gateway import GatewayConfig, GatewayError, GatewayResult, run_gateway
from server.acpc.seat import Answer, SeatTranslator, StrictRefusal
from server.acpc.state import HandState
from server.app import PokerServer, ServerSettings
from server.bots import CallingStation
from server.bots.loader import load_bot_spec
from server.bots.tournament_client import TournamentClient
from server.cli import main
from server.store import Store
from tests.helpers import ask

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"MATCHSTATE:(\d+):(\d+):((?:[fc]|r\d*)*(?:/(?:[fc]|r\d*)*)*):"
    r"((?:[2-9TJQKA][cdhs])*(?:\|(?:[2-9TJQKA][cdhs])*)*)((?:/(?:[2-9TJQKA][cdhs])*)*)"
)


@dataclass
class Room:
    server: PokerServer
    store: Store
    url: str


@contextlib.asynccontextmanager
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'gw.db'}") as store:
        server = PokerServer(store, ServerSettings(port=0, house_think_seconds=0.0))
        async with server.running():
            yield Room(server, store, server.hosting.address)


async def table(r: Room, name: str, house: list[str], *, seats: int = 2, game: str = "nlhe") -> str:
    """A table of house bots in its first seats, stacks of 20,000, a 2 s clock."""
    g = GAMES[game]
    config = TableConfig(game=g, seats=seats, **stakes_for_blinds(g, 50, 100))
    runner = await r.server.hosting.create_table(name, config, decision_seconds=2.0,
                                                 time_bank_seconds=0.0)  # fmt: skip
    bots = {s: (f"{name}-house-{s}", bot) for s, bot in enumerate(house)}
    await r.server.hosting.add_house_bots(runner, bots, stack=20_000)
    return runner.settings.table_id


async def start_gateway(
    config: GatewayConfig,
) -> tuple[asyncio.Task[GatewayResult], int, io.StringIO, io.StringIO]:
    ports: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    out, err = io.StringIO(), io.StringIO()
    task = asyncio.create_task(run_gateway(config, out, err, ports.set_result))
    waits: set[asyncio.Future[Any]] = {task, ports}
    done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()  # raises
    return task, await ports, out, err


async def play_acpc(port: int, game: GameDef, bot: str) -> tuple[list[str], AcpcPlayer]:
    """Our ACPC player with ``bot`` at the port; every line it was sent."""
    player = AcpcPlayer(game, load_bot_spec(bot), io.StringIO())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{VERSION_LINE}\n".encode())
    seen: list[str] = []
    while data := await reader.readline():
        line = data.decode().rstrip("\r\n")
        seen.append(line)
        reply = player.respond(line)
        if reply is not None:
            writer.write(f"{reply}\r\n".encode())
            await writer.drain()
    writer.close()
    return seen, player


# -- what the stored hand says the bot should have seen -------------------------------------


def expected_final(stored: Any, me: str, hand_id: int) -> str:
    """The last MATCHSTATE line of a stored hand for player ``me``: its betting (raise-to
    over the hand, as ACPC writes it) and the cards ``me`` may see at its end."""
    info = stored.info
    hh = info.history
    n = len(info.players)
    # PHH's order is ACPC's: heads-up, p1 is the big blind (PHH reverses the blinds).
    position = list(range(n))
    mine = info.players.index(me)
    street = [int(b) for b in hh.blinds_or_straddles]
    if n == 2:
        street.reverse()
    earlier = [0] * n
    rounds: list[str] = [""]
    holes = [""] * n
    board: list[str] = []
    for text in hh.actions:
        parts = text.split()
        if parts[:2] == ["d", "db"]:
            earlier = [e + s for e, s in zip(earlier, street, strict=True)]
            street = [0] * n
            rounds.append("")
            board.append(parts[2])
            continue
        if parts[0] == "d":
            if parts[1] == "dh" and position[int(parts[2][1:]) - 1] == mine:
                holes[mine] = parts[3]
            continue
        p = int(parts[0][1:]) - 1
        if parts[1] == "f":
            rounds[-1] += "f"
        elif parts[1] == "cc":
            rounds[-1] += "c"
            street[p] = max(street)
        elif parts[1] == "cbr":
            street[p] = int(parts[2])
            rounds[-1] += f"r{earlier[p] + street[p]}"
        elif parts[1] == "sm" and len(parts) > 2:
            holes[position[p]] = parts[2]
    return f"MATCHSTATE:{mine}:{hand_id}:{'/'.join(rounds)}:{'|'.join(holes)}" + "".join(
        f"/{b}" for b in board
    )


async def check_against_store(r: Room, name: str, seen: list[str]) -> int:
    """Every line well formed; each hand's last line as the stored hand says; returns the
    number of hands."""
    by_hand: dict[int, list[str]] = {}
    for line in seen:
        match = LINE.fullmatch(line)
        assert match, line
        by_hand.setdefault(int(match.group(2)), []).append(line)
    summaries = sorted(await r.store.list_hands(player=name, limit=500), key=lambda h: h.id)
    assert sorted(by_hand) == list(range(len(by_hand)))
    for hand_id, lines in by_hand.items():
        stored = await r.store.stored_hand(summaries[hand_id].id)
        assert lines[-1] == expected_final(stored, name, hand_id), (lines, stored.info.history)
        # One line when the hand starts and one after each action.
        betting = lines[-1].split(":")[3]
        assert len(lines) == len(re.findall(r"[fc]|r\d*", betting)) + 1, lines
        for earlier, later in itertools.pairwise(lines):
            assert later.split(":")[3].startswith(earlier.split(":")[3].rstrip("/"))
    return len(by_hand)


# -- (a) heads-up, our ACPC player through the gateway ----------------------------------------


async def test_our_acpc_player_plays_heads_up_at_an_ordinary_table(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "HU", ["calling-station"])
        gamedef = tmp_path / "hu.game"
        config = GatewayConfig(url=r.url, name="acpc-tag", table=table_id, hands=30,
                               gamedef=gamedef, rebuy=True)  # fmt: skip
        task, port, out, err = await start_gateway(config)
        game = parse(gamedef.read_text())
        assert gamedef.read_text() == gamedef_text(
            table_gamedef(TableConfig(small_blind=50, big_blind=100, seats=2), 2, 20_000)
        )
        async with asyncio.timeout(60):
            seen, player = await play_acpc(port, game, "tight-aggressive")
            result = await task
        assert out.getvalue() == f"{port}\n"
        assert result.reason == "hands" and result.refusal is None, err.getvalue()
        assert result.hands == 30
        assert await check_against_store(r, "acpc-tag", seen) == 30
        assert player.summary.decisions > 0  # (its hand count trusts the gamedef's stacks)


# -- (b) the handshake, the lines and bad replies, over a raw socket --------------------------


def bot_to_act(line: str, game: GameDef) -> bool:
    """Whether ``line`` is the bot's to answer, by game.c's rules (the gamedef's stacks)."""
    state = parse_match_state(line, game)
    hand = HandState(game, 0, ((0, 0),) * game.num_players, (0,) * 5)
    for action in state.moves:
        hand.apply(action)
    return not hand.finished and hand.current_player() == state.position


async def raw_bot(port: int, version: bytes = b"VERSION:2.0.0\r\n") -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(version)
    await writer.drain()
    return reader, writer


HU = table_gamedef(TableConfig(small_blind=50, big_blind=100, seats=2), 2, 20_000)


async def test_the_handshake_the_lines_and_bad_replies_fixed_as_the_dealer_fixes_them(
    tmp_path: Path,
) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Raw", ["calling-station"])
        config = GatewayConfig(url=r.url, name="raw", table=table_id, hands=4)
        task, port, out, err = await start_gateway(config)
        reader, writer = await raw_bot(port)  # CRLF: read as LF
        writer.write(b"# a comment, skipped\n")
        tried: dict[str, str] = {}  # what we sent -> the line answered
        answered: list[tuple[str, str]] = []
        async with asyncio.timeout(30):
            while data := await reader.readline():
                assert data.endswith(b"\r\n"), data
                line = data.decode()[:-2]
                assert LINE.fullmatch(line), line
                if not bot_to_act(line, HU):
                    continue
                menu_state = parse_match_state(line, HU)
                hand = HandState(HU, 0, ((0, 0), (0, 0)), (0,) * 5)
                for action in menu_state.moves:
                    hand.apply(action)
                free = hand.spent[menu_state.position] == hand.max_spent
                choice = next(
                    (
                        a
                        for a, ok in (("f", free), ("x", True), ("r1", True))
                        if ok and a not in tried
                    ),
                    "c",
                )
                if choice != "c":
                    tried[choice] = line
                    if choice == "x":  # first a reply to another line: ignored, then the real one
                        writer.write(b"MATCHSTATE:9:9:::c\r\n")
                writer.write(f"{line}:{choice}\n".encode())
                await writer.drain()
                answered.append((line, choice))
            result = await task
        writer.close()
        assert out.getvalue() == f"{port}\n"
        assert result.reason == "hands" and result.hands == 4 and result.refusal is None
        log = err.getvalue()
        assert "ignoring un-requested response 'MATCHSTATE:9:9:::c'" in log
        assert "cannot read action 'x': changed to call" in log
        if "f" in tried:
            assert "action 'f' is not allowed now: changed to call" in log
        assert "raise to 1 is outside" in log and "clamped to" in log
        # What the table played: the hand the bot saw next says so.
        hands = sorted(await r.store.list_hands(player="raw", limit=50), key=lambda h: h.id)
        assert len(hands) == 4
        for sent, line in tried.items():
            hand_id, betting = int(line.split(":")[2]), line.split(":")[3]
            stored = await r.store.stored_hand(hands[hand_id].id)
            final = expected_final(stored, "raw", hand_id).split(":")[3]
            rest = final[len(betting) :]
            if sent in ("f", "x"):
                assert rest.startswith("c"), (sent, line, final)
            else:
                assert re.match(r"r\d+", rest) and int(re.match(r"r(\d+)", rest)[1]) > 1  # type: ignore[index]


async def test_strict_ends_the_connection_saying_why(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Strict", ["calling-station"])
        config = GatewayConfig(url=r.url, name="strict", table=table_id, strict=True)
        task, port, _, err = await start_gateway(config)
        reader, writer = await raw_bot(port, b"VERSION:2.0.0\n")
        said: list[str] = []
        async with asyncio.timeout(30):
            while data := await reader.readline():
                line = data.decode().rstrip("\r\n")
                said.append(line)
                if line.startswith("MATCHSTATE") and bot_to_act(line, HU):
                    writer.write(f"{line}:x\r\n".encode())
                    await writer.drain()
            result = await task
        writer.close()
        assert said[-1] == "# disconnected: cannot read action 'x'"
        assert result.reason == "refused" and result.refusal == "cannot read action 'x'"
        assert "ERROR: cannot read action 'x': disconnecting the bot" in err.getvalue()
        assert await players_at(r, table_id) == ["Strict-house-0"]  # the gateway left


async def players_at(r: Room, table_id: str) -> list[str]:
    """Who sits at the table once its hand is over (a player leaving mid-hand stands up
    when it ends)."""
    async with connect(r.url) as ws:
        for _ in range(50):
            tables = (await ask(ws, {"type": "list_tables"}))["tables"]
            names = [p["name"] for t in tables if t["id"] == table_id for p in t["players"]]
            if len(names) == 1:
                break
            await asyncio.sleep(0.1)
    return names


async def test_a_version_line_that_does_not_parse_ends_the_connection(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Version", ["calling-station"])
        task, port, _, _ = await start_gateway(GatewayConfig(url=r.url, name="v", table=table_id))
        reader, writer = await raw_bot(port, b"HELLO\r\n")
        with pytest.raises(GatewayError, match="invalid version string 'HELLO'"):
            await asyncio.wait_for(task, 10)
        assert await reader.read() == b""
        writer.close()
        # A wrong version number is only warned about.
        task, port, _, err = await start_gateway(
            GatewayConfig(url=r.url, name="v2", table=table_id, hands=1)
        )
        reader, writer = await raw_bot(port, b"VERSION:3.0.0\n")
        writer.close()  # and hanging up leaves the table
        result = await asyncio.wait_for(task, 20)
        assert "WARNING: this gateway is using version 2.0.0" in err.getvalue()
        assert result.reason in ("stopped", "hands")


# -- (c) three-handed ---------------------------------------------------------------------------


async def test_three_handed_with_two_house_bots(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Three", ["calling-station", "tight-aggressive"], seats=3)
        gamedef = tmp_path / "3p.game"
        config = GatewayConfig(
            url=r.url, name="acpc-3", table=table_id, hands=12, gamedef=gamedef, rebuy=True
        )
        task, port, _, err = await start_gateway(config)
        game = parse(gamedef.read_text())
        assert (game.num_players, game.blind, game.first_player) == (3, (50, 100, 0), (3, 1, 1, 1))
        async with asyncio.timeout(60):
            seen, _ = await play_acpc(port, game, "calling-station")
            result = await task
        assert result.reason == "hands" and result.refusal is None, err.getvalue()
        assert await check_against_store(r, "acpc-3", seen) == 12
        assert {int(line.split(":")[1]) for line in seen} == {0, 1, 2}  # every position


# -- (d) a tournament ---------------------------------------------------------------------------


async def test_an_acpc_bot_plays_a_tournament_to_its_end(tmp_path: Path) -> None:
    async with room(tmp_path) as r, connect(r.url) as admin:
        await ask(admin, {"type": "hello", "name": "organizer"})
        created = await ask(admin, {
            "type": "create_tournament", "name": "Gateway", "format": "ring", "field": 2,
            "seats": 2, "hands": 12, "seed": "gw", "decision_seconds": 2,
        })  # fmt: skip
        tid = created["tournament"]["id"]
        gamedef = tmp_path / "t.game"
        config = GatewayConfig(url=r.url, name="acpc-t", tournament=tid, gamedef=gamedef)
        task, port, _, err = await start_gateway(config)
        game = parse(gamedef.read_text())
        assert (game.num_players, game.stack, game.blind) == (2, (10_000, 10_000), (100, 50))
        other = TournamentClient(CallingStation(), r.url, tid, name="station")
        async with asyncio.timeout(60):
            (seen, _), outcome, result = await asyncio.gather(
                play_acpc(port, game, "tight-aggressive"), other.run(), task
            )
        assert outcome.state == result.reason == "finished", err.getvalue()
        assert {s["name"] for s in result.standings} == {"acpc-t", "station"}
        assert result.hands == 12 and result.refusal is None
        assert await check_against_store(r, "acpc-t", seen) == 12


# -- (e) what ACPC cannot express, and other refusals -----------------------------------------


async def test_a_stud_table_is_refused_naming_the_game(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Stud", ["calling-station"], game="stud")
        with pytest.raises(GatewayError, match=r"'stud' .* face up, which ACPC cannot express"):
            await run_gateway(GatewayConfig(url=r.url, name="s", table=table_id))
        with pytest.raises(GatewayError, match="no table 'nope' on the server"):
            await run_gateway(GatewayConfig(url=r.url, name="s", table="nope"))
        with pytest.raises(GatewayError, match="no tournament 7 on the server"):
            await run_gateway(GatewayConfig(url=r.url, name="s", tournament=7))


def test_the_command_line_says_what_is_wrong_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["acpc", "gateway", "ws://127.0.0.1:1/ws", "--table", "demo", "--name", "x"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerroom acpc gateway: error: cannot reach the server at ")
    assert len(err.splitlines()) == 1


# -- examples/acpc_bot.py -------------------------------------------------------------------------


async def test_the_example_acpc_bot_plays_through_the_gateway(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Example", ["calling-station"])
        config = GatewayConfig(url=r.url, name="example", table=table_id, hands=10)
        task, port, _, err = await start_gateway(config)
        bot = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "examples" / "acpc_bot.py"), "127.0.0.1", str(port),
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        async with asyncio.timeout(60):
            _, said = await bot.communicate()
            result = await task
        assert bot.returncode == 0 and said.decode() == "hands seen: 10\n"
        assert result.reason == "hands" and result.hands == 10, err.getvalue()
        assert "un-requested" not in err.getvalue(), err.getvalue()
        assert len(await r.store.list_hands(player="example", limit=50)) == 10


async def test_a_name_in_use_hangs_up_on_the_bot(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Taken", ["calling-station"])
        config = GatewayConfig(url=r.url, name="Taken-house-0", table=table_id)
        task, port, _, _ = await start_gateway(config)
        reader, writer = await raw_bot(port)
        with pytest.raises(GatewayError, match="hello refused: name_taken"):
            await asyncio.wait_for(task, 20)
        assert await reader.read() == b""
        writer.close()


# -- the translation, event by event --------------------------------------------------------------


def started(seats: list[int], stacks: list[int], big_blind_seat: int) -> dict[str, Any]:
    return {"type": "hand_started", "seats": seats, "stacks": stacks,
            "big_blind_seat": big_blind_seat}  # fmt: skip


def posted(seat: int, kind: str, amount: int) -> dict[str, Any]:
    return {"type": "forced_bet_posted", "seat": seat, "kind": kind, "increment": amount}


def acted(seat: int, kind: str, street_total: int = 0) -> dict[str, Any]:
    return {"type": "action_taken", "seat": seat, "kind": kind, "street_total": street_total}


def dealt(seat: int, cards: list[str] | None) -> dict[str, Any]:
    return {"type": "hole_cards_dealt", "seat": seat, "cards": cards}


def board(cards: list[str]) -> dict[str, Any]:
    return {"type": "board_dealt", "board": cards}


def menu(seat: int, low: int, high: int, *, check: bool = False) -> ActionMenu:
    return ActionMenu(seat=seat, can_fold=not check, can_check=check, call=0 if check else 200,
                      call_is_all_in=False, can_raise=True, min_raise_to=low,
                      max_raise_to=high, raise_is_all_in_only=False, is_bet=False)  # fmt: skip


def follow(seat: SeatTranslator, events: list[dict[str, Any]], me: int = 1) -> list[str | None]:
    return [seat.apply(e, me, io.StringIO()) for e in events]


def test_a_hand_becomes_lines_after_every_action_and_at_its_end() -> None:
    seat = SeatTranslator(HU, GAMES["nlhe"])
    # Seat 0 is the button (small blind), seat 1 ours, the big blind: ACPC position 0.
    lines = follow(seat, [
        started([1, 0], [1000, 1000], 1), posted(0, "small_blind", 50),
        posted(1, "big_blind", 100), dealt(1, ["As", "Kd"]), dealt(0, None),
        acted(0, "raise", 300),
    ])  # fmt: skip
    assert [x for x in lines if x] == ["MATCHSTATE:0:0::AsKd|", "MATCHSTATE:0:0:r300:AsKd|"]
    assert seat.bot_to_act()
    # r<N> is over the whole hand; our act is the street total, within our menu.
    assert seat.answer("r900", menu(1, 500, 1000), strict=False) == Answer(BetOrRaiseTo(1, 900))
    clamped = seat.answer("r5000", menu(1, 500, 1000), strict=False)
    assert clamped == Answer(
        BetOrRaiseTo(1, 1000), "raise to 5000 is outside 500..1000: clamped to 1000"
    )
    with pytest.raises(StrictRefusal, match="cannot read action 'x'"):
        seat.answer("x", menu(1, 500, 1000), strict=True)
    lines = follow(seat, [
        acted(1, "raise", 900), acted(0, "call", 900), board(["2c", "3d", "4h"]),
        acted(1, "bet", 100),
    ])  # fmt: skip
    assert lines == [
        "MATCHSTATE:0:0:r300r900:AsKd|", None,  # the round's cards come next
        "MATCHSTATE:0:0:r300r900c/:AsKd|/2c3d4h", "MATCHSTATE:0:0:r300r900c/r1000:AsKd|/2c3d4h",
    ]  # fmt: skip
    assert not seat.bot_to_act()
    end = {"type": "hand_ended", "board": ["2c", "3d", "4h"]}
    assert follow(seat, [acted(0, "fold"), end]) == [
        None,
        "MATCHSTATE:0:0:r300r900c/r1000f:AsKd|/2c3d4h",
    ]


def test_a_fold_when_checking_is_free_is_a_check() -> None:
    seat = SeatTranslator(HU, GAMES["nlhe"])
    follow(seat, [
        started([1, 0], [1000, 1000], 1), posted(0, "small_blind", 50),
        posted(1, "big_blind", 100), dealt(1, ["As", "Kd"]), dealt(0, None), acted(0, "call"),
    ])  # fmt: skip
    answer = seat.answer("f", menu(1, 200, 1000, check=True), strict=False)
    assert answer == Answer(CheckOrCall(1), "action 'f' is not allowed now: changed to call")


def test_antes_are_left_out_of_the_amounts() -> None:
    seat = SeatTranslator(HU, GAMES["nlhe"])
    lines = follow(seat, [
        started([1, 0], [1000, 1000], 1), posted(1, "ante", 10), posted(0, "ante", 10),
        posted(0, "small_blind", 50), posted(1, "big_blind", 100), dealt(1, ["As", "Kd"]),
        dealt(0, None), acted(0, "raise", 990),
    ])  # fmt: skip
    # The button is all in for what it had left after its ante: game.c's rules agree.
    assert lines[-1] == "MATCHSTATE:0:0:r990:AsKd|"
    assert seat.bot_to_act()


def test_a_hand_of_another_size_is_not_sent_unless_asked() -> None:
    three = table_gamedef(TableConfig(small_blind=50, big_blind=100, seats=3), 3, 1000)
    hand = [
        started([1, 0], [1000, 1000], 1), posted(0, "small_blind", 50),
        posted(1, "big_blind", 100), dealt(1, ["As", "Kd"]), dealt(0, None),
    ]  # fmt: skip
    seat = SeatTranslator(three, GAMES["nlhe"])
    assert follow(seat, hand) == [None] * 5 and (seat.hands, seat.skipped) == (1, 1)
    anyway = SeatTranslator(three, GAMES["nlhe"], any_players=True)
    assert follow(anyway, hand)[-2] == "MATCHSTATE:0:0::AsKd|"


def test_kuhn_cards_are_the_acpc_dealers() -> None:
    kuhn = GAMES["kuhn"].deck
    assert [card_text(acpc_card(Card.parse(c), kuhn)) for c in ("Js", "Qs", "Ks")] == [
        "Qs",
        "Ks",
        "As",
    ]


def test_a_big_blind_all_in_short_of_the_small_blind_is_written_as_an_all_in() -> None:
    seat = SeatTranslator(HU, GAMES["nlhe"])
    lines = follow(seat, [
        started([1, 0], [30, 5000], 1), posted(0, "small_blind", 50), posted(1, "big_blind", 30),
        dealt(1, ["As", "Kd"]), dealt(0, None), {"type": "cards_shown", "seat": 0,
        "cards": ["2c", "2d"]}, board(["3c", "4d", "5h"]), board(["3c", "4d", "5h", "9s"]),
        board(["3c", "4d", "5h", "9s", "Tc"]),
        {"type": "hand_ended", "board": ["3c", "4d", "5h", "9s", "Tc"]},
    ])  # fmt: skip
    assert [x for x in lines if x] == [
        "MATCHSTATE:0:0::AsKd|",
        "MATCHSTATE:0:0:///:AsKd|2c2d/3c4d5h/9s/Tc",
    ]


async def test_an_account_plays_by_its_token(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await table(r, "Account", ["calling-station"])
        async with connect(r.url) as ws:
            account = await ask(ws, {"type": "create_account", "name": "acct"})
        config = GatewayConfig(
            url=r.url, name="acct", token=account["token"], table=table_id, hands=2
        )
        task, port, _, err = await start_gateway(config)
        async with asyncio.timeout(30):
            await play_acpc(port, HU, "calling-station")
            result = await task
        assert result.reason == "hands", err.getvalue()
        assert len(await r.store.list_hands(player="acct", limit=10)) == 2
