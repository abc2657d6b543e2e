"""Hostile ACPC bots (issue 29, item 13) against our dealer and the gateway, over loopback:
what a bot sends (a raise of 5,000 or 100,000 digits, non-ASCII, NUL bytes, binary junk,
over-long lines, a line never ended), and what it does not (a bot gone silent, one that
hangs up mid-hand), is fixed or refused as the ACPC dealer does; no task dies or hangs;
the gateway always leaves its table through the ledger's path, so no seat or chips stay
behind."""

from __future__ import annotations

import asyncio
import io
import re
import signal
import socket
import sys
import time
from asyncio.subprocess import PIPE
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import GAMES, TableConfig, stakes_for_blinds
from engine.acpc import parse
from server.acpc.bridge import BotLink
from server.acpc.client import HUNL_TEXT, play_match
from server.acpc.dealer import MatchError
from server.acpc.gateway import GatewayConfig, GatewayResult
from server.acpc.lines import MAX_LINE, read_line
from server.acpc.state import MAX_SIZE, Action, HandState, parse_action
from server.bots.loader import load_bot_spec
from tests.server.test_acpc_dealer import load, start_match, to_act
from tests.server.test_acpc_gateway import (
    HU,
    ROOT,
    Room,
    bot_to_act,
    players_at,
    raw_bot,
    room,
    start_gateway,
)

NLHE = load("holdem.nolimit.2p.reverse_blinds.game")
HU_GAME = parse(HUNL_TEXT)

# What a bot answers a state with, after "<state>:"; and what the dealer's game.c rules
# make of it at the first decision of a heads-up no-limit hand (blinds 50/100, stacks
# 20,000): a call, or a raise-to clamped into 200..20000.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "4,000 digits": (b"r" + b"9" * 4000, "r20000"),
    "5,000 digits": (b"r" + b"9" * 5000, "c"),  # a line of over 4,096 bytes
    "100,000 digits": (b"r" + b"9" * 100_000, "c"),
    "minus 4,000 digits": (b"r-" + b"9" * 4000, "r200"),
    "minus 5,000 digits": (b"r-" + b"9" * 5000, "c"),
    "zeros then 7 digits": (b"r" + b"0" * 3000 + b"1000000", "r20000"),
    "below the minimum": (b"r1", "r200"),
    "above the stack": (b"r999999", "r20000"),
    "non-ASCII digits": ("r١٢٣".encode(), "c"),
    "non-ASCII": ("é☃ ☠".encode(), "c"),
    "invalid UTF-8": (b"\xff\xfe\xc3", "c"),
    "NUL bytes": (b"r\x00\x00", "c"),
    "binary junk": (bytes(b for b in range(256) if b != 10), "c"),
}


# -- reading: bounded, total ------------------------------------------------------------------


@given(st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1")))
def test_parse_action_reads_any_text_without_raising(text: str) -> None:
    action = parse_action(text, NLHE)
    assert action is None or (action.kind in "fcr" and abs(action.size) <= MAX_SIZE)
    hand = HandState(NLHE, 0, ((0, 1), (2, 3)), (4, 5, 6, 7, 8))
    fixed = hand.fix(action)
    assert fixed is None or hand.is_valid(fixed)


def test_a_raise_of_any_number_of_digits_saturates_instead_of_raising() -> None:
    for digits in (4000, 5000, 100_000, 1_000_000):
        assert parse_action("r" + "9" * digits, NLHE) == Action("r", MAX_SIZE)
        assert parse_action("r-" + "9" * digits, NLHE) == Action("r", -MAX_SIZE)
    assert parse_action("r" + "0" * 5000 + "250", NLHE) == Action("r", 250)
    assert parse_action("r١٢٣", NLHE) is None  # sscanf's %d reads ASCII digits only
    assert parse_action("r \t300", NLHE) == Action("r", 300)


async def lines_read(data: bytes, *, eof: bool = True) -> list[tuple[str, bool] | None]:
    reader = asyncio.StreamReader(limit=2**16)
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    got: list[tuple[str, bool] | None] = []
    while (line := await read_line(reader)) is not None:
        got.append((line.text, line.cut))
    return got


async def test_lines_are_cut_at_the_bound_and_the_rest_of_them_dropped() -> None:
    long = b"A" * (MAX_LINE - 1) + b"B" + b"C" * 200_000  # past the stream's own limit too
    got = await lines_read(b"one\r\n" + long + b"\r\ntwo\n" + b"x" * MAX_LINE + b"\n" + b"tail")
    assert got == [
        ("one", False),
        ("A" * (MAX_LINE - 1) + "B", True),
        ("two", False),
        ("x" * MAX_LINE, False),  # exactly the bound: whole
    ]  # and "tail", never ended, is no line: the peer hung up in the middle of it
    assert await lines_read(b"\x00\xff\xc3(\n") == [("\x00\ufffd\ufffd(", False)]


def reset_on_close(writer: asyncio.StreamWriter) -> None:
    """Closing sends an RST, not a FIN (SO_LINGER on, 0 s)."""
    linger = (1).to_bytes(4, "little") + (0).to_bytes(4, "little")
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)


# -- the dealer ---------------------------------------------------------------------------------


async def hostile_client(port: int, mine: Any, payload: bytes, *, junk: bool = False) -> list[str]:
    """Answers its first decision with ``payload`` (before it, with ``junk``, lines that
    answer nothing: over-long, NUL, binary), every other with a call."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"VERSION:2.0.0\n")
    seen: list[str] = []
    first = True
    while data := await reader.readline():
        line = data.decode().rstrip("\r\n")
        seen.append(line)
        if line.startswith("#") or not mine(line):
            continue
        if first and junk:
            writer.write(b"x" * 100_000 + b"\n" + b"\x00" * 10 + b"\n" + bytes(range(10)) + b"\n")
        writer.write(line.encode() + b":" + (payload if first else b"c") + b"\n")
        first = False
        await writer.drain()
    writer.close()
    return seen


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_the_dealer_fixes_a_hostile_action_and_the_match_plays_on(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    payload, played = HOSTILE[name]
    mine = to_act(NLHE)
    task, ports, _ = await start_match(3)
    async with asyncio.timeout(30):
        caller = hostile_client(ports[0], mine, b"c")
        # Seat 1 is position 1 in hand 0, first to act preflop.
        hostile = hostile_client(ports[1], mine, payload)
        await asyncio.gather(caller, hostile)
        totals = await task
    log = (tmp_path / "m.log").read_text().splitlines()
    states = [line for line in log if line.startswith("STATE:")]
    assert len(states) == 3 and log[-1].startswith("SCORE:")
    assert totals[0] == -totals[1]
    betting = states[0].split(":")[2]
    assert re.match(re.escape(played) + r"(?![0-9])", betting), (name, betting)


async def test_the_dealer_ignores_lines_that_answer_nothing_over_long_nul_or_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = to_act(NLHE)
    task, ports, _ = await start_match(2)
    async with asyncio.timeout(30):
        await asyncio.gather(
            hostile_client(ports[0], mine, b"c", junk=True),
            hostile_client(ports[1], mine, b"r300", junk=True),
        )
        await task
    states = [s for s in (tmp_path / "m.log").read_text().splitlines() if s.startswith("STATE")]
    assert states[0].split(":")[2].startswith("r300c")


async def test_strict_refuses_an_over_long_line_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = to_act(NLHE)
    task, ports, out = await start_match(strict=True)
    async with asyncio.timeout(30):
        seen = await asyncio.gather(
            hostile_client(ports[0], mine, b"c"),
            hostile_client(ports[1], mine, b"r" + b"9" * 5000),
        )
        with pytest.raises(MatchError, match=f"seat 2: a line longer than {MAX_LINE} bytes"):
            await task
    assert seen[1][-1] == f"# disconnected: a line longer than {MAX_LINE} bytes"
    assert "SCORE" not in out.getvalue()


@pytest.mark.parametrize("ending", ["close", "reset"])
async def test_a_bot_that_hangs_up_mid_hand_ends_the_match_at_once(
    ending: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = to_act(NLHE)
    task, ports, out = await start_match(5)
    caller = asyncio.create_task(hostile_client(ports[0], mine, b"c"))
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[1])
    writer.write(b"VERSION:2.0.0\n")
    async with asyncio.timeout(10):
        while not mine(line := (await reader.readline()).decode().rstrip("\r\n")):
            pass
        writer.write(line.encode() + b":r")  # half a reply, never ended
        await writer.drain()
        if ending == "reset":  # an RST, not a FIN
            reset_on_close(writer)
        writer.close()
        started = time.monotonic()
        with pytest.raises(MatchError, match="could not get action from seat 2: disconnected"):
            await task
        await caller  # the other seat was hung up on: it has returned
    print(f"\nmatch ended {time.monotonic() - started:.3f} s after the bot hung up")
    assert "SCORE" not in out.getvalue()


# -- our ACPC player, at a hostile dealer -------------------------------------------------------


async def test_our_acpc_player_reads_past_whatever_a_dealer_sends() -> None:
    junk = [
        b"x" * 100_000,  # over the stream's own 64 KiB limit too
        b"MATCHSTATE:" + b"9" * 5000 + b":0::AsKd|",
        b"MATCHSTATE:1:0:r" + b"9" * 5000 + b":|AsKd",
        b"\x00\xff\xfe junk \x01",
    ]
    replies: asyncio.Queue[bytes] = asyncio.Queue()

    async def dealer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # VERSION:2.0.0
        writer.write(b"\r\n".join([*junk, b"MATCHSTATE:1:0::|AsKd", b""]))
        await writer.drain()
        await replies.put(await reader.readline())
        writer.close()

    server = await asyncio.start_server(dealer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    err = io.StringIO()
    async with asyncio.timeout(10):
        summary = await play_match("127.0.0.1", port, HU_GAME, load_bot_spec("calling-station"),
                                   err)  # fmt: skip
    server.close()
    assert (await replies.get()).startswith(b"MATCHSTATE:1:0::|AsKd:c")
    assert summary.decisions == 1
    assert f"a line longer than {MAX_LINE} bytes; ignored" in err.getvalue()


# -- the gateway --------------------------------------------------------------------------------


async def fast_table(r: Room, name: str, decision_seconds: float = 2.0) -> str:
    """Heads-up no-limit 50/100 against a calling station with 20,000."""
    g = GAMES["nlhe"]
    config = TableConfig(game=g, seats=2, **stakes_for_blinds(g, 50, 100))
    runner = await r.server.hosting.create_table(
        name, config, decision_seconds=decision_seconds, time_bank_seconds=0.0
    )
    await r.server.hosting.add_house_bots(runner, {0: (f"{name}-house", "calling-station")},
                                          stack=20_000)  # fmt: skip
    return runner.settings.table_id


async def balanced_and_gone(r: Room, table_id: str, name: str, player: str) -> list[Any]:
    """Once the gateway's player has stood up: the table's ledger, which must balance and
    show every session of ``player`` ended, cashed out to 0."""
    assert await players_at(r, table_id) == [f"{name}-house"]
    for _ in range(100):
        sessions = await r.store.ledger_sessions(table_id)
        mine = [s for s in sessions if s.nickname == player]
        if mine and all(s.end is not None for s in mine):
            break
        await asyncio.sleep(0.05)
    assert mine and all(s.end is not None and s.stack == 0 for s in mine), sessions
    assert sum(s.net for s in sessions) == 0, sessions
    return sessions


async def test_the_gateway_fixes_every_hostile_reply_and_the_table_plays_on(
    tmp_path: Path,
) -> None:
    names = list(HOSTILE)
    async with room(tmp_path) as r:
        table_id = await fast_table(r, "Hostile")
        config = GatewayConfig(url=r.url, name="hostile", table=table_id, hands=len(names),
                               rebuy=True)  # fmt: skip
        task, port, _, err = await start_gateway(config)
        reader, writer = await raw_bot(port)
        answered: dict[int, tuple[str, str]] = {}  # hand -> (the line answered, payload name)
        final: dict[int, str] = {}
        async with asyncio.timeout(60):
            while data := await reader.readline():
                line = data.decode().rstrip("\r\n")
                hand_id = int(line.split(":")[2])
                final[hand_id] = line
                if not bot_to_act(line, HU):
                    continue
                if hand_id in answered or hand_id >= len(names):
                    writer.write(f"{line}:c\n".encode())
                    continue
                answered[hand_id] = (line, names[hand_id])
                # Lines that answer nothing first: over-long, NUL, binary; then the reply.
                writer.write(b"y" * 70_000 + b"\n\x00\x00\n" + bytes(range(10)) + b"\n")
                writer.write(line.encode() + b":" + HOSTILE[names[hand_id]][0] + b"\n")
                await writer.drain()
            result = await task
        writer.close()
        log = err.getvalue()
        assert result.reason == "hands" and result.hands == len(names), log
        assert "Traceback" not in log and "Exception" not in log
        assert len(answered) == len(names)
        for hand_id, (line, name) in answered.items():
            betting = line.split(":")[3]
            rest = final[hand_id].split(":")[3][len(betting) :]
            played = HOSTILE[name][1]
            if played == "c":
                assert rest.startswith("c"), (name, line, final[hand_id])
            else:  # clamped into the range of the hand (stacks carry over at a table)
                assert re.match(r"r\d+", rest), (name, line, final[hand_id])
        assert f"a line longer than {MAX_LINE} bytes: changed to call" in log
        await balanced_and_gone(r, table_id, "Hostile", "hostile")


async def test_a_silent_bot_is_sat_out_and_the_gateway_leaves_and_exits(tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await fast_table(r, "Silent", decision_seconds=0.5)
        config = GatewayConfig(url=r.url, name="silent", table=table_id)  # no hands limit
        task, port, _, err = await start_gateway(config)
        reader, writer = await raw_bot(port)
        # It sends half a reply, never ended, and then nothing at all; it reads on.
        said: list[str] = []
        started = time.monotonic()
        async with asyncio.timeout(30):
            while data := await reader.readline():
                said.append(line := data.decode().rstrip("\r\n"))
                if line.startswith("MATCHSTATE") and bot_to_act(line, HU) and len(said) < 3:
                    writer.write(f"{line}:r".encode())
            result = await task
        took = time.monotonic() - started
        print(f"\nsilent bot: the gateway left and exited after {took:.2f} s")
        writer.close()
        assert result.reason == "timeout", err.getvalue()
        assert said[-1] == (
            "# disconnected: did not answer in time (2 decisions in a row): sat out by the"
            " table, which the gateway leaves"
        ), said[-3:]
        await balanced_and_gone(r, table_id, "Silent", "silent")


async def stop_gateway(task: asyncio.Task[GatewayResult]) -> float:
    """Cancel the gateway (what Ctrl-C or SIGTERM does); how long it took to exit."""
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 20)
    return time.monotonic() - started


@pytest.mark.parametrize("bot", ["silent", "playing"])
async def test_a_stopped_gateway_leaves_the_table_and_exits_promptly(
    bot: str, tmp_path: Path
) -> None:
    async with room(tmp_path) as r:
        table_id = await fast_table(r, "Stop", decision_seconds=10.0 if bot == "silent" else 2.0)
        task, port, _, _ = await start_gateway(GatewayConfig(url=r.url, name="stop",
                                                               table=table_id))  # fmt: skip
        reader, writer = await raw_bot(port)
        async with asyncio.timeout(20):
            hands: set[str] = set()
            while len(hands) < 3:
                line = (await reader.readline()).decode().rstrip("\r\n")
                hands.add(line.split(":")[2])
                if bot == "silent" and bot_to_act(line, HU):
                    break  # its turn, and it thinks for ever: the table's clock is 10 s
                if bot_to_act(line, HU):
                    writer.write(f"{line}:c\n".encode())
        took = await stop_gateway(task)
        print(f"\n{bot} bot: the stopped gateway exited in {took:.3f} s")
        assert took < 5
        rest = await asyncio.wait_for(reader.read(), 5)  # the bot was told, and hung up on
        assert rest.decode().splitlines()[-1] == "# disconnected: the gateway stopped"
        writer.close()
        await balanced_and_gone(r, table_id, "Stop", "stop")


@pytest.mark.parametrize("ending", ["close", "reset", "half a line"])
async def test_a_bot_that_hangs_up_mid_hand_leaves_the_table(ending: str, tmp_path: Path) -> None:
    async with room(tmp_path) as r:
        table_id = await fast_table(r, "Gone")
        task, port, _, err = await start_gateway(GatewayConfig(url=r.url, name="gone",
                                                               table=table_id))  # fmt: skip
        reader, writer = await raw_bot(port)
        async with asyncio.timeout(20):
            decisions = 0
            while True:
                line = (await reader.readline()).decode().rstrip("\r\n")
                if not bot_to_act(line, HU):
                    continue
                decisions += 1
                if decisions == 3:
                    break
                writer.write(f"{line}:c\n".encode())
            if ending == "half a line":
                writer.write(f"{line}:r3".encode())
            if ending == "reset":
                reset_on_close(writer)
            writer.close()
            started = time.monotonic()
            result = await task
        took = time.monotonic() - started
        print(f"\nbot hung up ({ending}): the gateway exited after {took:.3f} s")
        assert result.reason == "stopped", err.getvalue()
        assert "Traceback" not in err.getvalue()
        await balanced_and_gone(r, table_id, "Gone", "gone")


async def test_a_bot_that_never_reads_is_hung_up_on_not_waited_for() -> None:
    accepted: asyncio.Future[BotLink] = asyncio.get_running_loop().create_future()
    server = await asyncio.start_server(
        lambda r, w: accepted.set_result(BotLink(r, w)), "127.0.0.1", 0
    )
    port = server.sockets[0].getsockname()[1]
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))  # and never read from
    link = await accepted
    link.MAX_UNSENT = 64 * 1024
    sent = 0
    started = time.monotonic()
    async with asyncio.timeout(10):
        while not link.closed:
            await link.send("MATCHSTATE:0:0::AsKd|" + "." * 1000)
            sent += 1
    print(f"\nnever reads: hung up after {sent} lines, {time.monotonic() - started:.3f} s")
    assert sent < 100_000
    sock.close()
    server.close()


async def test_sigterm_stops_the_gateway_command_which_leaves_the_table_first(
    tmp_path: Path,
) -> None:
    async with room(tmp_path) as r:
        table_id = await fast_table(r, "Signal")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "acpc", "gateway", r.url, "--table", table_id,
            "--name", "signal", "-p", "0", cwd=ROOT, stdout=PIPE, stderr=PIPE,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        try:
            async with asyncio.timeout(30):
                port = int(await proc.stdout.readline())
                reader, writer = await raw_bot(port)
                decisions = 0
                while decisions < 3:
                    line = (await reader.readline()).decode().rstrip("\r\n")
                    if bot_to_act(line, HU):
                        decisions += 1
                        writer.write(f"{line}:c\n".encode())
                proc.send_signal(signal.SIGTERM)
                started = time.monotonic()
                code = await proc.wait()
                took = time.monotonic() - started
                said = (await reader.read()).decode().splitlines()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        err = (await proc.stderr.read()).decode()
        print(f"\nSIGTERM: the gateway command left and exited in {took:.2f} s")
        writer.close()
        assert code == 0, err
        assert "gateway done (interrupted)" in err
        assert said[-1] == "# disconnected: the gateway stopped"
        await balanced_and_gone(r, table_id, "Signal", "signal")
