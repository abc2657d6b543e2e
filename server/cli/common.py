"""What every ``pokerroom`` subcommand shares: the table of commands, errors, output,
progress bars, finding PHH files.

Every module here is light to import: a command imports what it needs (SQLAlchemy, the
server, rich) in the module that runs it, which ``pokerroom`` loads only for that command.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    import rich.progress

EXIT_USAGE = 2

COMMANDS: dict[str, tuple[str, str]] = {
    "eval": ("tools", "name the best hand among 5 or more cards"),
    "compare": ("tools", "compare two hands: WIN, LOSE or DRAW for the first"),
    "showdown": ("tools", "score a file of ten-card lines (Project Euler 54)"),
    "equity": ("tools", "win, tie and equity of hold'em hands"),
    "replay": ("tools", "replay PHH hand histories and check their final stacks"),
    "demo": ("tools", "deal random showdowns and evaluate them"),
    "db": ("hands", "migrate the database"),
    "hands": ("hands", "stored hand histories"),
    "serve": ("serve", "run the poker server"),
    "verify": ("verify", "check a hand's shuffle: its seed, commitment and cards"),
    "bot": ("bot", "play bots at a server"),
    "tournament": ("tournament", "run a tournament between bots"),
    "acpc": ("acpc", "ACPC protocol 2.0.0: a drop-in dealer, and a player for our bots"),
    "ledger": ("ledger", "settle up a night's ledger: who pays whom"),
}
"""Each ``pokerroom`` command, in the order ``--help`` lists them: the module of
``server.cli`` that registers and runs it, and its one line of help. A module's commands
stand together, in the order it registers them."""


class UsageError(Exception):
    """Bad input from the command line; the message is the one line shown."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: scripts read stderr.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


@contextlib.contextmanager
def on_stop_signals(handler: Callable[[], None]) -> Iterator[None]:
    """Call ``handler`` on each SIGINT and SIGTERM while inside, in the running loop
    (where it can: not on Windows)."""
    loop = asyncio.get_running_loop()
    handled = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, handler)
            handled.append(sig)
    try:
        yield
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)


def emit(args: argparse.Namespace, text: str, data: object) -> None:
    print(json.dumps(data) if args.json else text)


def json_number(value: object) -> object:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def phh_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = [p for p in path.rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file()]
            files += sorted(
                found,
                key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(p))],
            )
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"no such file or folder: {name}")
    return files


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


Command = Callable[[argparse.Namespace], int]


def add_command(
    sub: argparse._SubParsersAction[Parser],
    name: str,
    func: Command,
    help_text: str | None = None,
    *,
    json_output: bool = True,
) -> argparse.ArgumentParser:
    """Register a subcommand; with ``json_output`` it takes ``--json``. A ``pokerroom``
    command's help comes from :data:`COMMANDS`; a subcommand's (``hands list``) is given."""
    help_text = COMMANDS[name][1] if help_text is None else help_text
    parser = sub.add_parser(name, help=help_text, description=help_text)
    if json_output:
        parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(func=func)
    return parser


class Progress:
    """Where a long command counts what it has done: a bar (see :func:`progress`), or
    nowhere, as here."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are done."""

    def set_total(self, total: int | None) -> None:
        """There are ``total`` in all (without one, the bar only counts)."""


class _Bar(Progress):
    def __init__(self, bar: rich.progress.Progress, task: rich.progress.TaskID) -> None:
        self.bar, self.task = bar, task

    def advance(self, steps: int = 1) -> None:
        self.bar.advance(self.task, steps)

    def set_total(self, total: int | None) -> None:
        self.bar.update(self.task, total=total)


@contextlib.contextmanager
def progress(
    description: str, total: int | None = None, *, hide: bool = False
) -> Iterator[Progress]:
    """A progress bar on stderr while the block runs, when stderr is a terminal and not
    ``hide``; piped, or hidden, the command prints what it always did and rich is never
    imported. The bar goes when the block ends (transient), so it leaves nothing behind."""
    if hide or not sys.stderr.isatty():
        yield Progress()
        return
    import rich.console  # noqa: PLC0415 - ~60 ms, only for a terminal
    import rich.progress  # noqa: PLC0415

    # What the command prints meanwhile goes above the bar when stdout is this terminal
    # too; a piped stdout is left alone, so nothing a program reads goes to stderr.
    with rich.progress.Progress(
        rich.progress.TextColumn("{task.description}"),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TimeElapsedColumn(),
        console=rich.console.Console(stderr=True),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
    ) as bar:
        yield _Bar(bar, bar.add_task(description, total=total))
