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
from server.app import ListenError
from server.cli import bot, hands, serve, tools, tournament, verify
from server.cli.common import EXIT_USAGE, Parser, UsageError
from server.config import ConfigError
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
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        sys.stderr.close()
        return 0
    except Exception as exc:
        reason = _reason(exc)
        if reason is None:  # a bug: the traceback is for us
            raise
        print(f"pokerroom {name}: error: {reason}", file=sys.stderr)
        return EXIT_USAGE
    return result


_USER_ERRORS = (EngineError, UsageError, StoreError, MigrationError, ConfigError, ListenError)


def _reason(exc: BaseException) -> str | None:
    """The one line naming a problem the user can fix (a bad card, file, option, database,
    a port in use), or None for a bug. Errors raised inside a task group arrive grouped:
    the first that names such a problem is the one."""
    if isinstance(exc, BaseExceptionGroup):
        return next(filter(None, map(_reason, exc.exceptions)), None)
    if isinstance(exc, _USER_ERRORS):
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, SQLAlchemyError | ImportError):
        # A database we cannot reach or use (or whose driver is not installed).
        return "database: " + str(getattr(exc, "orig", None) or exc).splitlines()[0]
    if isinstance(exc, FileNotFoundError | PermissionError | IsADirectoryError):
        return f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)
    if isinstance(exc, OSError):  # a server we cannot reach: the database, most often
        return "database: " + (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return None
