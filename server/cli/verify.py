"""``pokerroom verify``: check a hand's shuffle (docs/fairness.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from pathlib import Path

from engine import EngineError, history
from server.cli import common
from server.config import database_url
from server.fairness import VerifyResult, verify_history, verify_stored
from server.store import Store


def _from_file(path: Path, name: str) -> list[tuple[str, VerifyResult]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise common.UsageError(f"cannot read {name}: {exc}") from exc
    try:
        hands = history.load_all(text) if path.suffix == ".phhs" else [history.load(text)]
    except EngineError as exc:
        raise common.UsageError(f"{name}: {exc}") from exc
    results = []
    for index, hh in enumerate(hands, start=1):
        source = f"{name}[{index}]" if path.suffix == ".phhs" else name
        try:
            results.append((source, verify_history(hh)))
        except EngineError as exc:
            raise common.UsageError(f"{source}: {exc}") from exc
    return results


def _from_store(hand_id: int, db: str | None) -> VerifyResult:
    async def go() -> VerifyResult:
        async with Store.open(database_url(db)) as store:
            return await verify_stored(store, hand_id)

    return asyncio.run(go())


def cmd_verify(args: argparse.Namespace) -> int:
    """``pokerroom verify HAND_ID_OR_FILE``: 0 when every hand checks out, 1 when one does
    not, 2 (through :func:`server.cli.main`) when a hand cannot be checked at all."""
    target: str = args.target
    path = Path(target)
    if path.is_file():
        results = _from_file(path, target)
    elif re.fullmatch(r"[0-9]+", target):
        results = [(f"hand {int(target)}", _from_store(int(target), args.db))]
    else:
        raise common.UsageError(f"{target!r} is neither a file nor a stored hand's id")
    for source, result in results:
        if args.json:
            print(json.dumps({"source": source, **result.to_json()}))
        else:
            print(f"{source}: {result.message}")
    return 0 if all(result.ok for _, result in results) else 1


def add_commands(sub: argparse._SubParsersAction[common.Parser]) -> None:
    """Register ``pokerroom verify``."""
    p = common.add_command(sub, "verify", cmd_verify)
    p.add_argument(
        "target",
        metavar="HAND_ID_OR_FILE",
        help="a stored hand's id, or a .phh (or .phhs) file",
    )
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)")
