"""``pokerroom ledger settle``: who pays whom, from a ledger CSV (docs/ledger.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from server.cli import common
from server.settle import LedgerError, read_ledger, settle


def cmd_settle(args: argparse.Namespace) -> int:
    """0 with the transfers printed; 1 when the file is not a ledger or does not balance."""
    name: str = args.file
    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"pokerroom ledger settle: error: cannot read {name}: {exc}", file=sys.stderr)
        return 1
    try:
        transfers = settle(read_ledger(text))
    except LedgerError as exc:
        print(f"pokerroom ledger settle: error: {name}: {exc}", file=sys.stderr)
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
    p.add_argument("file", metavar="FILE.csv", help="a ledger CSV: ours or PokerNow's")
