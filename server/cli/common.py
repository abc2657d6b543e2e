"""What every ``pokerroom`` subcommand shares: errors, output, finding PHH files."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import NoReturn

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the command line; the message is the one line shown."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: scripts read stderr.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


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
    help_text: str,
    *,
    json_output: bool = True,
) -> argparse.ArgumentParser:
    """Register a subcommand; with ``json_output`` it takes ``--json``."""
    parser = sub.add_parser(name, help=help_text, description=help_text)
    if json_output:
        parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(func=func)
    return parser
