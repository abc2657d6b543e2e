"""The export formats, one entry each: what the command line (``pokerroom hands export``),
the protocol's ``export`` and the browser's list of formats all read.

A format renders one stored hand as a viewer saw it and joins rendered hands into the
text of one file. Adding a format is one entry in :data:`FORMATS` (and its renderer's
module); docs/architecture.md lists the places a new one touches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import history
from server.export import HandInfo, ohh, pokerstars
from server.export.phh import SEED_FIELD

__all__ = ["FORMATS", "ExportFormat"]


@dataclass(frozen=True)
class ExportFormat:
    """One way to write hands to a file."""

    name: str
    """As the protocol and the command line name it."""
    label: str
    """As people read it (the browser's list)."""
    suffix: str
    """The file's suffix, without the dot."""
    media_type: str
    render: Callable[[HandInfo, int | None, bool], Any]
    """One hand as ``hero`` (a PHH position, or None) saw it, with ``public`` when
    nobody's hidden cards may show (a spectator's, a player's export); without either,
    the full record (the operator's). Raises
    :class:`server.export.UnsupportedGameError` for a game the format has no words for."""
    join: Callable[[Sequence[Any]], str]
    """Rendered hands as the text of one file ("" for none)."""


def _phh(info: HandInfo, hero: int | None, public: bool) -> history.HandHistory:
    if hero is None and not public:
        return info.history
    seen = history.redact(info.history, hero)
    seen.fields.pop(SEED_FIELD, None)  # a live deck's secret: for pokerroom verify alone
    return seen


def _pokerstars(info: HandInfo, hero: int | None, public: bool) -> str:
    return pokerstars.render(info, hero=hero, public=public and hero is None)


def _ohh(info: HandInfo, hero: int | None, public: bool) -> str:
    return ohh.dumps(ohh.render(info, hero=hero))


def _phhs(seen: Sequence[history.HandHistory]) -> str:
    return history.dump_all(seen) if seen else ""


def _hands_text(texts: Sequence[str]) -> str:
    """PokerStars hands (each ending in a newline) with two blank lines between them."""
    return "\n\n".join(texts)


def _documents(texts: Sequence[str]) -> str:
    """OHH documents a blank line apart, the file ending in a newline."""
    return "\n\n".join(texts) + "\n" if texts else ""


FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat("pokerstars", "PokerStars", "txt", "text/plain", _pokerstars, _hands_text),
        ExportFormat("phh", "PHH", "phhs", "text/plain", _phh, _phhs),
        ExportFormat("ohh", "OHH", "ohh", "application/json", _ohh, _documents),
    )
}
"""Every export format by its name, in the order the browser lists them."""
