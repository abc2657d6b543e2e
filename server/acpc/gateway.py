"""The ACPC gateway: a seat of an ordinary table, or a tournament entry, exposed as an ACPC
dealer's port (``pokerroom acpc gateway``; docs/bots.md).

A bot that speaks the ACPC dealer's protocol 2.0.0 plays at our server unchanged:

1. the gateway looks the table (or tournament) up, refuses a game ACPC cannot express
   (:func:`server.acpc.gamedefs.game_problem`) and, if asked, writes the gamedef the bot is
   to be started with;
2. it listens on one TCP port, printed as the first line of stdout as the dealer prints
   its ports, takes one connection and reads its ``VERSION:2.0.0`` line;
3. it connects to the server over the websocket with the bot SDK, as the player named, and
   sits at the table with a buy-in (:class:`server.acpc.sessions.TableSeat`) or registers
   for the tournament and plays its tables (:class:`server.acpc.sessions.TournamentSeat`);
4. the seat's events become ``MATCHSTATE`` lines (:mod:`server.acpc.seat`) and the bot's
   replies our ``act`` (:mod:`server.acpc.bridge`), until the bot hangs up (the gateway
   leaves the table), ``hands`` hands are played, the seat busts, or the tournament ends
   (the gateway hangs up, as the dealer does at the end of a match).

Our table's clock applies: a bot too slow is acted for as any player is; one the table
sits out for it ends the session (``timeout``: the seat leaves, the bot is told why and
hung up on). However the session ends (the bot hangs up, goes silent, or sends what
cannot be read; the gateway is cancelled, as Ctrl-C or SIGTERM do), the seat leaves the
table, through ``leave``, so that its chips are cashed out in the table's ledger: the
gateway waits :data:`LEAVE_SECONDS` for the hand it is in to end, then closes, the server
standing the seat up when the hand ends; and every task it started ends with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from engine import EngineError, Game, TableConfig, stakes_for_blinds
from engine import game as preset
from engine.acpc import GameDef
from server.acpc.bridge import Bridge, accept_bot
from server.acpc.gamedefs import GatewayError, game_problem, gamedef_text, table_gamedef
from server.acpc.seat import SeatTranslator
from server.acpc.sessions import TableSeat, TournamentSeat
from server.bots.errors import BotClientError
from server.bots.wire import config_from_summary

__all__ = ["GatewayConfig", "GatewayError", "GatewayResult", "describe", "run_gateway"]

# How long a seat that leaves waits for the server to stand it up (the hand it is in
# ends: folded for at once if it is to act), before the gateway closes its connection
# anyway (the server has its leave: it stands the seat up when the hand ends), and how
# long it then waits for the connection to close.
LEAVE_SECONDS: Final = 10.0
CLOSE_SECONDS: Final = 2.0


@dataclass
class GatewayConfig:
    """``pokerroom acpc gateway URL (--table NAME | --tournament ID) --name NAME ...``."""

    url: str
    name: str | None = None
    token: str | None = None
    table: str | None = None
    tournament: int | None = None
    buy_in: int | None = None  # None: the table's maximum
    port: int = 0  # 0: any free port
    host: str = "127.0.0.1"
    gamedef: Path | None = None
    strict: bool = False
    hands: int | None = None
    any_players: bool = False
    rebuy: bool = False  # sit again when busted, as an ACPC match resets the stacks


@dataclass
class GatewayResult:
    """How the session ended: ``reason`` is the SDK client's (``hands``, ``stopped``: the
    bot hung up, ``busted``, ``closed``) or the tournament's state, or ``refused``
    (strict), ``timeout`` (the table sat the silent bot out) or ``interrupted`` (the
    gateway was stopped)."""

    reason: str
    hands: int
    lines: int
    skipped: int
    fixed: int
    warnings: int
    refusal: str | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)


async def _ask(url: str, message: dict[str, Any]) -> dict[str, Any]:
    """One question to the server, without saying hello; its reply."""
    try:
        async with connect(url, open_timeout=10) as ws:
            await ws.send(json.dumps({**message, "id": "gateway"}))
            async for raw in ws:
                reply = json.loads(raw)
                if isinstance(reply, dict) and reply.get("re") == "gateway":
                    return reply
    except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as exc:
        raise GatewayError(
            f"cannot reach the server at {url}: {exc or type(exc).__name__}"
        ) from exc
    raise GatewayError(f"the server at {url} closed the connection without answering")


def _table_gamedef(config: GatewayConfig, tables: list[dict[str, Any]]) -> tuple[GameDef, Game]:
    summary = next((t for t in tables if t["id"] == config.table), None)
    if summary is None:
        known = ", ".join(repr(t["id"]) for t in tables) or "none"
        raise GatewayError(f"no table {config.table!r} on the server (tables: {known})")
    if summary.get("mix"):
        raise GatewayError(f"table {config.table!r} plays a mixed game; the gateway plays one game")
    players, seats = len(summary["players"]), int(summary["seats"])
    if players >= seats:
        raise GatewayError(f"table {config.table!r} has no free seat: all {seats} are taken")
    low, high = int(summary["min_buy_in"]), int(summary["max_buy_in"])
    buy_in = high if config.buy_in is None else config.buy_in
    if not low <= buy_in <= high:
        raise GatewayError(
            f"a buy-in of {buy_in} is outside table {config.table!r}'s range, {low}..{high}"
        )
    table = config_from_summary(summary)
    return table_gamedef(table, max(2, players + 1), buy_in), table.game


def _tournament_gamedef(
    config: GatewayConfig, listed: list[dict[str, Any]]
) -> tuple[GameDef, Game]:
    found = next((t for t in listed if t["id"] == config.tournament), None)
    if found is None:
        raise GatewayError(f"no tournament {config.tournament} on the server")
    if found["state"] != "registering":
        raise GatewayError(f"tournament {config.tournament} is {found['state']}: too late to enter")
    settings = found["settings"]
    if settings.get("mix"):
        raise GatewayError(f"tournament {config.tournament} plays a mix ({settings['mix']}); "
                           "the gateway plays one game")  # fmt: skip
    game = preset(str(settings["game"]))
    problem = game_problem(game)
    if problem is not None:
        raise GatewayError(problem)
    freezeout = settings["format"] in ("sng", "mtt")
    small, big, ante = settings["blinds"]["levels"][0] if freezeout else settings["stakes"]
    players = 2 if settings["format"] == "round-robin" else min(found["field"], settings["seats"])
    stakes: Any = stakes_for_blinds(game, small, big, ante)
    table = TableConfig(seats=max(2, players), game=game, **stakes)
    return table_gamedef(table, players, int(settings["starting_stack"])), game


async def describe(config: GatewayConfig) -> tuple[GameDef, Game]:
    """The gamedef of the seat the gateway is to take, and the table's game:
    :class:`GatewayError` if the server cannot be reached, the table or tournament is not
    there or cannot be entered, or ACPC cannot express its game."""
    try:
        if config.tournament is not None:
            listed = await _ask(config.url, {"type": "list_tournaments"})
            return _tournament_gamedef(config, listed.get("tournaments", []))
        listed = await _ask(config.url, {"type": "list_tables"})
        return _table_gamedef(config, listed.get("tables", []))
    except EngineError as exc:
        raise GatewayError(f"cannot describe the game as a gamedef: {exc}") from exc


async def run_gateway(
    config: GatewayConfig,
    out: IO[str] = sys.stdout,
    err: IO[str] = sys.stderr,
    on_port: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
) -> GatewayResult:
    """Run the gateway for one bot, start to end; :class:`GatewayError` if it cannot start
    (then nothing was listened on) or the server refuses the seat. ``stop`` (Ctrl-C, say)
    ends the session as the bot hanging up does, the bot told why: ``interrupted``.
    Cancelled, it leaves the table the same way before it ends."""
    if (config.table is None) == (config.tournament is None):
        raise GatewayError("give a table or a tournament")
    base, game = await describe(config)
    if config.gamedef is not None:
        config.gamedef.write_text(gamedef_text(base), encoding="utf-8")
    stopped = asyncio.get_running_loop().create_task((stop or asyncio.Event()).wait())
    try:
        accepting = asyncio.get_running_loop().create_task(
            accept_bot(config.host, config.port, out, err, on_port)
        )
        try:
            await asyncio.wait({accepting, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not accepting.done():  # stopped before a bot came
                await _end(accepting)
        if accepting.cancelled():
            return GatewayResult("interrupted", 0, 0, 0, 0, 0)
        link = accepting.result()
        bridge = Bridge(link, SeatTranslator(base, game, any_players=config.any_players),
                        strict=config.strict, err=err)  # fmt: skip
        reader = asyncio.get_running_loop().create_task(bridge.read_replies())
        try:
            return await _play(config, bridge, reader, stopped)
        except BotClientError as exc:
            raise GatewayError(str(exc)) from exc
        except asyncio.CancelledError:
            bridge.farewell = "the gateway stopped"
            raise
        finally:
            await _end(reader)
            await link.close(bridge.farewell)
    finally:
        await _end(stopped)


async def _end(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait for it to end."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _play(
    config: GatewayConfig, bridge: Bridge, reader: asyncio.Task[None], stopped: asyncio.Task[Any]
) -> GatewayResult:
    """Play until the seat is done, the bot hangs up or the gateway is stopped (a table's
    seat is then left)."""
    who = {"name": config.name} if config.token is None else {"token": config.token}
    if config.tournament is not None:
        entry = TournamentSeat(bridge, config.url, config.tournament, **who)
        play = asyncio.get_running_loop().create_task(entry.run())
        try:
            await asyncio.wait({play, reader, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not play.done():  # the bot has gone: a player who has gone is acted for
                await _end(play)
        if play.cancelled():
            if stopped.done():
                bridge.farewell = "the gateway stopped"
                return _result(bridge, "interrupted", entry.outcome.standings)
            return _result(bridge, "bot left", entry.outcome.standings)
        outcome = play.result()
        return _result(bridge, outcome.state, outcome.standings)
    client = TableSeat(bridge, config.url, **who, table=config.table, buy_in=config.buy_in,
                       hands=config.hands, rebuy=config.rebuy)  # fmt: skip
    table = asyncio.get_running_loop().create_task(client.run())
    try:
        await asyncio.wait({table, reader, stopped}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # the gateway is cancelled: leave the table first
        await _leave(client, table)
        raise
    interrupted = stopped.done() and not table.done()
    if interrupted:
        bridge.farewell = "the gateway stopped"
    if not table.done():  # the bot has gone, or we stop: leave (the server folds for us)
        await _leave(client, table)
    if table.cancelled():  # the server never let the seat go: the connection was dropped
        return _result(bridge, "closed", [])
    summary = await table
    return _result(bridge, "interrupted" if interrupted else summary.reason, [])


async def _leave(client: TableSeat, table: asyncio.Task[Any]) -> None:
    """Leave the table (``leave``: the server folds for the seat if it is to act, and
    stands it up with its chips when the hand ends), waiting :data:`LEAVE_SECONDS` for
    that; then close the connection, then give up on it. Whatever happens, a cancellation
    included (the connection then closes at once), ``table`` has ended on return."""
    client.stop()
    try:
        done, _ = await asyncio.wait({table}, timeout=LEAVE_SECONDS)
        if not done:
            client.stop()  # a second stop closes the connection
            await asyncio.wait({table}, timeout=CLOSE_SECONDS)
    finally:
        if not table.done():
            await _end(table)


def _result(bridge: Bridge, reason: str, standings: list[dict[str, Any]]) -> GatewayResult:
    seat = bridge.seat
    return GatewayResult(
        reason="refused" if bridge.refusal else reason,
        hands=seat.hands,
        lines=seat.lines,
        skipped=seat.skipped,
        fixed=bridge.fixed,
        warnings=bridge.warnings,
        refusal=bridge.refusal,
        standings=standings,
    )
