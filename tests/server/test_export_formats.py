"""The export registry (server/export/formats.py): one entry a format, read by the
command line, the protocol, the welcome and docs/hands.md alike."""

from __future__ import annotations

import argparse
from pathlib import Path

from server import protocol
from server.cli import build_parser
from server.export.formats import FORMATS

HANDS_DOC = Path(__file__).parents[2] / "docs" / "hands.md"


def test_every_client_names_the_formats_of_the_registry() -> None:
    """The protocol accepts exactly the registry's names, the welcome lists them in its
    order (the browser's list), and the command line offers the same choices."""
    names = list(FORMATS)
    assert [f["name"] for f in protocol.catalogue_body()["export_formats"]] == names
    for name in names:
        assert protocol.parse(f'{{"type": "export", "table": "t", "format": "{name}"}}')
    try:
        protocol.parse('{"type": "export", "table": "t", "format": "csv"}')
    except protocol.ProtocolError as exc:
        assert exc.code == "bad_message" and "'pokerstars', 'phh', 'ohh', not 'csv'" in str(exc)
    else:
        raise AssertionError("an unknown format was taken")
    export = next(a for a in _export_parser()._actions if "--format" in a.option_strings)
    assert list(export.choices or ()) == names


def _export_parser() -> argparse.ArgumentParser:
    hands = _subcommand(build_parser(), "hands")
    return _subcommand(hands, "export")


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = sub.choices[name]
    return found


def test_docs_hands_has_a_row_for_every_format() -> None:
    text = HANDS_DOC.read_text(encoding="utf-8")
    for name in FORMATS:
        assert f"\n| `{name}` |" in text, name
