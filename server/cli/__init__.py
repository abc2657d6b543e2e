"""The ``pokerroom`` command line.

Every subcommand prints text for people or, with ``--json``, JSON for programs. Bad
input (a bad card, file, hand id or database) exits with status 2 and one line on
stderr naming the problem; this module is the one place that turns errors into that.

Only the module of the command that runs is imported (see :data:`common.COMMANDS`): the
hand tools start without SQLAlchemy, the server or rich, in a fifth of the time.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from server.cli.common import COMMANDS, EXIT_USAGE, Parser

__all__ = ["main"]


def build_parser(command: str | None = None) -> Parser:
    """The parser, complete for ``command`` (and the other commands of its module); every
    other command has only its name and help, enough for ``pokerroom --help`` and for
    naming a wrong one. Without ``command``, every one is complete."""
    parser = Parser(prog="pokerroom", description="pokerroom: a poker server and hand tools")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    chosen = COMMANDS[command][0] if command in COMMANDS else None
    for name, (module, help_text) in COMMANDS.items():
        if name in sub.choices:  # registered with an earlier one of its module
            continue
        if command is None or module == chosen:
            importlib.import_module(f"server.cli.{module}").add_commands(sub)
        else:
            sub.add_parser(name, help=help_text, description=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((arg for arg in argv if not arg.startswith("-")), "")
    args = build_parser(command).parse_args(argv)
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


# The errors that name a problem the user can fix, by the module that defines each. An
# error from a module that was never imported cannot have been raised, so checking for
# it never imports SQLAlchemy or the server into a command that does not use them.
_USER_ERRORS: dict[str, tuple[str, ...]] = {
    "engine.errors": ("EngineError",),
    "server.cli.common": ("UsageError",),
    "server.store": ("StoreError", "MigrationError"),
    "server.config": ("ConfigError",),
    "server.app": ("ListenError",),
    "server.export": ("UnsupportedGameError",),
}
_DATABASE_ERRORS: dict[str, tuple[str, ...]] = {"sqlalchemy.exc": ("SQLAlchemyError",)}


def _loaded(errors: dict[str, tuple[str, ...]]) -> tuple[type[BaseException], ...]:
    return tuple(
        getattr(sys.modules[module], name)
        for module, names in errors.items()
        if module in sys.modules
        for name in names
    )


def _reason(exc: BaseException) -> str | None:
    """The one line naming a problem the user can fix (a bad card, file, option, database,
    a port in use), or None for a bug. Errors raised inside a task group arrive grouped:
    the first that names such a problem is the one."""
    if isinstance(exc, BaseExceptionGroup):
        return next(filter(None, map(_reason, exc.exceptions)), None)
    if isinstance(exc, _loaded(_USER_ERRORS)):
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, (ImportError, *_loaded(_DATABASE_ERRORS))):
        # A database we cannot reach or use (or whose driver is not installed).
        return "database: " + str(getattr(exc, "orig", None) or exc).splitlines()[0]
    if isinstance(exc, FileNotFoundError | PermissionError | IsADirectoryError):
        return f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)
    if isinstance(exc, OSError):  # a server we cannot reach: the database, most often
        return "database: " + (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return None
