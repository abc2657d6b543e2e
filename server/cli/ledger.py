"""``pokerroom ledger settle``: who pays whom, from a ledger CSV (docs/ledger.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from server.cli import common
from server.settle import LedgerError, read_ledger, settle

if TYPE_CHECKING:
    from server.store.ledger import Session


def _sessions(table: str, db: str | None) -> list[Session]:
    from server.config import database_url  # noqa: PLC0415  (only --table needs the store)
    from server.store import Store  # noqa: PLC0415

    async def go() -> list[Session]:
        async with Store.open(database_url(db)) as store:
            return await store.ledger_sessions(table)

    return asyncio.run(go())


def _nets(args: argparse.Namespace) -> dict[str, int]:
    """Each player's net, from the file or the stored table; LedgerError says why not."""
    if args.table is not None:  # the table's CSV, read as any ledger CSV is
        from server.store.ledger import csv_text  # noqa: PLC0415

        sessions = _sessions(args.table, args.db)
        return read_ledger(csv_text(sessions)) if sessions else {}
    if args.file is None:
        raise common.UsageError("give a ledger CSV file, or --table NAME")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"cannot read {args.file}: {exc}") from None
    try:
        return read_ledger(text)
    except LedgerError as exc:
        raise LedgerError(f"{args.file}: {exc}") from None


def cmd_settle(args: argparse.Namespace) -> int:
    """0 with the transfers printed; 1 when the file is not a ledger or does not balance."""
    try:
        transfers = settle(_nets(args))
    except LedgerError as exc:
        where = f"{args.file}: " if args.file and str(exc).startswith("the nets") else ""
        print(f"pokerroom ledger settle: error: {where}{exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([t.to_json() for t in transfers]))
    elif transfers:
        print("\n".join(map(str, transfers)))
    else:
        print("everyone is square: no transfers")
    return 0


def add_commands(sub: argparse._SubParsersAction[common.Parser]) -> None:
    """Register ``ledger`` and its subcommand ``settle``."""
    ledger = common.add_command(sub, "ledger", cmd_settle, json_output=False)
    ledger_sub = ledger.add_subparsers(dest="action", required=True, parser_class=common.Parser)
    p = common.add_command(
        ledger_sub,
        "settle",
        cmd_settle,
        "who pays whom, in the fewest transfers, from a ledger CSV (ours or PokerNow's)",
        json_output=True,
    )
    p.add_argument("file", metavar="FILE.csv", nargs="?", help="a ledger CSV: ours or PokerNow's")
    p.add_argument("--table", help="settle a stored table's ledger instead of a file")
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)")
    p = common.add_command(
        ledger_sub,
        "export",
        cmd_export,
        "a stored table's ledger as CSV, in PokerNow's columns",
        json_output=False,
    )
    p.add_argument("--table", required=True, help="the table")
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)")


def cmd_export(args: argparse.Namespace) -> int:
    """``pokerroom ledger export --table NAME``: the table's sessions as CSV on stdout."""
    from server.store.ledger import csv_text  # noqa: PLC0415

    sys.stdout.write(csv_text(_sessions(args.table, args.db)))
    return 0
