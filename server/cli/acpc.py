"""``pokerroom acpc``: ACPC protocol 2.0.0 (docs/bots.md).

- ``dealer``: a drop-in for the ACPC ``dealer`` program. The arguments are the dealer's,
  in its order, so match scripts work by changing the binary: ``MATCHNAME GAMEDEF HANDS
  SEED NAME1 NAME2 ... [options]``;
- ``play``: one of our bots at an ACPC dealer's seat;
- ``gateway``: a seat of one of our tables, or a tournament entry, as an ACPC dealer's
  port, for an ACPC bot.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from pathlib import Path

from engine import acpc
from server.acpc.client import ClientError, load_gamedef, play_match
from server.acpc.dealer import (
    DEFAULT_T_HAND,
    DEFAULT_T_PER_HAND,
    DEFAULT_T_RESPONSE,
    MatchConfig,
    MatchError,
    run_match,
)
from server.acpc.state import format_value
from server.bots.loader import load_bot_spec
from server.cli import common
from server.cli.common import Parser


def _ports(text: str) -> list[int]:
    try:
        ports = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port string {text!r}") from None
    if any(not 0 <= p < 65536 for p in ports):
        raise argparse.ArgumentTypeError(f"bad port string {text!r}")
    return ports


def _millis(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None


def cmd_dealer(args: argparse.Namespace) -> int:
    """Exit 0 after the ``SCORE`` line; 1 when the match ends early (a timeout, a
    disconnect, a strict refusal), as the dealer exits with failure."""
    path = Path(args.gamedef)
    game = acpc.parse(path.read_text(encoding="utf-8"))
    if len(args.names) < game.num_players:
        raise common.UsageError(
            f"{game.num_players} players need {game.num_players} names, got {len(args.names)}"
        )
    config = MatchConfig(
        name=args.match_name,
        game_path=args.gamedef,
        game=game,
        hands=args.hands,
        seed=args.seed,
        names=args.names[: game.num_players],
        ports=args.p or [],
        host=args.host,
        fixed_seats=args.f,
        log=args.log,
        append=args.a,
        quiet=args.q,
        strict=args.strict,
        duplicate=args.duplicate,
        t_response=args.t_response,
        t_hand=args.t_hand,
        t_per_hand=args.t_per_hand,
        start_timeout=args.start_timeout if args.start_timeout >= 0 else None,
    )
    try:
        asyncio.run(run_match(config))
    except MatchError:
        return 1  # the reason is already on stderr
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Exit 0 when the dealer ends the match between hands; 1 when it cannot start or
    the connection ends in the middle of a hand."""
    try:
        text = None if args.game is None else Path(args.game).read_text(encoding="utf-8")
        game = load_gamedef(text)
        bot = load_bot_spec(args.bot)
    except (OSError, ValueError) as exc:  # InvalidConfigError is a ValueError too
        raise common.UsageError(str(exc)) from exc
    try:
        summary = asyncio.run(play_match(args.host, args.port, game, bot))
    except ClientError as exc:
        print(f"pokerroom acpc play: {exc}", file=sys.stderr)
        return 1
    text = f"hands played: {summary.hands}, won: {format_value(summary.won)}"
    if summary.hands:
        text += f" ({summary.won / summary.hands:+.2f} a hand)"
    if summary.unvalued:
        text += f"; {summary.unvalued} hands without the cards to value them"
    if summary.corrected:
        text += f"; {summary.corrected} answers off the menu, sent as calls"
    if not summary.complete:
        text += "; the dealer hung up in the middle of a hand"
    common.emit(args, text, dataclasses.asdict(summary))
    return 0 if summary.complete else 1


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid random number seed {text!r}") from None
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"seed {value} is not a 32-bit unsigned number")
    return value


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Register ``acpc``."""
    top = common.add_command(sub, "acpc", cmd_dealer, json_output=False)
    top_sub = top.add_subparsers(dest="action", required=True, parser_class=Parser)
    _add_dealer(top_sub)
    _add_play(top_sub)
    _add_gateway(top_sub)


def _add_dealer(sub: argparse._SubParsersAction[Parser]) -> None:
    p = common.add_command(
        sub,
        "dealer",
        cmd_dealer,
        "run an ACPC match (the dealer's arguments)",
        json_output=False,
    )
    p.add_argument("match_name", metavar="MATCHNAME", help="the log is MATCHNAME.log")
    p.add_argument("gamedef", metavar="GAMEDEF", help="an ACPC .game file")
    p.add_argument("hands", metavar="HANDS", type=common.positive, help="hands to play")
    p.add_argument(
        "seed", metavar="SEED", type=_seed, help="the deal's seed (same seed, same cards)"
    )
    p.add_argument("names", metavar="NAME", nargs="+", help="one per seat")
    p.add_argument("-f", action="store_true", help="fixed seats: positions do not rotate")
    p.add_argument("-l", dest="log", action="store_false", help="no log file")
    p.add_argument("-L", dest="log", action="store_true", help="a log file (the default)")
    p.add_argument("-p", type=_ports, metavar="PORT,PORT,...", help="listen ports (default: any)")
    p.add_argument("-q", action="store_true", help="only errors, warnings and the score on stderr")
    p.add_argument("-t", action="store_true", help="no transaction file (the only choice here)")
    p.add_argument("-a", action="store_true", help="append to the log file")
    _add_clocks(p)
    p.add_argument(
        "--strict",
        action="store_true",
        help="disconnect a seat that sends a bad or illegal action, saying why",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play the match again with the same seed and the positions rotated, once per"
        " further rotation; SCORE sums every pass",
    )
    p.add_argument("--host", default="0.0.0.0", help="address to listen on")
    p.set_defaults(log=True)


def _add_clocks(p: argparse.ArgumentParser) -> None:
    """The dealer's clocks, in milliseconds."""
    p.add_argument(
        "--t_response",
        type=_millis,
        default=DEFAULT_T_RESPONSE,
        metavar="MS",
        help="most time per response",
    )
    p.add_argument(
        "--t_hand",
        type=_millis,
        default=DEFAULT_T_HAND,
        metavar="MS",
        help="most time a player uses in one hand",
    )
    p.add_argument(
        "--t_per_hand",
        type=_millis,
        default=DEFAULT_T_PER_HAND,
        metavar="MS",
        help="most average time per hand over the match",
    )
    p.add_argument(
        "--start_timeout",
        type=_millis,
        default=-1,
        metavar="MS",
        help="most time to wait for the players to connect (<0: no limit)",
    )


def _add_play(sub: argparse._SubParsersAction[Parser]) -> None:
    p = common.add_command(sub, "play", cmd_play, "play a bot of ours at an ACPC dealer's seat")
    p.add_argument("host", metavar="HOST", help="the dealer's host")
    p.add_argument("port", metavar="PORT", type=common.positive, help="this seat's port")
    p.add_argument(
        "--bot",
        required=True,
        help="random, calling-station, tight-aggressive, module:Class or file.py:Class",
    )
    p.add_argument(
        "--game",
        metavar="GAMEDEF",
        help="the match's .game file (default: heads-up no-limit hold'em, 20000 stacks, 50/100)",
    )


def cmd_gateway(args: argparse.Namespace) -> int:
    """Exit 0 when the seat is done (the bot hung up, the hands were played, the seat
    busted, the tournament ended, Ctrl-C or SIGTERM: the seat leaves the table first);
    1 when ``--strict`` disconnected the bot or the table sat it out for not answering in
    time; 2 when the gateway cannot start (one line on stderr)."""
    # The gateway speaks websockets: loaded only when it runs.
    from server.acpc.gateway import (  # noqa: PLC0415 - websockets, for this command only
        GatewayConfig,
        GatewayError,
        GatewayResult,
        run_gateway,
    )

    if args.hands is not None and args.tournament is not None:
        raise common.UsageError("--hands is for a table; a tournament plays to its end")
    config = GatewayConfig(
        url=args.url,
        name=args.name,
        token=args.token,
        table=args.table,
        tournament=args.tournament,
        buy_in=args.buy_in,
        port=args.p,
        host=args.host,
        gamedef=None if args.gamedef is None else Path(args.gamedef),
        strict=args.strict,
        hands=args.hands,
        any_players=args.any_players,
        rebuy=args.rebuy,
    )

    async def until_stopped() -> GatewayResult:
        # The first SIGINT or SIGTERM stops the session (the seat leaves the table, the
        # bot is told); a second one cancels it (it still leaves, within a few seconds).
        stop, task = asyncio.Event(), asyncio.current_task()
        assert task is not None

        def signalled() -> None:
            if stop.is_set():
                task.cancel()
            stop.set()

        with common.on_stop_signals(signalled):
            return await run_gateway(config, stop=stop)

    try:
        result = asyncio.run(until_stopped())
    except GatewayError as exc:
        raise common.UsageError(str(exc)) from exc
    except asyncio.CancelledError:
        print("gateway stopped", file=sys.stderr, flush=True)
        return 0
    text = (
        f"gateway done ({result.reason}): {result.hands} hands, {result.lines} lines sent,"
        f" {result.fixed} replies fixed, {result.skipped} hands not sent"
    )
    print(text, file=sys.stderr, flush=True)
    return 1 if result.refusal is not None or result.reason == "timeout" else 0


def _add_gateway(sub: argparse._SubParsersAction[Parser]) -> None:
    p = common.add_command(
        sub,
        "gateway",
        cmd_gateway,
        "a seat at one of our tables, or a tournament entry, as an ACPC port for an ACPC bot",
        json_output=False,
    )
    p.add_argument("url", metavar="URL", help="the server's websocket, ws://host:port/ws")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="ID", help="sit at this table")
    where.add_argument(
        "--tournament", metavar="ID", type=common.positive, help="enter this tournament"
    )
    p.add_argument("--name", required=True, help="the player's name at the server")
    p.add_argument("--token", help="play as the account this token belongs to")
    p.add_argument(
        "--buy-in", type=common.positive, metavar="N", help="chips to sit with (default: the most)"
    )
    p.add_argument("-p", type=int, default=0, metavar="PORT", help="the port to listen on")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    p.add_argument("--gamedef", metavar="FILE", help="write the seat's ACPC gamedef here")
    p.add_argument(
        "--strict",
        action="store_true",
        help="disconnect the bot, saying why, for a reply that needs fixing",
    )
    p.add_argument(
        "--hands", type=common.positive, metavar="N", help="leave the table after N hands"
    )
    p.add_argument(
        "--rebuy",
        action="store_true",
        help="sit again with the buy-in when busted (an ACPC match resets the stacks)",
    )
    p.add_argument(
        "--any-players",
        action="store_true",
        help="send every hand, however many are dealt in (default: only hands of the"
        " gamedef's numPlayers)",
    )
