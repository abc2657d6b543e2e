"""``pokerroom bot run``: play a bot at a server over the websocket protocol.

``SPEC`` is a built-in strategy (``random``, ``calling-station``, ``tight-aggressive``),
``module:Class`` (the current folder is importable) or ``path/to/file.py:Class``. The first
Ctrl-C leaves the table at the end of the current hand; a second one quits at once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import sys
from collections.abc import Sequence

from server.bots.client import BotClient, BotClientError, ClientSummary, load_bot_spec
from server.bots.tournament_client import TournamentClient
from server.cli.common import (
    EXIT_USAGE,
    Parser,
    UsageError,
    add_command,
    on_stop_signals,
    positive,
)

__all__ = ["add_commands", "main"]

EXIT_FAILED = 1
"""The server refused the bot or could not be reached."""


async def _play(client: BotClient) -> ClientSummary:
    with on_stop_signals(client.stop):
        return await client.run()


def cmd_run(args: argparse.Namespace) -> int:
    """Play until ``--hands`` hands are played, the bot busts (without ``--rebuy``) or
    Ctrl-C; 0 then, 1 when the server refuses the bot or cannot be reached."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `pokerroom bot run my_bot:MyBot` from its folder
    if args.tournament is not None:
        return _tournament(args)
    try:
        url, table, invite = _where(args)
        bot = load_bot_spec(args.spec)
        client = BotClient(
            bot,
            url,
            invite=invite,
            name=args.name,
            token=args.token,
            table=table,
            buy_in=args.buy_in,
            hands=args.hands,
            rebuy=args.rebuy,
            wait_for_big_blind=args.wait_for_big_blind,
            max_retries=None if args.max_retries < 0 else args.max_retries,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    level = logging.WARNING if args.quiet else logging.DEBUG if args.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("pokerroom.bot").setLevel(level)
    try:
        summary = asyncio.run(_play(client))
    except BotClientError as exc:
        print(f"pokerroom bot run: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        data = {
            "player": summary.player,
            "table": summary.table,
            "reason": summary.reason,
            "hands_played": summary.hands_played,
            "stack": summary.stack,
            "reconnects": summary.reconnects,
            "rebuys": summary.rebuys,
            "actions": summary.actions,
            "errors": list(summary.errors),  # as the server sent them
        }
        print(json.dumps(data))
    else:
        print(
            f"{summary.player} played {summary.hands_played} hands at {summary.table} "
            f"({summary.reason}); stack {summary.stack}, {summary.reconnects} reconnections, "
            f"{summary.rebuys} re-buys, {len(summary.errors)} errors from the server"
        )
    return 0


_LINK = re.compile(r"^(https?)://([^/#?]+)[^#]*#/join/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)$")


def _where(args: argparse.Namespace) -> tuple[str, str | None, str | None]:
    """The websocket, the table and the invite: from ``--url``/``--table``, or from a
    private table's invite link (``https://host/#/join/<table>/<invite>``)."""
    if args.link is None:
        if args.url is None:
            raise UsageError("give --url (the server's websocket), or a private table's --link")
        return args.url, args.table, None
    found = _LINK.match(args.link)
    if found is None:
        raise UsageError(f"not an invite link (https://host/#/join/TABLE/INVITE): {args.link}")
    scheme, host, table, invite = found.groups()
    url = args.url or f"{'wss' if scheme == 'https' else 'ws'}://{host}/ws"
    return url, table, invite


def _tournament(args: argparse.Namespace) -> int:
    """Register for tournament ``--tournament`` and play it to the end."""
    try:
        bot = load_bot_spec(args.spec)
        if args.token is not None:
            who = {"token": args.token}
        else:  # a guest name of its own, like BotClient's
            who = {"name": args.name or f"{type(bot).__name__}-{os.getpid()}"}
        if args.url is None:
            raise UsageError("a tournament needs --url (the server's websocket)")
        client = TournamentClient(bot, args.url, args.tournament, **who)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO)
    try:
        outcome = asyncio.run(client.run())
    except (BotClientError, OSError) as exc:
        print(f"pokerroom bot run: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps({"state": outcome.state, "standings": outcome.standings,
                          "decisions": outcome.decisions, "errors": outcome.errors}))  # fmt: skip
    else:
        print(f"tournament {args.tournament}: {outcome.state}, {outcome.decisions} decisions")
        for s in outcome.standings:
            print(f"{s.get('place') or '-':>3}  {s['name']:<24} chips {s['chips']:>9}  "
                  f"prize {s.get('prize', 0)}")  # fmt: skip
    return 0


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Register ``pokerroom bot run``."""
    bot = add_command(sub, "bot", cmd_run, json_output=False)
    bot_sub = bot.add_subparsers(dest="action", required=True, parser_class=Parser)
    p = add_command(bot_sub, "run", cmd_run, "play a bot at a server over the websocket")
    p.add_argument(
        "spec",
        metavar="SPEC",
        help="random, calling-station, tight-aggressive, module:Class or file.py:Class",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--table", help="a table id (default: the first with a free seat)")
    where.add_argument(
        "--link", help="a private table's invite link: ask its host for a seat there"
    )
    p.add_argument("--url", help="the server's websocket, e.g. ws://host:8765/ws (a --link's own)")
    p.add_argument(
        "--tournament", type=positive, metavar="ID",
        help="register for tournament ID and play it to the end (docs/tournaments.md)",
    )  # fmt: skip
    who = p.add_mutually_exclusive_group()
    who.add_argument("--name", help="play as this guest (default: the bot's class and a suffix)")
    who.add_argument("--token", help="play as the account with this token")
    p.add_argument("--buy-in", type=positive, help="chips to sit with (default: the table's max)")
    p.add_argument("--hands", type=positive, help="leave after this many hands (default: never)")
    p.add_argument("--rebuy", action="store_true", help="buy in again when busted")
    p.add_argument(
        "--wait-for-big-blind",
        action="store_true",
        help="wait for the big blind to reach the bot instead of posting one to play at once",
    )
    p.add_argument(
        "--max-retries",
        type=int,
        default=10,
        help="failed connections in a row before giving up (default 10; -1: never)",
    )
    loud = p.add_mutually_exclusive_group()
    loud.add_argument("-v", "--verbose", action="store_true", help="log every message")
    loud.add_argument("-q", "--quiet", action="store_true", help="log only problems")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m server.cli.bot run ...``: the same command on its own."""
    parser = Parser(prog="pokerroom", description="pokerroom: play a bot at a server")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    add_commands(sub)
    args = parser.parse_args(["bot", *(sys.argv[1:] if argv is None else argv)])
    try:
        result: int = args.func(args)
    except UsageError as exc:
        print(f"pokerroom bot run: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return result


if __name__ == "__main__":
    raise SystemExit(main())
