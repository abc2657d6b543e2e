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
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import GAMES, TableConfig, stakes_for_blinds
from engine.acpc import GameDef, parse
from server.acpc.client import VERSION_LINE, AcpcPlayer
from server.acpc.gamedefs import gamedef_text, table_gamedef
from server.acpc.gateway import GatewayConfig, GatewayResult, run_gateway
from server.app import PokerServer, ServerSettings
from server.bots.loader import load_bot_spec
from server.store import Store

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
                               gamedef=gamedef)  # fmt: skip
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
