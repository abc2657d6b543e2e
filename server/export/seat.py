"""A stored hand as one of its players saw it (the protocol's ``hand`` message).

The hand is told three ways, each hiding exactly what the live table hid from that
player: the events as the table sent them to the seat (the history replayed at the
table's own seats, each event redacted by :func:`engine.redact`, as the table does); the
PHH history with the other players' unshown hole cards unknown (``????``), their draws
as counts, stud's up cards kept; and the player's own PokerStars history, for the games
PokerStars deals (None for the others: Kuhn, dice, ...). Neither text carries the deck's
secret seed, which would show every card (docs/fairness.md). Every game the engine plays
has the first two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from engine import Event, PublicState, history, redact
from server.export import HandInfo, UnsupportedGameError, pokerstars
from server.export.formats import FORMATS
from server.export.phh import SEED_FIELD

if TYPE_CHECKING:
    from server.store import Store

__all__ = ["ExportRequest", "SeenHand", "export_seen", "export_stored", "seen_from"]


@dataclass(frozen=True)
class SeenHand:
    events: list[Event]
    """The hand's events as the player's seat received them."""
    states: list[PublicState | None]
    """By event: the table's state after it, on the last event of each batch (as the
    live table sent it), else None."""
    phh: str
    pokerstars: str | None
    """None for a game PokerStars does not deal (no :attr:`engine.Game.pokerstars`)."""


def seen_from(info: HandInfo, position: int) -> SeenHand:
    """``info``'s hand as the player at ``position`` (PHH order: 0 is ``p1``) saw it.
    The replay is at the table's seats, button and small blind, from ``info`` (PHH
    records neither the button nor the small blind), so its events are the table's own.

    Raises :class:`engine.HistoryError` if the history does not replay."""
    seats = info.engine_seats
    played = history.replay(
        info.history, seats=seats, button=info.button_seat - 1, small_blind=info.small_blind,
        states=True,
    )  # fmt: skip
    states: list[PublicState | None] = [None] * len(played.events)
    for count, state in played.states:
        states[count - 1] = state
    seen = history.redact(info.history, position)
    seen.fields.pop(SEED_FIELD, None)
    try:
        text: str | None = pokerstars.render(info, hero=position)
    except UnsupportedGameError:
        text = None
    return SeenHand(
        events=[redact(event, seats[position]) for event in played.events],
        states=states,
        phh=history.dump(seen),
        pokerstars=text,
    )


def export_seen(
    infos: Sequence[HandInfo], player: str, fmt: str, since: datetime | None = None
) -> tuple[str, int]:
    """Hands as one file in ``fmt`` (a name in :data:`FORMATS`), each as ``player`` saw
    it, and how many it holds: their own hole cards in the hands they played (the hero's,
    in PokerStars text and OHH), nobody's hidden cards, no deck seed. A hand begun before
    ``since`` (when this player came to be: a guest's name may have been someone else's
    before) is told as a spectator saw it. Hands of a game the format has no words for
    (PokerStars and OHH: Kuhn, dice, ...) are left out."""
    form = FORMATS[fmt]

    def position(info: HandInfo) -> int | None:
        theirs = since is None or info.started_at >= since
        return info.players.index(player) if theirs and player in info.players else None

    rendered = []
    for info in infos:
        try:
            rendered.append(form.render(info, position(info), True))
        except UnsupportedGameError:
            continue
    return form.join(rendered), len(rendered)


@dataclass(frozen=True)
class ExportRequest:
    """The newest ``limit`` hands played at ``table`` since ``since``, as ``player`` (a
    guest's name theirs since ``seen_since``) saw them, in ``fmt``."""

    table: str
    since: datetime
    limit: int
    player: str
    fmt: str
    seen_since: datetime | None = None


async def export_stored(store: Store, request: ExportRequest) -> tuple[str, int]:
    """:func:`export_seen` of the hands ``request`` asks for, oldest first, read from
    ``store``: a job for the records worker (:mod:`server.stats.worker`), where reading,
    parsing and rendering them delays no table."""
    r = request
    listed = await store.list_hands(table=r.table, since=r.since, imported=False, limit=r.limit)
    infos = await store.hand_infos([h.id for h in reversed(listed)])
    return export_seen(infos, r.player, r.fmt, r.seen_since)
