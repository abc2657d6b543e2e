"""The ``pokerroom`` command line.

Every subcommand prints text for people or, with ``--json``, JSON for programs. Bad
input (a bad card, file, hand id or database) exits with status 2 and one line on
stderr naming the problem; this module is the one place that turns errors into that.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sqlalchemy.exc import SQLAlchemyError

from engine import EngineError
from server.cli import bot, hands, serve, tools, tournament, verify
from server.cli.common import EXIT_USAGE, Parser, UsageError
from server.store import MigrationError, StoreError

__all__ = ["main"]


def build_parser() -> Parser:
    parser = Parser(prog="pokerroom", description="pokerroom: a poker server and hand tools")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    tools.add_commands(sub)
    hands.add_commands(sub)
    serve.add_commands(sub)
    verify.add_command(sub)
    bot.add_commands(sub)
    tournament.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    name = " ".join(filter(None, [args.command, getattr(args, "action", None)]))
    try:
        result: int = args.func(args)
    except (EngineError, UsageError, StoreError, MigrationError) as exc:
        print(f"pokerroom {name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        sys.stderr.close()
        return 0
    except (SQLAlchemyError, OSError, ImportError) as exc:
        # A database we cannot reach or use (or whose driver is not installed): one line.
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        print(f"pokerroom {name}: error: database: {reason}", file=sys.stderr)
        return EXIT_USAGE
    return result
